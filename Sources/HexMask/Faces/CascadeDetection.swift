#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A rectangle of a picture in whole pixels: a window a cascade accepted, or a group of them.
package struct PixelBox: Equatable, Hashable, Sendable {
  package var x: Int
  package var y: Int
  package var width: Int
  package var height: Int

  package init(x: Int, y: Int, width: Int, height: Int) {
    (self.x, self.y, self.width, self.height) = (x, y, width, height)
  }
}

/// An 8-bit gray picture, rows top to bottom.
package struct GrayPicture: Sendable {
  package var width: Int
  package var height: Int
  package var pixels: [UInt8]

  package init(width: Int, height: Int, pixels: [UInt8]) {
    (self.width, self.height, self.pixels) = (width, height, pixels)
  }
}

extension Cascade {
  /// The objects in `picture`, as OpenCV's `CascadeClassifier.detectMultiScale` finds them
  /// with the same `scaleFactor` and `minNeighbors` (and no minimum or maximum size): the
  /// picture is shrunk by 1, `scaleFactor`, `scaleFactor²`… (as OpenCV
  /// does, rather than growing the features), every window is run through the stages
  /// (every second position below a shrink of 2), and overlapping hits are grouped.
  ///
  /// ```swift
  /// let faces = try Cascade(xml: bytes).detect(in: gray)
  /// ```
  package func detect(
    in picture: GrayPicture, scaleFactor: Double = 1.1, minNeighbors: Int = 3,
    coarse: Bool = false
  ) -> [PixelBox] {
    groupRectangles(
      windows(in: picture, scaleFactor: scaleFactor, coarse: coarse),
      minNeighbors: minNeighbors, eps: 0.2)
  }

  /// Every window the cascade accepts, before grouping, in picture pixels. `coarse` steps
  /// two pixels at every scale (OpenCV steps one from a shrink of 2 on): a quarter of the
  /// windows there, for the crop, which needs faces, not OpenCV's exact list.
  package func windows(
    in picture: GrayPicture, scaleFactor: Double, coarse: Bool = false
  ) -> [PixelBox] {
    let (width, height) = (picture.width, picture.height)
    guard width >= windowWidth, height >= windowHeight, picture.pixels.count == width * height,
      scaleFactor.isFinite, scaleFactor > 1
    else { return [] }
    var found: [PixelBox] = []
    for scale in scales(width: width, height: height, factor: scaleFactor) {
      let winWidth = roundEven(Float(windowWidth) * scale)
      let winHeight = roundEven(Float(windowHeight) * scale)
      if winWidth > width || winHeight > height { break }
      let shrunkWidth = roundEven(Float(width) / scale)
      let shrunkHeight = roundEven(Float(height) / scale)
      guard shrunkWidth >= windowWidth, shrunkHeight >= windowHeight else { continue }
      let shrunk = exactBilinearResize(picture, width: shrunkWidth, height: shrunkHeight)
      let integral = IntegralImage(shrunk)
      let step = scale >= 2 && !coarse ? 1 : 2
      // Positions whose window lies inside the integral image (OpenCV's working size).
      let lastX = shrunkWidth + 1 - windowWidth
      let lastY = shrunkHeight + 1 - windowHeight
      WindowEvaluator(cascade: self, integral: integral).withRunner { run in
        var y = 0
        while y < lastY {
          var x = 0
          while x < lastX {
            let result = run(x, y)
            if result > 0 {
              found.append(
                PixelBox(
                  x: roundEven(Float(x) * scale), y: roundEven(Float(y) * scale),
                  width: winWidth, height: winHeight))
            }
            // Rejected by the very first stage: the next position likely is too.
            if result == 0 { x += step }
            x += step
          }
          y += step
        }
      }
    }
    return found
  }

  /// OpenCV's scales: 1, f, f²… (multiplied in Double, kept as Float) while the window
  /// still fits the picture.
  private func scales(width: Int, height: Int, factor: Double) -> [Float] {
    var scales: [Float] = []
    var scale = 1.0
    while scales.count < 4096 {
      let w = (Double(windowWidth) * scale).rounded(.toNearestOrEven)
      let h = (Double(windowHeight) * scale).rounded(.toNearestOrEven)
      if w > Double(width) || h > Double(height) { break }
      scales.append(Float(scale))
      scale *= factor
    }
    return scales
  }
}

