/// A square of another decoder's picture at a new size, one row at a time, top to
/// bottom, as straight-alpha RGBA8.
///
/// The square `crop` of the source becomes `side` × `side` pixels through a separable
/// Lanczos-3 filter (widened by the scale factor when shrinking, so fine detail averages
/// out instead of turning into moiré). Filtering happens on premultiplied alpha in
/// `Float`, so transparent pixels lend no colour to their neighbours; each output pixel
/// is rounded once, at the end. Pixels beyond the source's edges repeat the edge; pixels
/// outside `crop` but inside the source take part near the crop's edges, as they would
/// in the resized whole picture.
///
/// Source rows are read as the filter needs them: each is filtered across into a row of
/// `side` pixels kept in a ring as tall as the filter, and each output row is a weighted
/// sum of that ring. When `side` equals `crop.side` nothing is filtered: rows are only
/// cropped. `width` and `height` are `side`; `warnings`, `metadata` and `isOpaque` are the
/// source's (a `WrappingDecoder`).
/// An error from the source is thrown by the call that hit it and by every later call.
///
/// ```swift
/// let stored = try openDecoder(file: fp, maxPixels: limit, targetSide: 256)
/// let square = CropSquare(imageWidth: stored.width, imageHeight: stored.height, gravity: .north)
/// let avatar = ResizedDecoder(stored, crop: square, side: 256)
/// var row = [UInt8](repeating: 0, count: avatar.width * 4)
/// try row.withUnsafeMutableBufferPointer { try avatar.readRow(into: $0) }
/// ```
///
/// - Complexity: memory O(source width + side × filter height), where the filter is
///   about 6 × crop.side / side source rows tall when shrinking and 6 when enlarging;
///   time O(source pixels in use × 6 + side² × filter height).
package final class ResizedDecoder: WrappingDecoder {
  /// The decoder of the picture that is cropped and resized.
  package let source: any ImageDecoder
  /// Pixels per output row: the `side` asked for.
  package let width: Int
  /// Output rows: the `side` asked for.
  package let height: Int
  /// The square of the source that is shown, in source pixels.
  package let crop: CropSquare

  /// How many source rows have been read so far.
  private var sourceRowsRead = 0
  /// nil when the output is the crop at its own size.
  private let filter: Filter?
  /// One source row as the source delivers it.
  private var stored: [UInt8]
  private var reads = WrappedReads()

  /// Shows the square `crop` of `source` (in its pixels, inside it) as `side` × `side`
  /// pixels (`side` ≥ 1). Reads nothing yet. A `side` or `crop` outside those bounds
  /// makes every read throw instead of trapping: the renders check `side` against
  /// ``HexMask/Output/sizeRange`` and crop inside the picture, but a host's process must
  /// not depend on that staying so.
  package init(_ source: any ImageDecoder, crop: CropSquare, side: Int) {
    self.source = source
    self.crop = crop
    width = side
    height = side
    let fits =
      side > 0 && crop.side > 0 && crop.left >= 0 && crop.top >= 0
      && crop.left <= source.width - crop.side && crop.top <= source.height - crop.side
    guard fits else {
      stored = []
      filter = nil
      reads = WrappedReads(
        failed: ImageError(
          .unsupported,
          "cannot show the \(crop.side) px square at (\(crop.left), \(crop.top)) of a "
            + "\(source.width)×\(source.height) picture as \(side) px"))
      return
    }
    stored = [UInt8](repeating: 0, count: source.width * 4)
    filter =
      side == crop.side
      ? nil
      : Filter(
        sourceWidth: source.width, sourceHeight: source.height,
        region: (Double(crop.left), Double(crop.top), Double(crop.side)), side: side)
  }

  /// Writes the next output row into `row`, which holds exactly `width * 4` bytes.
  package func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try reads.nextRow(of: self, into: row) { (y) throws(ImageError) in
      if let filter {
        try resample(row: y, with: filter, into: row)
      } else {
        try readSourceRows(through: crop.top + y) { _ in }
        let start = crop.left * 4
        stored.withUnsafeBufferPointer { bytes in
          if let target = row.baseAddress, let source = bytes.baseAddress {
            target.update(from: source + start, count: row.count)
          }
        }
      }
    }
  }

  /// The output rows that any source pixel of `rows` × `columns` reaches through the
  /// filter (or the crop): every other output row is the same whatever those pixels hold.
  /// Empty when none is; every row when the decoder shows nothing (a bad crop).
  package func outputRows(reachedBy rows: Range<Int>, columns: Range<Int>) -> Range<Int> {
    guard !stored.isEmpty else { return 0..<height }
    guard let filter else {
      let shown = crop.left..<(crop.left + crop.side)
      guard shown.overlaps(columns) else { return 0..<0 }
      let top = min(max(rows.lowerBound - crop.top, 0), height)
      return top..<max(top, min(rows.upperBound - crop.top, height))
    }
    guard filter.span.overlaps(columns), !rows.isEmpty else { return 0..<0 }
    let (first, count) = (filter.rows.first, filter.rows.count)
    // Each output row reads source rows first[y] ..< first[y] + count[y], both ends
    // growing with y.
    guard let top = (0..<height).first(where: { first[$0] + count[$0] > rows.lowerBound }),
      let bottom = (0..<height).last(where: { first[$0] < rows.upperBound }), top <= bottom
    else { return 0..<0 }
    return top..<(bottom + 1)
  }

  /// Moves on to output row `row` (up to ``height``) without making the rows before it:
  /// the source rows only they use are skipped unread (``ImageDecoder/skipRows(_:)``), so
  /// the rows from `row` on come out as if every row had been made. At ``height``, the
  /// source is where making every row would have left it.
  package func skip(to row: Int) throws(ImageError) {
    let row = min(row, height)
    try reads.skip(to: row) { () throws(ImageError) in
      guard !stored.isEmpty else { return }
      let end: Int  // the first source row still to read
      if let filter {
        let rows = filter.rows
        end = row < height ? rows.first[row] : rows.first[height - 1] + rows.count[height - 1]
      } else {
        end = crop.top + row
      }
      guard end > sourceRowsRead else { return }
      try source.skipRows(end - sourceRowsRead)
      sourceRowsRead = end
    }
  }

  /// True when every source row has been read, so that ``readRemainingSourceRows()`` has
  /// nothing left to find.
  package var hasReadEverySourceRow: Bool { sourceRowsRead >= source.height }

  /// Reads the source rows the output did not need, so that damage anywhere in the
  /// file is found (``HexMask/Input/strict``). Call after the last output row.
  package func readRemainingSourceRows() throws(ImageError) {
    try reads.remembering { () throws(ImageError) in
      try readSourceRows(through: source.height - 1) { _ in }
    }
  }

  /// Reads source rows up to and including `last`, calling `use` with each row's index
  /// while it is in `stored`.
  private func readSourceRows(through last: Int, _ use: (Int) -> Void) throws(ImageError) {
    while sourceRowsRead <= last {
      try source.readRow(into: &stored)
      sourceRowsRead += 1
      use(sourceRowsRead - 1)
    }
  }

  /// Makes output row `y` from the ring, first filtering across the source rows it
  /// needs that have not been read yet.
  private func resample(
    row y: Int, with filter: Filter, into row: UnsafeMutableBufferPointer<UInt8>
  )
    throws(ImageError)
  {
    let rows = filter.rows
    let needed = rows.first[y]
    try readSourceRows(through: rows.first[y] + rows.count[y] - 1) { index in
      // Rows above the first one this output row needs are needed by no later row either.
      guard index >= needed else { return }
      stored.withUnsafeBufferPointer { filter.filterAcross($0, intoRingFor: index) }
    }
    filter.filterDown(row: y, into: row)
  }
}

