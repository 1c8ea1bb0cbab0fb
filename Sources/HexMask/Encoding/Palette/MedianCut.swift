/// A colour in premultiplied RGBA, each channel 0…255: the colour as it shows over
/// black, plus its coverage. Distances here weigh a faint pixel's colour by how much of it
/// is seen.
struct Premultiplied: Equatable {
  var channels: SIMD4<Double> = .zero

  init() {}

  init(_ channels: SIMD4<Double>) { self.channels = channels }

  /// A packed straight colour (red highest) premultiplied.
  init(_ key: UInt32) {
    let alpha = Double(key & 0xff)
    let straight = SIMD4(
      Double(key >> 24), Double(key >> 16 & 0xff), Double(key >> 8 & 0xff), 255)
    channels = straight * (alpha / 255)
  }

  mutating func add(_ other: Premultiplied, weight: Double) {
    channels += other.channels * weight
  }

  func scaled(_ factor: Double) -> Premultiplied { Premultiplied(channels * factor) }

  func distance(to other: Premultiplied) -> Double {
    let difference = channels - other.channels
    return (difference * difference).sum()
  }

  /// The index of the nearest of `points`, the first one on a tie.
  func nearest(in points: [Premultiplied]) -> Int {
    var (best, bestDistance) = (0, Double.infinity)
    for (index, point) in points.enumerated() {
      let distance = distance(to: point)
      if distance < bestDistance { (best, bestDistance) = (index, distance) }
    }
    return best
  }

  /// The nearest straight 8-bit colour, packed; 0 for anything that rounds to no alpha.
  var straightKey: UInt32 {
    let alpha = (channels[3].rounded()).clamped(0, 255)
    guard alpha > 0 else { return 0 }
    var key = UInt32(alpha)
    for channel in 0..<3 {
      let straight = (channels[channel] * 255 / alpha).rounded().clamped(0, 255)
      key |= UInt32(straight) << (24 - 8 * channel)
    }
    return key
  }
}

extension Double {
  /// Within `low…high`; NaN (never made here) becomes `low`.
  fileprivate func clamped(_ low: Double, _ high: Double) -> Double {
    self >= low ? Swift.min(self, high) : low
  }
}

/// Median cut: boxes of points, starting with one box of all, each time splitting the box
/// with the largest weighted squared error across its widest channel (by variance) where
/// half of its weight lies on either side.
struct MedianCut {
  let points: [Premultiplied]
  let weights: [Double]

  /// The weighted means of `count` boxes (fewer when there are fewer points), and for each
  /// point the index of its box.
  func centres(count: Int) -> (centres: [Premultiplied], boxOfPoint: [Int]) {
    var boxes = [Box(members: Array(points.indices), of: self)]
    while boxes.count < count {
      // The box that costs the most; ties go to the first, so the order is fixed.
      guard let worst = boxes.indices.max(by: { boxes[$0].error < boxes[$1].error }),
        boxes[worst].members.count > 1, boxes[worst].error > 0
      else { break }
      let (low, high) = boxes[worst].split(of: self)
      boxes[worst] = low
      boxes.append(high)
    }
    var boxOfPoint = [Int](repeating: 0, count: points.count)
    for (box, members) in boxes.map(\.members).enumerated() {
      for member in members { boxOfPoint[member] = box }
    }
    return (boxes.map(\.mean), boxOfPoint)
  }

  struct Box {
    var members: [Int]
    var mean = Premultiplied()
    /// Per channel weighted variance times the weight: the squared error of the mean.
    var spread: SIMD4<Double> = .zero
    var error: Double { spread.sum() }

    init(members: [Int], of cut: MedianCut) {
      self.members = members
      var (sum, squares, total) = (SIMD4<Double>.zero, SIMD4<Double>.zero, 0.0)
      for member in members {
        let (point, weight) = (cut.points[member].channels, cut.weights[member])
        sum += point * weight
        squares += point * point * weight
        total += weight
      }
      guard total > 0 else { return }
      mean = Premultiplied(sum / total)
      spread = squares - sum * sum / total
    }

    /// Two boxes from this one, cut across its widest channel at the weighted median.
    func split(of cut: MedianCut) -> (Box, Box) {
      var channel = 0
      for candidate in 1..<4 where spread[candidate] > spread[channel] { channel = candidate }
      // Value and index packed in one integer sort much faster than (value, index) pairs
      // or indices that look their values up: the value (0…255, never NaN here, clamped
      // anyway) in fixed point with 20 fraction bits above the index (< 2³², as the
      // points are at most the pixels). Equal values keep the index order.
      var keys = members.map { member in
        let raw = cut.points[member].channels[channel]
        let value = raw.isNaN ? 0 : min(max(raw, 0), 255)
        return UInt64(value * 1_048_576) << 32 | UInt64(truncatingIfNeeded: member)
      }
      keys.sort()
      let sorted = keys.map { Int(truncatingIfNeeded: $0 & 0xffff_ffff) }
      let total = sorted.reduce(0) { $0 + cut.weights[$1] }
      var (running, at) = (0.0, 0)
      while at < sorted.count - 1 {
        running += cut.weights[sorted[at]]
        at += 1
        if running >= total / 2 { break }
      }
      return (
        Box(members: Array(sorted[..<at]), of: cut), Box(members: Array(sorted[at...]), of: cut)
      )
    }
  }
}
