/// The evaluation of a cascade's windows, one scale at a time: every node's feature as
/// corner offsets into that scale's integral image, flattened, so that the loop over
/// windows reads only arrays. Its buffers serve every scale in turn.
///
/// Nearly every window fails in the cascade's first stage or two, so the scan runs those
/// on eight neighbouring windows at once (SIMD lanes, each lane the same arithmetic as the
/// window on its own, so the same windows pass) and takes the few that survive on alone.
struct WindowEvaluator {
  static let lanes = 8
  typealias Lanes<T: SIMDScalar> = SIMD8<T>

  let cascade: Cascade
  private var integral = IntegralImage()
  /// Per node: 3 rectangles × 4 corners into the integral image.
  private var offsets: [Int]
  /// Per node: the 3 rectangles' weights.
  private let weights: [Float]
  /// The variance window: the cascade's window less one pixel all round, as OpenCV's.
  private var normOffsets = (0, 0, 0, 0)
  private let normArea: Double
  /// How the loaded integral image lays out its columns (see ``IntegralImage/Columns``).
  private var columns = IntegralImage.Columns.inOrder
  /// Lanes stay together while at least this many are alive: below it, one window at a
  /// time is cheaper than eight.
  static let fewestAliveLanes = 2
  /// Trees larger than this are walked one window at a time (the cascades of opencv-data
  /// have one to three nodes).
  static let largestVectorTree = 8

  init(cascade: Cascade) {
    self.cascade = cascade
    offsets = [Int](repeating: 0, count: cascade.nodes.count * 12)
    weights = cascade.nodeRects.map(\.weight)
    normArea = Double((cascade.windowWidth - 2) * (cascade.windowHeight - 2))
  }

  /// Makes `picture` (one scale) the one ``scan(step:lastX:lastY:vectorized:accepted:)``
  /// reads, laid out for steps of `step`: with steps of 2, eight windows two apart read
  /// eight neighbouring entries when each row holds its even columns, then its odd ones.
  mutating func load(_ picture: GrayPicture, step: Int) {
    columns = step == 2 ? .evenThenOdd : .inOrder
    integral.fill(picture, columns: columns)
    let stride = integral.width
    let columns = columns
    func at(_ x: Int, _ y: Int) -> Int { y * stride + columns.place(x, stride: stride) }
    offsets.withUnsafeMutableBufferPointer { offsets in
      for (index, r) in cascade.nodeRects.enumerated() where 4 * index + 3 < offsets.count {
        let o = 4 * index
        offsets[o] = at(r.x, r.y)
        offsets[o + 1] = at(r.x + r.width, r.y)
        offsets[o + 2] = at(r.x, r.y + r.height)
        offsets[o + 3] = at(r.x + r.width, r.y + r.height)
      }
    }
    let (w, h) = (cascade.windowWidth - 2, cascade.windowHeight - 2)
    normOffsets = (at(1, 1), at(1 + w, 1), at(1, 1 + h), at(1 + w, 1 + h))
  }

  /// Calls `judged` with every window (x, y) judged and its result (1 accepted, `-stage`
  /// for the stage that failed, -1 too flat), for x below `lastX` and y below `lastY` in
  /// steps of `step` (1 or 2), as OpenCV visits them: a window rejected by the very first
  /// stage makes the scan skip the next position, whose window likely fails too.
  /// The picture must have been loaded with the same `step`.
  ///
  /// Each window judged costs `budget` the nodes on its way (every node of the stages it
  /// reached, ``Cascade/nodesThrough``); the scan stops when `budget` runs out, so a model
  /// whose every stage accepts everything cannot make a picture cost more than `budget`.
  ///
  /// With `candidates`, only the windows it admits are judged, and eight neighbours none of
  /// which it admits are skipped together.
  func scan(
    step: Int, lastX: Int, lastY: Int, vectorized: Bool, minDeviation: Double = 0,
    candidates: LevelCandidates? = nil, budget: inout Int, judged: (Int, Int, Int) -> Void
  ) {
    let evenThenOdd = columns == .evenThenOdd
    guard step == (evenThenOdd ? 2 : 1), lastX > 0, lastY > 0 else { return }
    withReader(minDeviation: minDeviation) { reader, nodesThrough in
      let vectorTrees = vectorized && cascade.largestTree <= Self.largestVectorTree
      let chosen = UnsafeMutablePointer<SIMD8<Float>>.allocate(
        capacity: Self.largestVectorTree)
      chosen.initialize(repeating: .zero, count: Self.largestVectorTree)
      defer { chosen.deallocate() }
      let last = nodesThrough.count - 1
      /// The nodes a window's `result` walked through.
      func cost(_ result: Int) -> Int {
        nodesThrough[result > 0 ? last : min(-result, last)]
      }
      func origin(_ x: Int, _ y: Int) -> Int { (evenThenOdd ? x / 2 : x) + y * reader.stride }
      var y = 0
      while y < lastY && budget > 0 {
        var x = 0
        while x < lastX && budget > 0 {
          if vectorTrees {
            var admitted = SIMDMask<Lanes<Int64>>(repeating: true)
            if let candidates {
              admitted = candidates.lanes(x: x, y: y)
              if !any(admitted) {
                x += Self.lanes * step
                continue
              }
            }
            // Eight windows from x on; each lane is used only if the scan in order
            // reaches it.
            let block = reader.firstStages(
              origin: origin(x, y), chosen: chosen, admitted: admitted)
            var lane = 0
            while lane < Self.lanes && x < lastX && budget > 0 {
              let result =
                block.alive[lane]
                ? reader.stages(
                  from: block.stage, origin: origin(x, y), normalizer: block.normalizer[lane])
                : Int(block.result[lane])
              if admitted[lane] {
                budget -= cost(result)
                judged(x, y, result)
              }
              if result == 0 {
                x += step
                lane += 1
              }
              x += step
              lane += 1
            }
          } else {
            if let candidates, !candidates.admits(x: x, y: y) {
              x += step
              continue
            }
            let result = reader.window(origin: origin(x, y))
            budget -= cost(result)
            judged(x, y, result)
            if result == 0 { x += step }
            x += step
          }
        }
        y += step
      }
    }
  }