/// The weights and buffers of a resampling `ResizedDecoder`. Pixels are four `Float`s
/// (premultiplied R, G, B and alpha, 0…255) side by side; scalar loops, which the
/// optimiser vectorises, stay fast in debug builds too, unlike `SIMD4` arithmetic.
private final class Filter {
  let columns: LanczosWeights
  let rows: LanczosWeights
  /// The source columns any output column uses.
  let span: Range<Int>
  let side: Int
  /// Rows in the ring: the longest run of source rows one output row uses.
  let ringRows: Int
  /// The span of one source row, premultiplied.
  let premultiplied: UnsafeMutableBufferPointer<Float>
  /// `ringRows` rows of `side` pixels, filtered across; source row `r` is in ring row `r % ringRows`.
  let ring: UnsafeMutableBufferPointer<Float>
  /// One output row before rounding.
  let sums: UnsafeMutableBufferPointer<Float>

  init(
    sourceWidth: Int, sourceHeight: Int, region: (left: Double, top: Double, side: Double),
    side: Int
  ) {
    columns = LanczosWeights(
      sourceLength: sourceWidth, start: region.left, length: region.side, outputLength: side)
    rows = LanczosWeights(
      sourceLength: sourceHeight, start: region.top, length: region.side, outputLength: side)
    span = columns.sourceSpan
    self.side = side
    ringRows = rows.longestRun
    premultiplied = .allocate(capacity: span.count * 4)
    ring = .allocate(capacity: ringRows * side * 4)
    sums = .allocate(capacity: side * 4)
    premultiplied.initialize(repeating: 0)
    ring.initialize(repeating: 0)
    sums.initialize(repeating: 0)
  }