/// `cvRound` of a Float: to the nearest integer, halves to even (the FPU's default mode).
@inline(__always)
func roundEven(_ value: Float) -> Int {
  let rounded = value.rounded(.toNearestOrEven)
  guard rounded.isFinite, abs(rounded) < 1e9 else { return 0 }
  return Int(rounded)
}

/// Sums and squared sums of a gray picture over every rectangle in four reads: entry
/// (x, y) holds the sum of all pixels above and left of it. Squared sums wrap around in
/// 32 bits as OpenCV's do; differences over a window are still exact.
struct IntegralImage {
  let width: Int  // picture width + 1
  let height: Int
  var sums: [Int32]
  var squares: [UInt32]

  init(_ picture: GrayPicture) {
    width = picture.width + 1
    height = picture.height + 1
    sums = [Int32](repeating: 0, count: width * height)
    squares = [UInt32](repeating: 0, count: width * height)
    let stride = width
    picture.pixels.withUnsafeBufferPointer { pixels in
      sums.withUnsafeMutableBufferPointer { sums in
        squares.withUnsafeMutableBufferPointer { squares in
          for y in 0..<picture.height {
            var rowSum: Int32 = 0
            var rowSquares: UInt32 = 0
            let above = y * stride
            let here = (y + 1) * stride
            for x in 0..<picture.width {
              let value = pixels[y * picture.width + x]
              rowSum &+= Int32(value)
              rowSquares &+= UInt32(value) * UInt32(value)
              sums[here + x + 1] = sums[above + x + 1] &+ rowSum
              squares[here + x + 1] = squares[above + x + 1] &+ rowSquares
            }
          }
        }
      }
    }
  }
}

/// One scale's evaluation of windows: every node's feature as corner offsets into this
/// integral image, flattened once, so that the loop over windows reads only arrays.
private struct WindowEvaluator {
  let cascade: Cascade
  let integral: IntegralImage
  /// Per node: 3 rectangles × 4 corners into the integral image.
  let offsets: [Int]
  /// Per node: the 3 rectangles' weights.
  let weights: [Float]
  /// The variance window: the cascade's window less one pixel all round, as OpenCV's.
  let normOffsets: (Int, Int, Int, Int)
  let normArea: Double

  init(cascade: Cascade, integral: IntegralImage) {
    self.cascade = cascade
    self.integral = integral
    let stride = integral.width
    var offsets: [Int] = []
    var weights: [Float] = []
    offsets.reserveCapacity(cascade.nodes.count * 12)
    weights.reserveCapacity(cascade.nodes.count * 3)
    for node in cascade.nodes {
      let feature = cascade.features[node.feature]
      for index in 0..<3 {
        if index < feature.rects.count {
          let r = feature.rects[index]
          offsets += [
            r.x + stride * r.y, r.x + r.width + stride * r.y, r.x + stride * (r.y + r.height),
            r.x + r.width + stride * (r.y + r.height),
          ]
          weights.append(r.weight)
        } else {
          offsets += [0, 0, 0, 0]
          weights.append(0)
        }
      }
    }
    self.offsets = offsets
    self.weights = weights
    let (w, h) = (cascade.windowWidth - 2, cascade.windowHeight - 2)
    normOffsets = (1 + stride, 1 + w + stride, 1 + stride * (1 + h), 1 + w + stride * (1 + h))
    normArea = Double(w * h)
  }

