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
/// colour. The edge (0 < alpha < 255) keeps its alpha within one level wherever the
/// palette holds that level (``NearestEntry``, in the k-means passes too), and edge
/// entries near in alpha share a level (``sharingLevels(_:weights:)``) so that a held
/// level has several colours. Everything runs in a fixed order on one thread, with no
/// randomness: the same pixels give the same palette and indices.
///
/// ```swift
/// let palette = PaletteQuantizer(colors: 64).quantize(rgba)
/// palette.entries   // straight RGBA, non-opaque first
/// palette.indices   // one per pixel
/// ```
///
/// - Complexity: O(c × `colors` × passes) for c cells (``cells(_:)``) and O(d × `colors`)
///   to map the d distinct colours, after an O(n) count (radix sort) of the n pixels.
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
    // Each distinct colour's likely entry, from the k-means passes: it speeds the search.
    var guesses: [Int?] = []
    if histogram.colors.count <= colors {
      // Few enough colours: each is its own entry, and the picture is kept exactly.
      entries = sortedForPNG(histogram.colors)
    } else {
      var cells = Self.cells(histogram, levels: 4)
      if cells.points.count > Self.mostFineCells { cells = Self.cells(histogram, levels: 8) }
      let (centres, assignment) = chooseCentres(cells)
      // Distinct entries only: two centres may round to one colour.
      var distinct = Set(centres.map { $0.straightKey })
      if cells.transparent { distinct.insert(0) }
      entries = sortedForPNG(Array(distinct))
      var place: [UInt32: Int] = [:]
      for (index, entry) in entries.enumerated() { place[entry] = index }
      // A cell's centre may be the transparent one, just past the others.
      let centreEntry = centres.map { place[$0.straightKey] } + [place[0]]
      guesses = cells.cellOfColor.map { $0 < 0 ? place[0] : centreEntry[assignment[Int($0)]] }
    }
    let nearest = NearestEntry(entries.map(Premultiplied.init))
    let entryOfColor = histogram.colors.indices.map {
      UInt8(
        nearest.index(
          of: Premultiplied(histogram.colors[$0]), guess: guesses.isEmpty ? nil : guesses[$0]))
    }
    var indices = histogram.colorOfPixel.map { entryOfColor[Int($0)] }
    if dither && histogram.colors.count > colors {
      OrderedDither(histogram: histogram, entries: entries, entryOfColor: entryOfColor)
        .apply(histogram, width: width, to: &indices)
    }
    return IndexedPixels(entries: entries.map(unpacked), indices: indices)
  }

  /// Median cut then k-means over the cells, with room kept for the transparent entry
  /// when there are transparent pixels; the centres and each cell's centre.
  private func chooseCentres(_ cells: Cells) -> ([Premultiplied], [Int]) {
    let transparent = cells.transparent
    let (points, weights) = (cells.points, cells.weights)
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
    return (centres, assignment)
  }

  /// The visible colours merged into cells: the weighted means, their weights, and each
  /// distinct colour's cell (-1 for the transparent one).
  struct Cells {
    var points: [Premultiplied] = []
    var weights: [Double] = []
    var cellOfColor: [Int32] = []
    var transparent = false
  }

  /// More cells of 4 levels than this and the cells are made of 8.
  static let mostFineCells = 4096

  /// The visible colours merged into cells of `levels` levels a colour channel
  /// (premultiplied) and one alpha, each as the weighted mean of its colours: a grainy
  /// photo's tens of thousands of colours become a few thousand points for the median cut
  /// and k-means; pixels are still mapped from their exact colours. Cells are in the order
  /// their first colour comes.
  ///
  /// Why two sizes (bench/palette.py, bench job i): cells of 8 take a third off a grainy
  /// avatar's quantizing time for a few per cent more error, but a small or smooth
  /// picture has too few of them (the 160 px gallery rocket: 775 cells for 256 entries,
  /// 1.30× pngquant's error, 1.06× with cells of 4). Past ``mostFineCells`` cells of 4,
  /// cells of 8 are still plenty.
  static func cells(_ histogram: ColorHistogram, levels: UInt32) -> Cells {
    var cellOf: [UInt32: Int32] = [:]
    var result = Cells()
    var sums: [SIMD4<Double>] = []
    result.cellOfColor.reserveCapacity(histogram.colors.count)
    for (color, count) in zip(histogram.colors, histogram.counts) {
      guard color != 0 else {
        result.transparent = true
        result.cellOfColor.append(-1)
        continue
      }
      let alpha = color & 0xff
      // Premultiplied channels by `levels`, in integers (exact); alpha stays exact: the
      // edge's levels are few.
      var cell = alpha
      for shift in [24, 16, 8] as [UInt32] {
        cell |= ((color >> shift & 0xff) * alpha / 255 / levels) << shift
      }
      let point = Premultiplied(color).channels
      let weight = Double(count)
      if let index = cellOf[cell] {
        sums[Int(index)] += point * weight
        result.weights[Int(index)] += weight
        result.cellOfColor.append(index)
      } else {
        cellOf[cell] = Int32(sums.count)
        result.cellOfColor.append(Int32(sums.count))
        sums.append(point * weight)
        result.weights.append(weight)
      }
    }
    result.points = zip(sums, result.weights).map { Premultiplied($0 / $1) }
    return result
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
  /// corpus avatars (bench/palette.py): 0 (each its own level) doubles the error without a
  /// border (line width 0), where a level held by one entry forces photo colours of every
  /// hue onto it; 16 keeps the error lowest but holds fewer levels; 10 keeps both near
  /// pngquant.
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
/// with its number of pixels, in increasing order, and each pixel's colour (its index in
/// `colors`). Every fully transparent pixel is the one colour 0, whatever its RGB says.
/// At most 2³² pixels (``PalettePNGWriter`` takes far fewer).
struct ColorHistogram {
  private(set) var colors: [UInt32] = []
  private(set) var counts: [Int] = []
  private(set) var colorOfPixel: [UInt32] = []

  init(_ rgba: [UInt8]) {
    let keys = (0..<rgba.count / 4).map { Self.key(rgba, $0) }
    colorOfPixel = [UInt32](repeating: 0, count: keys.count)
    for pixel in Self.byColor(keys) {
      let color = keys[Int(pixel)]
      if color != colors.last {
        colors.append(color)
        counts.append(0)
      }
      counts[counts.count - 1] += 1
      colorOfPixel[Int(pixel)] = UInt32(colors.count - 1)
    }
  }

  /// The pixels in the order of their colours (`keys`), by a radix sort in two passes of
  /// 16 bits: several times faster than a comparison sort of 65 536 colours, which was a
  /// tenth of an avatar's quantizing.
  private static func byColor(_ keys: [UInt32]) -> [UInt32] {
    var order = (0..<keys.count).map { UInt32(truncatingIfNeeded: $0) }
    var next = order
    for shift in [0, 16] as [UInt32] {
      var starts = [Int](repeating: 0, count: 65537)
      for key in keys { starts[Int(key >> shift & 0xffff) + 1] += 1 }
      for bucket in 1...65536 { starts[bucket] += starts[bucket - 1] }
      for pixel in order {
        let bucket = Int(keys[Int(pixel)] >> shift & 0xffff)
        next[starts[bucket]] = pixel
        starts[bucket] += 1
      }
      swap(&order, &next)
    }
    return order
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