  /// Calls `body` with a reader of the loaded picture and the cascade's node counts.
  private func withReader(minDeviation: Double, _ body: (Reader, [Int]) -> Void) {
    integral.sums.withUnsafeBufferPointer { sums in
      integral.squares.withUnsafeBufferPointer { squares in
        offsets.withUnsafeBufferPointer { offsets in
          weights.withUnsafeBufferPointer { weights in
            cascade.nodes.withUnsafeBufferPointer { nodes in
              cascade.trees.withUnsafeBufferPointer { trees in
                cascade.leaves.withUnsafeBufferPointer { leaves in
                  cascade.stages.withUnsafeBufferPointer { stages in
                    let reader = Reader(
                      sums: sums, squares: squares, offsets: offsets, weights: weights,
                      nodes: nodes, trees: trees, leaves: leaves, stages: stages,
                      stride: integral.width, norm: normOffsets, area: normArea,
                      minSpread: normArea * normArea * minDeviation * minDeviation)
                    body(reader, cascade.nodesThrough)
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

/// The arrays one scale's windows are read from, held as pointers for the scan's loop.
private struct Reader {
  let sums: UnsafeBufferPointer<Int32>
  let squares: UnsafeBufferPointer<UInt32>
  let offsets: UnsafeBufferPointer<Int>
  let weights: UnsafeBufferPointer<Float>
  let nodes: UnsafeBufferPointer<Cascade.Node>
  let trees: UnsafeBufferPointer<Cascade.Tree>
  let leaves: UnsafeBufferPointer<Float>
  let stages: UnsafeBufferPointer<Cascade.Stage>
  let stride: Int
  let norm: (Int, Int, Int, Int)
  let area: Double
  /// Windows whose spread (area² × variance) is at most this are too flat to judge: 0 is
  /// OpenCV's rule (only a window of one gray level).
  let minSpread: Double

  typealias Lanes<T: SIMDScalar> = WindowEvaluator.Lanes<T>

  /// The window at `origin` as OpenCV's `runAt` judges it: 1 when every stage passes,
  /// `-stage` for the stage that failed (so 0 for the first), -1 for a window too flat to
  /// judge.
  @inline(__always)
  func window(origin: Int) -> Int {
    let sum =
      sums[origin + norm.0] &- sums[origin + norm.1] &- sums[origin + norm.2]
      &+ sums[origin + norm.3]
    let square =
      squares[origin + norm.0] &- squares[origin + norm.1]
      &- squares[origin + norm.2] &+ squares[origin + norm.3]
    let spread = area * Double(square) - Double(sum) * Double(sum)
    guard spread > minSpread else { return -1 }
    let normalizer = Float(1 / spread.squareRoot())
    guard area * Double(normalizer) < 0.1 else { return -1 }
    return stages(from: 0, origin: origin, normalizer: normalizer)
  }

  /// Stages `first`… of the window at `origin`, one window alone.
  @inline(__always)
  func stages(from first: Int, origin: Int, normalizer: Float) -> Int {
    @inline(__always) func rectSum(_ o: Int) -> Float {
      Float(
        sums[origin + offsets[o]] &- sums[origin + offsets[o + 1]]
          &- sums[origin + offsets[o + 2]] &+ sums[origin + offsets[o + 3]])
    }
    @inline(__always) func value(_ node: Int) -> Float {
      let w = 3 * node
      var total = weights[w] * rectSum(12 * node) + weights[w + 1] * rectSum(12 * node + 4)
      if weights[w + 2] != 0 { total += weights[w + 2] * rectSum(12 * node + 8) }
      return total * normalizer
    }
    var stageIndex = first
    while stageIndex < stages.count {
      let stage = stages[stageIndex]
      var total = 0.0
      for treeIndex in stage.trees {
        let tree = trees[treeIndex]
        var index = 0
        repeat {
          let nodeIndex = tree.firstNode + index
          let node = nodes[nodeIndex]
          index = value(nodeIndex) < node.threshold ? node.left : node.right
        } while index > 0
        total += Double(leaves[tree.firstLeaf - index])
      }
      if total < Double(stage.threshold) { return -stageIndex }
      stageIndex += 1
    }
    return 1
  }

  /// Eight neighbouring windows from `origin` in the ``LaneView``, those `admitted`: each lane's normalizer, and the lanes'
  /// results through the first stages, while enough of them are alive. A lane still alive
  /// goes on alone from `stage`; a lane not alive has its final `result`. `chosen` holds
  /// ``WindowEvaluator/largestVectorTree`` lanes of scratch.
  @inline(__always)
  func firstStages(
    origin: Int, chosen: UnsafeMutablePointer<Lanes<Float>>,
    admitted: SIMDMask<Lanes<Int64>>
  ) -> (
    alive: SIMDMask<Lanes<Int64>>, stage: Int, normalizer: Lanes<Float>, result: Lanes<Int64>
  ) {
    guard let sumBase = sums.baseAddress, let squareBase = squares.baseAddress else {
      return (.init(repeating: false), 0, .zero, .init(repeating: -1))
    }
    @inline(__always) func load(_ at: Int) -> Lanes<Int32> {
      UnsafeRawPointer(sumBase + at).loadUnaligned(as: Lanes<Int32>.self)
    }
    @inline(__always) func loadSquares(_ at: Int) -> Lanes<UInt32> {
      UnsafeRawPointer(squareBase + at).loadUnaligned(as: Lanes<UInt32>.self)
    }
    let sum =
      load(origin + norm.0) &- load(origin + norm.1) &- load(origin + norm.2)
      &+ load(origin + norm.3)
    let square =
      loadSquares(origin + norm.0) &- loadSquares(origin + norm.1)
      &- loadSquares(origin + norm.2) &+ loadSquares(origin + norm.3)
    let sumD = Lanes<Double>(sum)
    let spread = area * Lanes<Double>(square) - sumD * sumD
    var alive = admitted .& (spread .> 0) .& (spread .> minSpread)
    let normalizerD =
      Lanes<Double>(repeating: 1)
      / spread.replacing(with: 1, where: .!alive)
      .squareRoot()
    let normalizer = Lanes<Float>(normalizerD)
    alive .&= area * Lanes<Double>(normalizer) .< 0.1
    var result = Lanes<Int64>(repeating: -1)

    @inline(__always) func rectSum(_ o: Int) -> Lanes<Float> {
      Lanes<Float>(
        load(origin + offsets[o]) &- load(origin + offsets[o + 1])
          &- load(origin + offsets[o + 2]) &+ load(origin + offsets[o + 3]))
    }
    @inline(__always) func value(_ node: Int) -> Lanes<Float> {
      let w = 3 * node
      var total = weights[w] * rectSum(12 * node) + weights[w + 1] * rectSum(12 * node + 4)
      if weights[w + 2] != 0 { total += weights[w + 2] * rectSum(12 * node + 8) }
      return total * normalizer
    }
    // A tree's leaf for every lane: its nodes from the last to the first, each choosing
    // between its children's values (a child comes after its parent), in `chosen`.
    var stageIndex = 0
    while stageIndex < stages.count, alive.count(WindowEvaluator.fewestAliveLanes) {
      let stage = stages[stageIndex]
      var total = Lanes<Double>.zero
      for treeIndex in stage.trees {
        let tree = trees[treeIndex]
        var index = tree.nodeCount - 1
        while index >= 0 {
          let node = nodes[tree.firstNode + index]
          @inline(__always) func child(_ c: Int) -> Lanes<Float> {
            c > 0 ? chosen[c] : Lanes<Float>(repeating: leaves[tree.firstLeaf - c])
          }
          let less = value(tree.firstNode + index) .< node.threshold
          chosen[index] = child(node.right).replacing(with: child(node.left), where: less)
          index -= 1
        }
        total += Lanes<Double>(chosen[0])
      }
      let failed = alive .& (total .< Double(stage.threshold))
      result.replace(with: Int64(-stageIndex), where: failed)
      alive .&= .!failed
      stageIndex += 1
    }
    return (alive, stageIndex, normalizer, result)
  }
}

extension SIMDMask {
  /// True when at least `count` lanes are set.
  @inline(__always)
  fileprivate func count(_ count: Int) -> Bool {
    var set = 0
    for lane in 0..<scalarCount where self[lane] { set += 1 }
    return set >= count
  }
}