  /// Runs `body` with a function that evaluates the window at (x, y) as OpenCV's `runAt`
  /// does: 1 when every stage passes, `-stage` for the stage that failed (so 0 for the
  /// first), -1 for a window too flat to judge.
  func withRunner<T>(_ body: ((Int, Int) -> Int) -> T) -> T {
    integral.sums.withUnsafeBufferPointer { sums in
      integral.squares.withUnsafeBufferPointer { squares in
        offsets.withUnsafeBufferPointer { offsets in
          weights.withUnsafeBufferPointer { weights in
            cascade.nodes.withUnsafeBufferPointer { nodes in
              cascade.trees.withUnsafeBufferPointer { trees in
                cascade.leaves.withUnsafeBufferPointer { leaves in
                  cascade.stages.withUnsafeBufferPointer { stages in
                    let stride = integral.width
                    let n = normOffsets
                    let area = normArea
                    return body { x, y in
                      let origin = x + y * stride
                      let sum =
                        sums[origin + n.0] &- sums[origin + n.1] &- sums[origin + n.2]
                        &+ sums[origin + n.3]
                      let square =
                        squares[origin + n.0] &- squares[origin + n.1] &- squares[origin + n.2]
                        &+ squares[origin + n.3]
                      let spread = area * Double(square) - Double(sum) * Double(sum)
                      guard spread > 0 else { return -1 }
                      let normalizer = Float(1 / spread.squareRoot())
                      guard area * Double(normalizer) < 0.1 else { return -1 }

                      @inline(__always) func rectSum(_ o: Int) -> Float {
                        Float(
                          sums[origin + offsets[o]] &- sums[origin + offsets[o + 1]]
                            &- sums[origin + offsets[o + 2]] &+ sums[origin + offsets[o + 3]])
                      }
                      @inline(__always) func value(_ node: Int) -> Float {
                        let w = 3 * node
                        var total =
                          weights[w] * rectSum(12 * node)
                          + weights[w + 1] * rectSum(12 * node + 4)
                        if weights[w + 2] != 0 { total += weights[w + 2] * rectSum(12 * node + 8) }
                        return total * normalizer
                      }

                      for stageIndex in 0..<stages.count {
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
                      }
                      return 1
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
}

/// OpenCV's `groupRectangles`: windows whose sides all lie within `eps` × their mean size
/// of each other are one group (transitively); a group of at most `minNeighbors` windows
/// is dropped, the others become their average; a group inside a larger, better-supported
/// one is dropped too.
package func groupRectangles(_ boxes: [PixelBox], minNeighbors: Int, eps: Double) -> [PixelBox] {
  guard minNeighbors > 0, !boxes.isEmpty else { return boxes }
  func similar(_ a: PixelBox, _ b: PixelBox) -> Bool {
    let delta = eps * Double(min(a.width, b.width) + min(a.height, b.height)) * 0.5
    return Double(abs(a.x - b.x)) <= delta && Double(abs(a.y - b.y)) <= delta
      && Double(abs(a.x + a.width - b.x - b.width)) <= delta
      && Double(abs(a.y + a.height - b.y - b.height)) <= delta
  }
  // Connected components, numbered in the order of their first box (as cv::partition).
  var parent = Array(boxes.indices)
  func root(_ index: Int) -> Int {
    var index = index
    while parent[index] != index {
      parent[index] = parent[parent[index]]
      index = parent[index]
    }
    return index
  }
  for i in boxes.indices {
    for j in (i + 1)..<boxes.count where similar(boxes[i], boxes[j]) {
      let (a, b) = (root(i), root(j))
      if a != b { parent[max(a, b)] = min(a, b) }
    }
  }
  var label: [Int: Int] = [:]
  var sums: [(x: Int, y: Int, width: Int, height: Int, count: Int)] = []
  for index in boxes.indices {
    let group = root(index)
    let number = label[group] ?? sums.count
    if number == sums.count {
      label[group] = number
      sums.append((0, 0, 0, 0, 0))
    }
    let box = boxes[index]
    sums[number].x += box.x
    sums[number].y += box.y
    sums[number].width += box.width
    sums[number].height += box.height
    sums[number].count += 1
  }
  let averaged = sums.map { sum -> (box: PixelBox, count: Int) in
    let s = 1 / Float(sum.count)
    return (
      PixelBox(
        x: roundEven(Float(sum.x) * s), y: roundEven(Float(sum.y) * s),
        width: roundEven(Float(sum.width) * s), height: roundEven(Float(sum.height) * s)),
      sum.count
    )
  }
  var kept: [PixelBox] = []
  for (i, (r1, n1)) in averaged.enumerated() where n1 > minNeighbors {
    let inside = averaged.enumerated().contains { j, other in
      let (r2, n2) = other
      guard j != i, n2 > minNeighbors else { return false }
      let dx = Int((Double(r2.width) * eps).rounded(.toNearestOrEven))
      let dy = Int((Double(r2.height) * eps).rounded(.toNearestOrEven))
      return r1.x >= r2.x - dx && r1.y >= r2.y - dy && r1.x + r1.width <= r2.x + r2.width + dx
        && r1.y + r1.height <= r2.y + r2.height + dy && (n2 > max(3, n1) || n1 < 3)
    }
    if !inside { kept.append(r1) }
  }
  return kept
}
