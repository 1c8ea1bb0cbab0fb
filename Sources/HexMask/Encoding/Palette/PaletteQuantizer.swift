/// Chooses at most `colors` RGBA entries for a picture and maps every pixel to one of them.
///
/// The method is a median cut followed by a few k-means (Lloyd) passes, all in
/// premultiplied RGBA. Median cut gives a start that already follows the picture's
/// weight (a box is split where half of its pixels lie) in one cheap pass over the
/// distinct colours; k-means then moves each entry to the mean of what it stands for,
/// which is what lowers the mean error (the quantity measured against pngquant), and
/// converges in a few passes from a good start. Wu's method would start closer but needs
/// a 4-D moment table (33⁴ cells with alpha) that costs more than it saves on avatars.
/// Premultiplied colour makes a faint edge pixel's colour matter as much as it shows, so
/// entries go to where the eye sees differences, and all transparent pixels are one
/// colour. Everything runs in a fixed order on one thread, with no randomness: the same
/// pixels give the same palette and indices.
///
/// ```swift
/// let palette = PaletteQuantizer(colors: 64).quantize(rgba)
/// palette.entries   // straight RGBA, non-opaque first
/// palette.indices   // one per pixel
/// ```
///
/// - Complexity: O(d × `colors` × passes) for d distinct colours, after an O(n log n)
///   count of the n pixels.
struct PaletteQuantizer {
  /// Most entries the palette may have, 1…256.
  let colors: Int
  /// Lloyd passes after the median cut; the error hardly moves after a handful.
  var passes = 6

  init(colors: Int) {
    self.colors = min(max(colors, 1), 256)
  }

  /// The palette of `rgba` (straight RGBA8, 4 bytes a pixel, rows of `width`) and each
  /// pixel's index; `dither` maps each pixel through ``OrderedDither`` instead of to its
  /// nearest entry.
  func quantize(_ rgba: [UInt8], width: Int = 1, dither: Bool = false) -> IndexedPixels {
    let histogram = ColorHistogram(rgba)
    var entries: [UInt32]
    if histogram.colors.count <= colors {
      // Few enough colours: each is its own entry, and the picture is kept exactly.
      entries = histogram.colors
    } else {
      entries = chooseEntries(histogram)
    }
    entries = sortedForPNG(entries)
    let nearest = NearestEntry(entries.map(Premultiplied.init))
    var lookup: [UInt32: UInt8] = [:]
    lookup.reserveCapacity(histogram.colors.count)
    for color in histogram.colors { lookup[color] = UInt8(nearest.index(of: color)) }
    var indices = [UInt8](repeating: 0, count: rgba.count / 4)
    for pixel in indices.indices {
      indices[pixel] = lookup[ColorHistogram.key(rgba, pixel)] ?? 0
    }
    if dither && histogram.colors.count > colors {
      OrderedDither(histogram: histogram, entries: entries, lookup: lookup)
        .apply(rgba, width: width, to: &indices)
    }
    return IndexedPixels(entries: entries.map(unpacked), indices: indices)
  }

  /// Median cut then k-means over the distinct colours, with one entry kept for the
  /// transparent pixels when there are any.
  private func chooseEntries(_ histogram: ColorHistogram) -> [UInt32] {
    let transparent = histogram.colors.contains(0)
    let (points, weights) = Self.cells(histogram)
    let wanted = colors - (transparent ? 1 : 0)
    var (centres, assignment) = MedianCut(points: points, weights: weights).centres(
      count: wanted)
    for _ in 0..<passes {
      let moved = lloydPass(
        points: points, weights: weights, centres: centres, transparent: transparent,
        assignment: &assignment)
      if moved == centres { break }
      centres = moved
    }
    // Distinct entries only: two centres may round to one colour.
    var entries = Set(centres.map { $0.straightKey })
    if transparent { entries.insert(0) }
    return Array(entries)
  }

  /// The visible colours merged into cells of 4 levels a colour channel (premultiplied) and
  /// one alpha, each
  /// as the weighted mean of its colours: a photo's tens of thousands of colours become a
  /// few thousand points for the median cut and k-means, whose error the merge hardly
  /// changes (a cell is far smaller than an entry's share of the space); pixels are still
  /// mapped from their exact colours. Cells are in the order their first colour comes.
  static func cells(_ histogram: ColorHistogram) -> ([Premultiplied], [Double]) {
    var cellOf: [SIMD4<Int32>: Int] = [:]
    var (sums, weights) = ([SIMD4<Double>](), [Double]())
    for (color, count) in zip(histogram.colors, histogram.counts) where color != 0 {
      let point = Premultiplied(color).channels
      var cell = SIMD4<Int32>(point.rounded(.down) / 4)
      cell[3] = Int32(color & 0xff)  // alpha stays exact: the edge's levels are few
      let weight = Double(count)
      if let index = cellOf[cell] {
        sums[index] += point * weight
        weights[index] += weight
      } else {
        cellOf[cell] = sums.count
        sums.append(point * weight)
        weights.append(weight)
      }
    }
    return (zip(sums, weights).map { Premultiplied($0 / $1) }, weights)
  }