  deinit {
    premultiplied.deallocate()
    ring.deallocate()
    sums.deallocate()
  }

  /// Premultiplies source row `index` (straight RGBA8) and filters it across into its ring
  /// row. A row too short for the columns' span is left out rather than read past its end.
  func filterAcross(_ bytes: UnsafeBufferPointer<UInt8>, intoRingFor index: Int) {
    // The loops below read with `&+` and `loadUnaligned`, unchecked: this one comparison
    // per row keeps every read inside `bytes` (the span starts at 0 or after: the weights
    // fold taps beyond the edges onto the edge pixels).
    guard span.upperBound <= bytes.count / 4 else { return }
    let target = (index % ringRows) * side * 4
    guard let pixels = UnsafeMutableRawPointer(premultiplied.baseAddress),
      let out = UnsafeMutableRawPointer(ring.baseAddress),
      let source = UnsafeRawPointer(bytes.baseAddress)
    else { return }
    let stride = MemoryLayout<SIMD4<Float>>.stride
    // One pixel at a time as four lanes, without a branch: an opaque pixel's factor is
    // exactly 1, so its colour is unchanged.
    let offset = span.lowerBound * 4
    for i in 0..<span.count {
      let pixel = SIMD4<Float>(
        source.loadUnaligned(fromByteOffset: offset + i * 4, as: SIMD4<UInt8>.self))
      let factor = pixel.w / 255
      pixels.storeBytes(
        of: pixel * SIMD4(factor, factor, factor, 1), toByteOffset: i * stride,
        as: SIMD4<Float>.self)
    }
    columns.weights.withUnsafeBufferPointer { weights in
      columns.first.withUnsafeBufferPointer { firsts in
        columns.count.withUnsafeBufferPointer { counts in
          guard let weights = weights.baseAddress else { return }
          /// The sum of source pixels `start..<start + count` weighted by
          /// `weights[base...]`, continuing `sum` from tap `from`: in tap order, so the
          /// result does not depend on how pixels are grouped below.
          func taps(
            _ sum: inout SIMD4<Float>, base: Int, start: Int, from: Int, count: Int
          ) {
            var k = from
            while k < count {
              sum +=
                weights[base &+ k]
                * pixels.loadUnaligned(
                  fromByteOffset: (start &+ k) &* stride, as: SIMD4<Float>.self)
              k &+= 1
            }
          }
          // Two output pixels at a time: two independent chains of additions keep the
          // processor busy while each addition waits for the one before it. One pixel is
          // four adjacent Floats: whole pixels are summed at once.
          var x = 0
          while x &+ 1 < side {
            let base = x &* columns.stride
            let (start0, start1) = (firsts[x] &- span.lowerBound, firsts[x &+ 1] &- span.lowerBound)
            let (count0, count1) = (counts[x], counts[x &+ 1])
            var sum0 = SIMD4<Float>(repeating: 0)
            var sum1 = SIMD4<Float>(repeating: 0)
            var k = 0
            while k < min(count0, count1) {
              sum0 +=
                weights[base &+ k]
                * pixels.loadUnaligned(
                  fromByteOffset: (start0 &+ k) &* stride, as: SIMD4<Float>.self)
              sum1 +=
                weights[base &+ columns.stride &+ k]
                * pixels.loadUnaligned(
                  fromByteOffset: (start1 &+ k) &* stride, as: SIMD4<Float>.self)
              k &+= 1
            }
            taps(&sum0, base: base, start: start0, from: k, count: count0)
            taps(&sum1, base: base &+ columns.stride, start: start1, from: k, count: count1)
            out.storeBytes(
              of: sum0, toByteOffset: (target / 4 &+ x) &* stride, as: SIMD4<Float>.self)
            out.storeBytes(
              of: sum1, toByteOffset: (target / 4 &+ x &+ 1) &* stride, as: SIMD4<Float>.self)
            x &+= 2
          }
          if x < side {
            var sum = SIMD4<Float>(repeating: 0)
            taps(
              &sum, base: x &* columns.stride, start: firsts[x] &- span.lowerBound, from: 0,
              count: counts[x])
            out.storeBytes(
              of: sum, toByteOffset: (target / 4 &+ x) &* stride, as: SIMD4<Float>.self)
          }
        }
      }
    }
  }

