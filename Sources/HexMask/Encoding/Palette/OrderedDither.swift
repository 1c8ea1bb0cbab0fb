/// Ordered (Bayer) dithering for a palette that is not a grid: each colour is taken as a
/// mix of its nearest entry and a second one, `t` of the way towards it, and a pixel whose
/// threshold in the 8×8 Bayer tile is below `t` takes the second entry. A gradient then
/// becomes a fine mix of the two entries around it instead of bands.
///
/// Ordered rather than error diffusion: a pixel's index depends on that pixel alone, so
/// the bytes are the same however the work is split, for any `-j`. The second entry has
/// the same alpha as the first, so dithering never makes an opaque pixel translucent and
/// the edge keeps the coverage the palette gives it. Of the entries that qualify, the one
/// whose mix comes closest wins, with a penalty for pairs far apart (their mix is seen as
/// noise, not as the colour between).
struct OrderedDither {
  /// The first and second entry of each distinct colour (by its index in the
  /// histogram), and how far towards the second.
  private var mixes: [(first: UInt8, second: UInt8, share: Double)] = []

  /// The 8×8 Bayer matrix, values 0…63.
  static let bayer: [Int] = {
    var matrix = [0]
    var side = 1
    while side < 8 {
      var next = [Int](repeating: 0, count: 4 * side * side)
      for y in 0..<side {
        for x in 0..<side {
          let value = 4 * matrix[y * side + x]
          next[y * 2 * side + x] = value
          next[y * 2 * side + x + side] = value + 2
          next[(y + side) * 2 * side + x] = value + 3
          next[(y + side) * 2 * side + x + side] = value + 1
        }
      }
      (matrix, side) = (next, side * 2)
    }
    return matrix
  }()

  /// How much a pair's own distance counts against it, against the mix's error.
  ///
  /// Measured with bench/palette.py's blurred error (σ ≈ 1 px, the colour the eye
  /// averages), 7 photos at 256 px: 1/16 lowers it from 0.57 to 0.54 (256 colours) and
  /// from 2.78 to 2.42 (64) for 9 % and 13 % more bytes; 1/8 keeps less of that (0.55,
  /// 2.55) for 5 % and 7 %; 1/32 gains little more (0.54, 2.38) for 11 % and 16 %; 1/4 and
  /// above never mix (the second entry would have to be nearer than the first).
  static let pairPenalty = 1.0 / 16

  /// `entryOfColor` holds the entry of each of the histogram's colours.
  init(histogram: ColorHistogram, entries: [UInt32], entryOfColor: [UInt8]) {
    let points = entries.map(Premultiplied.init)
    mixes.reserveCapacity(histogram.colors.count)
    for (color, entry) in zip(histogram.colors, entryOfColor) {
      let first = Int(entry)
      // Transparent pixels keep the transparent entry.
      guard color != 0 else {
        mixes.append((entry, entry, 0))
        continue
      }
      let colour = Premultiplied(color).channels
      let base = points[first].channels
      var (second, share, score) = (first, 0.0, (colour - base).squared)
      for (index, point) in points.enumerated()
      where index != first && point.channels[3] == base[3] {
        let step = point.channels - base
        let length = step.squared
        guard length > 0 else { continue }
        let t = min(max(((colour - base) * step).sum() / length, 0), 1)
        let mixScore = (colour - base - step * t).squared + Self.pairPenalty * length
        if mixScore < score { (second, share, score) = (index, t, mixScore) }
      }
      mixes.append((UInt8(first), UInt8(second), share))
    }
  }

  /// Each pixel of the histogram's picture (rows of `width`) as its first or second
  /// entry, by its threshold.
  func apply(_ histogram: ColorHistogram, width: Int, to indices: inout [UInt8]) {
    guard width > 0 else { return }
    for (pixel, color) in zip(indices.indices, histogram.colorOfPixel) {
      let mix = mixes[Int(color)]
      let (x, y) = (pixel % width, pixel / width)
      let threshold = (Double(Self.bayer[(y % 8) * 8 + x % 8]) + 0.5) / 64
      indices[pixel] = threshold < mix.share ? mix.second : mix.first
    }
  }
}

extension SIMD4<Double> {
  /// The squared length.
  fileprivate var squared: Double { (self * self).sum() }
}