  /// Each centre moved to the weighted mean of the points that map to it (by
  /// ``NearestEntry``, as the pixels will be, the transparent entry included when there is
  /// one); a centre no point chose stays where it is. `assignment` holds each point's
  /// centre, from the last pass (or the median cut's box) in, this pass's out: a guess
  /// that is usually right.
  private func lloydPass(
    points: [Premultiplied], weights: [Double], centres: [Premultiplied], transparent: Bool,
    assignment: inout [Int]
  ) -> [Premultiplied] {
    var sums = [Premultiplied](repeating: Premultiplied(), count: centres.count + 1)
    var totals = [Double](repeating: 0, count: centres.count + 1)
    var opaque = [Double](repeating: 0, count: centres.count + 1)
    let mapping = NearestEntry(transparent ? centres + [Premultiplied()] : centres)
    for (point, (weight, at)) in zip(points, zip(weights, assignment.indices)) {
      let nearest = mapping.index(of: point, guess: assignment[at])
      assignment[at] = nearest
      sums[nearest].add(point, weight: weight)
      totals[nearest] += weight
      if point.channels[3] == 255 { opaque[nearest] += weight }
    }
    let moved = centres.indices.map {
      guard totals[$0] > 0 else { return centres[$0] }
      var mean = sums[$0].scaled(1 / totals[$0])
      // A centre of mostly opaque colours is opaque: the mean of 255s and a few 250s
      // would round to 254, and opaque pixels may not map to it.
      if opaque[$0] > totals[$0] / 2 { mean.channels[3] = 255 }
      return mean
    }
    return Self.sharingLevels(moved, weights: totals)
  }

  /// Edge centres closer in alpha than this many levels share one level. Measured on the
  /// corpus avatars (bench/palette.py): 0 (each its own level) doubles the error with
  /// `--line 0`, where a level held by one entry forces photo colours of every hue onto
  /// it; 16 keeps the error lowest but holds fewer levels; 10 keeps both near pngquant.
  static let levelGap = 10.0

  /// `centres` with the edge ones (0 < alpha < 255) closer in alpha than ``levelGap``, in
  /// chains from the lowest, moved to one level (their weighted mean) with their straight
  /// colours kept: a level the palette holds then has several colours for the pixels
  /// held to it.
  static func sharingLevels(_ centres: [Premultiplied], weights: [Double]) -> [Premultiplied] {
    let edge = centres.indices.filter { (1..<255).contains(centres[$0].alphaLevel) }
      .sorted { (centres[$0].channels[3], $0) < (centres[$1].channels[3], $1) }
    var result = centres
    var start = 0
    while start < edge.count {
      let lowest = centres[edge[start]].channels[3]
      var end = start + 1
      while end < edge.count, centres[edge[end]].channels[3] - lowest < levelGap { end += 1 }
      // A centre no point chose still counts a little, so the total is never 0.
      let group = edge[start..<end].map { ($0, max(weights[$0], 1e-9)) }
      let total = group.reduce(0) { $0 + $1.1 }
      let level = group.reduce(0) { $0 + centres[$1.0].channels[3] * $1.1 } / total
      for (index, _) in group {
        var channels = centres[index].channels * (level.rounded() / centres[index].channels[3])
        channels[3] = level.rounded()
        result[index] = Premultiplied(channels)
      }
      start = end
    }
    return result
  }

  /// Non-opaque entries first, so tRNS ends early; then by colour, so the order depends on
  /// the entries alone.
  private func sortedForPNG(_ entries: [UInt32]) -> [UInt32] {
    entries.sorted { first, second in
      let (firstAlpha, secondAlpha) = (first & 0xff, second & 0xff)
      if (firstAlpha == 255) != (secondAlpha == 255) { return secondAlpha == 255 }
      return first < second
    }
  }
}

/// A picture as palette entries (straight RGBA) and one entry index per pixel.
struct IndexedPixels: Equatable {
  var entries: [RGBAColor]
  var indices: [UInt8]

  /// Straight RGBA8 again, 4 bytes a pixel.
  var rgba: [UInt8] {
    var pixels: [UInt8] = []
    pixels.reserveCapacity(indices.count * 4)
    for index in indices {
      let entry = entries[Int(index)]
      pixels += [entry.red, entry.green, entry.blue, entry.alpha]
    }
    return pixels
  }
}

/// The distinct colours of a picture, as RGBA packed into a `UInt32` (red highest), each
/// with its number of pixels, in increasing order. Every fully transparent pixel is the
/// one colour 0, whatever its RGB says.
struct ColorHistogram {
  private(set) var colors: [UInt32] = []
  private(set) var counts: [Int] = []

  init(_ rgba: [UInt8]) {
    var keys = (0..<rgba.count / 4).map { Self.key(rgba, $0) }
    keys.sort()
    for key in keys {
      if key == colors.last {
        counts[counts.count - 1] += 1
      } else {
        colors.append(key)
        counts.append(1)
      }
    }
  }

  /// Pixel `pixel` packed, 0 when it is fully transparent.
  static func key(_ rgba: [UInt8], _ pixel: Int) -> UInt32 {
    let start = pixel * 4
    guard rgba[start + 3] != 0 else { return 0 }
    return UInt32(rgba[start]) << 24 | UInt32(rgba[start + 1]) << 16
      | UInt32(rgba[start + 2]) << 8 | UInt32(rgba[start + 3])
  }
}

/// A packed colour as straight RGBA.
func unpacked(_ key: UInt32) -> RGBAColor {
  RGBAColor(
    red: UInt8(key >> 24), green: UInt8(key >> 16 & 0xff), blue: UInt8(key >> 8 & 0xff),
    alpha: UInt8(key & 0xff))
}