  /// Sums the ring rows output row `y` uses and writes them as straight RGBA8.
  func filterDown(row y: Int, into row: UnsafeMutableBufferPointer<UInt8>) {
    let count = side * 4
    guard let total = sums.baseAddress, let ringStart = ring.baseAddress else { return }
    total.update(repeating: 0, count: count)
    let first = rows.first[y]
    for k in 0..<rows.count[y] {
      let weight = rows.weights[y * rows.stride + k]
      // Raw pointers to distinct buffers: the loop vectorises.
      addScaled(ringStart + ((first + k) % ringRows) * count, weight, into: total, count: count)
    }
    for x in 0..<side {
      let alpha = sums[x * 4 + 3]
      // Colour is divided by the unrounded alpha, so it keeps its hue at any opacity;
      // a pixel whose alpha rounds to 0 has no colour.
      guard alpha >= 0.5 else {
        for channel in 0..<4 { row[x * 4 + channel] = 0 }
        continue
      }
      let unpremultiply = 255 / alpha
      for channel in 0..<3 {
        row[x * 4 + channel] = rgba8(sums[x * 4 + channel] * unpremultiply)
      }
      row[x * 4 + 3] = rgba8(alpha)
    }
  }
}

/// `total[i] += weight · source[i]` for `count` values.
@inline(__always)
private func addScaled(
  _ source: UnsafePointer<Float>, _ weight: Float, into total: UnsafeMutablePointer<Float>,
  count: Int
) {
  for i in 0..<count { total[i] += weight * source[i] }
}

/// `value` rounded to the nearest integer and clamped to 0…255.
@inline(__always)
private func rgba8(_ value: Float) -> UInt8 {
  UInt8(min(max(value, 0), 255).rounded(.toNearestOrAwayFromZero))
}
