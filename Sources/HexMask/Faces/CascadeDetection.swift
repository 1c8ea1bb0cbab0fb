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
    coarse: Bool = false, minDeviation: Double = 0, gate: SkinGate? = nil,
    everyOtherScale: Bool = false
  ) -> [PixelBox] {
    groupRectangles(
      windows(
        in: picture, scaleFactor: scaleFactor, coarse: coarse, minDeviation: minDeviation,
        gate: gate, everyOtherScale: everyOtherScale),
      minNeighbors: minNeighbors, eps: 0.2)
  }

  /// Every window the cascade accepts, before grouping, in picture pixels. `coarse` steps
  /// two pixels up to a shrink of 4 (OpenCV steps one from a shrink of 2 on): a quarter of
  /// the windows there, for the crop, which needs faces, not OpenCV's exact list. Above
  /// it a face spans too few positions of two (a 200 px face in a 480 px picture was
  /// missed), and windows are few.
  /// `vectorized: false` runs every window on its own (the reference the vectorized
  /// scan is tested against: both accept exactly the same windows).
  /// `minDeviation` and `gate` are the crop's cheap rejections: windows flatter than that
  /// (standard deviation of gray levels) or without skin colour are not judged, and each
  /// scale is resized only where the gate admits windows.
  /// `everyOtherScale` (the crop's) judges every second scale first, then each scale
  /// between only near the windows its two neighbours accepted: a face is accepted at
  /// several scales in a row, so the scales between find its windows again, for about
  /// half the work.
  /// At most `work` nodes are evaluated in all (``Cascade/workPerPicture``), and at most
  /// ``Cascade/mostAcceptedWindows`` windows accepted: the windows found until then are
  /// the answer.
  package func windows(
    in picture: GrayPicture, scaleFactor: Double, coarse: Bool = false, vectorized: Bool = true,
    minDeviation: Double = 0, gate: SkinGate? = nil, everyOtherScale: Bool = false,
    work: Int = Cascade.workPerPicture
  ) -> [PixelBox] {
    let (width, height) = (picture.width, picture.height)
    guard width >= windowWidth, height >= windowHeight, picture.pixels.count == width * height,
      scaleFactor.isFinite, scaleFactor > 1
    else { return [] }
    var found: [PixelBox] = []
    var evaluator = WindowEvaluator(cascade: self)
    var budget = work
    let all = scales(width: width, height: height, factor: scaleFactor)
    func isBetween(_ index: Int) -> Bool { everyOtherScale && index % 2 == 1 }
    let order = all.indices.filter { !isBetween($0) } + all.indices.filter(isBetween)
    var acceptedAt = [[PixelBox]](repeating: [], count: all.count)
    for index in order where budget > 0 && found.count < Self.mostAcceptedWindows {
      let scale = all[index]
      let winWidth = roundEven(Float(windowWidth) * scale)
      let winHeight = roundEven(Float(windowHeight) * scale)
      if winWidth > width || winHeight > height { continue }
      let shrunkWidth = roundEven(Float(width) / scale)
      let shrunkHeight = roundEven(Float(height) / scale)
      guard shrunkWidth >= windowWidth, shrunkHeight >= windowHeight else { continue }
      let step = scale >= (coarse ? 4 : 2) ? 1 : 2
      // Positions whose window lies inside the integral image (OpenCV's working size).
      var (lastX, lastY) = (shrunkWidth + 1 - windowWidth, shrunkHeight + 1 - windowHeight)
      // The part of this scale to resize and scan: all of it, or the rectangle of the
      // positions the gate admits (with their windows), none at all when it admits none.
      var region = PixelBox(x: 0, y: 0, width: shrunkWidth, height: shrunkHeight)
      var candidates: LevelCandidates? = nil
      let between = isBetween(index)
      if between || gate?.isActive == true {
        let admitted: LevelCandidates?
        if between {
          let near = acceptedAt[index - 1] + (index + 1 < all.count ? acceptedAt[index + 1] : [])
          admitted = LevelCandidates(
            around: near.map { (roundEven(Float($0.x) / scale), roundEven(Float($0.y) / scale)) },
            reach: max(step, windowWidth / 4), step: step, lastX: lastX, lastY: lastY)
        } else {
          admitted = gate?.candidates(
            scale: scale, window: max(windowWidth, windowHeight), step: step, lastX: lastX,
            lastY: lastY)
        }
        guard let admitted else { continue }
        let right = admitted.left + (admitted.columns - 1) * step
        let bottom = admitted.top + (admitted.rows - 1) * step
        region = PixelBox(
          x: admitted.left, y: admitted.top,
          width: min(shrunkWidth, right + windowWidth) - admitted.left,
          height: min(shrunkHeight, bottom + windowHeight) - admitted.top)
        (lastX, lastY) = (right - admitted.left + 1, bottom - admitted.top + 1)
        candidates = admitted
      }
      evaluator.load(
        exactBilinearResize(
          picture, width: shrunkWidth, height: shrunkHeight,
          region: candidates == nil ? nil : region), step: step)
      evaluator.scan(
        step: step, lastX: lastX, lastY: lastY, vectorized: vectorized,
        minDeviation: minDeviation, candidates: candidates, budget: &budget
      ) { x, y, result in
        guard result > 0 else { return }
        acceptedAt[index].append(
          PixelBox(
            x: roundEven(Float(x + region.x) * scale), y: roundEven(Float(y + region.y) * scale),
            width: winWidth, height: winHeight))
      }
      acceptedAt[index] = Array(acceptedAt[index].prefix(Self.mostAcceptedWindows - found.count))
      found += acceptedAt[index]
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

extension LevelCandidates {
  /// The positions `step` apart (below `lastX` and `lastY`) within `reach` pixels across
  /// and down of any of `centres`; nil when there are none.
  init?(around centres: [(x: Int, y: Int)], reach: Int, step: Int, lastX: Int, lastY: Int) {
    let (columns, rows) = ((lastX + step - 1) / step, (lastY + step - 1) / step)
    guard !centres.isEmpty, columns > 0, rows > 0, step > 0 else { return nil }
    let cells = max(0, reach / step)
    let padded = columns + WindowEvaluator.lanes
    var admitted = [UInt8](repeating: 0, count: padded * rows)
    var (left, top, right, bottom) = (Int.max, Int.max, -1, -1)
    for centre in centres {
      let (column, row) = (centre.x / step, centre.y / step)
      let (x0, x1) = (max(0, column - cells), min(columns - 1, column + cells))
      let (y0, y1) = (max(0, row - cells), min(rows - 1, row + cells))
      guard x0 <= x1, y0 <= y1 else { continue }
      for y in y0...y1 {
        for x in x0...x1 { admitted[y * padded + x] = 1 }
      }
      (left, right) = (min(left, x0), max(right, x1))
      (top, bottom) = (min(top, y0), max(bottom, y1))
    }
    guard right >= 0 else { return nil }
    self.init(
      firstColumn: left, firstRow: top, columns: right - left + 1, rows: bottom - top + 1,
      step: step, stride: padded, admitted: admitted)
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
  private(set) var width = 0  // picture width + 1
  private(set) var height = 0
  private(set) var sums: [Int32] = []
  private(set) var squares: [UInt32] = []
  /// Entries after the last row: the vectorized scan reads eight windows at once, and the
  /// lanes past a row's last window (ignored) may read up to this far past the end.
  static let slack = 2 * WindowEvaluator.lanes

  /// Empty, to be filled.
  init() {}

  init(_ picture: GrayPicture) { fill(picture, columns: .inOrder) }

  /// Where column x of a row is kept: in order, or (for eight windows two pixels apart,
  /// which then read eight neighbouring entries) the even columns first, then the odd.
  enum Columns {
    case inOrder, evenThenOdd

    @inline(__always)
    func place(_ x: Int, stride: Int) -> Int {
      self == .inOrder ? x : x % 2 == 0 ? x / 2 : (stride + 1) / 2 + x / 2
    }
  }

  /// The sums of `picture`, in the arrays of the last picture where they are large enough:
  /// the detector fills one per scale, and the command has glibc fill every new block.
  mutating func fill(_ picture: GrayPicture, columns: Columns) {
    width = picture.width + 1
    height = picture.height + 1
    let count = width * height + Self.slack
    if sums.count < count {
      sums = [Int32](repeating: 0, count: count)
      squares = [UInt32](repeating: 0, count: count)
    }
    let stride = width
    let place = (0..<stride).map { columns.place($0, stride: stride) }
    picture.pixels.withUnsafeBufferPointer { pixels in
      place.withUnsafeBufferPointer { place in
        sums.withUnsafeMutableBufferPointer { sums in
          squares.withUnsafeMutableBufferPointer { squares in
            // The first row and column are zeros (an earlier, wider picture's sums may be
            // there).
            for x in 0..<stride { (sums[x], squares[x]) = (0, 0) }
            for y in 0..<picture.height {
              var rowSum: Int32 = 0
              var rowSquares: UInt32 = 0
              let above = y * stride
              let here = (y + 1) * stride
              (sums[here + place[0]], squares[here + place[0]]) = (0, 0)
              for x in 0..<picture.width {
                let value = pixels[y * picture.width + x]
                let column = place[x + 1]
                rowSum &+= Int32(value)
                rowSquares &+= UInt32(value) * UInt32(value)
                sums[here + column] = sums[above + column] &+ rowSum
                squares[here + column] = squares[above + column] &+ rowSquares
              }
            }
          }
        }
      }
    }
  }
}

/// OpenCV's `partition` of the boxes by similarity (their sides all within `eps` × their
/// mean size of each other, taken transitively): for each box, the index of the first box
/// of its group.
func similarGroups(_ boxes: [PixelBox], eps: Double) -> [Int] {
  func similar(_ a: PixelBox, _ b: PixelBox) -> Bool {
    let delta = eps * Double(min(a.width, b.width) + min(a.height, b.height)) * 0.5
    return Double(abs(a.x - b.x)) <= delta && Double(abs(a.y - b.y)) <= delta
      && Double(abs(a.x + a.width - b.x - b.width)) <= delta
      && Double(abs(a.y + a.height - b.y - b.height)) <= delta
  }
  // A group is named by its smallest index: a union keeps the smaller root.
  var parent = Array(boxes.indices)
  func root(_ index: Int) -> Int {
    var index = index
    while parent[index] != index {
      parent[index] = parent[parent[index]]
      index = parent[index]
    }
    return index
  }
  // Similar boxes lie within eps × their smaller size of each other across, so each box
  // is compared only with the boxes after it in order of x, as far as its own size
  // reaches: near-linear for a face's few dozen windows and for a crowd's thousands. The
  // groups are the same as comparing every pair.
  let byX = boxes.indices.sorted { boxes[$0].x < boxes[$1].x }
  for (rank, i) in byX.enumerated() {
    let reach = eps * Double(boxes[i].width + boxes[i].height) * 0.5
    for j in byX[(rank + 1)...] {
      if Double(boxes[j].x - boxes[i].x) > reach { break }
      guard similar(boxes[i], boxes[j]) else { continue }
      let (a, b) = (root(i), root(j))
      if a != b { parent[max(a, b)] = min(a, b) }
    }
  }
  return boxes.indices.map(root)
}

/// OpenCV's `groupRectangles`: windows whose sides all lie within `eps` × their mean size
/// of each other are one group (transitively); a group of at most `minNeighbors` windows
/// is dropped, the others become their average; a group inside a larger, better-supported
/// one is dropped too.
package func groupRectangles(_ boxes: [PixelBox], minNeighbors: Int, eps: Double) -> [PixelBox] {
  guard minNeighbors > 0, !boxes.isEmpty else { return boxes }
  let first = similarGroups(boxes, eps: eps)
  var label: [Int: Int] = [:]
  var sums: [(x: Int, y: Int, width: Int, height: Int, count: Int)] = []
  for index in boxes.indices {
    let group = first[index]
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
