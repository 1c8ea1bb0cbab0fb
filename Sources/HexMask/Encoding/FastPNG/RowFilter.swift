/// Applies a `PNGRowFilter` to one row at a time, into buffers it owns and reuses.
///
/// A filtered line is the filter-type byte followed by `rowBytes` filtered bytes, ready
/// for deflate. Bytes where the row, the row above and their left neighbours are all
/// zero filter to zero under every filter; fully transparent runs (RGBA 0,0,0,0) at the
/// ends of a row are therefore found with a word-at-a-time scan and written as zeros
/// without filtering, which on a masked photo skips a third of the work.
///
/// - Complexity: O(`rowBytes`) per row; `.adaptive` does about five filters' work.
final class RowFilter {
  let filter: PNGRowFilter
  /// Bytes per row, without the filter-type byte.
  let rowBytes: Int
  /// Bytes per pixel: the distance to the "left" byte.
  let pixelBytes: Int
  /// One line per filter type 0…4; only `.adaptive` uses more than one.
  private let lines: UnsafeMutablePointer<UInt8>

  init(filter: PNGRowFilter, rowBytes: Int, pixelBytes: Int) {
    self.filter = filter
    self.rowBytes = rowBytes
    self.pixelBytes = pixelBytes
    lines = .allocate(capacity: 5 * (rowBytes + 1))
    for type in 0..<5 { lines[type * (rowBytes + 1)] = UInt8(type) }
  }

  deinit { lines.deallocate() }

  /// Filters `row` given `previous` (zeros for the first row of the image) and returns
  /// the filtered line, valid until the next call.
  func apply(row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>)
    -> UnsafeBufferPointer<UInt8>
  {
    let lead = zeroPrefix(row, previous, count: rowBytes)
    let tail = rowBytes - zeroSuffix(row, previous, count: rowBytes)
    let span = Span(
      start: lead, end: max(lead, min(rowBytes, tail + pixelBytes)), pixelBytes: pixelBytes)
    let type: Int
    switch filter {
    case .none: type = 0
    case .sub: type = 1
    case .up: type = 2
    case .average: type = 3
    case .paeth: type = 4
    case .adaptive:
      var best = (type: 0, sum: Int.max)
      for candidate in 0..<5 {
        let sum = run(candidate, span, row, previous, line(candidate))
        if sum < best.sum { best = (candidate, sum) }
      }
      return finished(line(best.type), span)
    }
    filterOnly(type, span, row, previous, line(type))
    return finished(line(type), span)
  }

  /// The data bytes of the line for filter `type` (its type byte is just before).
  private func line(_ type: Int) -> UnsafeMutablePointer<UInt8> {
    lines + type * (rowBytes + 1) + 1
  }

  /// Zeroes the bytes outside `span` and returns the whole line with its type byte.
  private func finished(_ data: UnsafeMutablePointer<UInt8>, _ span: Span)
    -> UnsafeBufferPointer<UInt8>
  {
    data.update(repeating: 0, count: span.start)
    (data + span.end).update(repeating: 0, count: rowBytes - span.end)
    return UnsafeBufferPointer(start: data - 1, count: rowBytes + 1)
  }

  /// Filters `span` of `row` with filter `type` into `out`, without measuring: plain
  /// loops the compiler vectorises, for the fixed filters (Up is the default).
  private func filterOnly(
    _ type: Int, _ span: Span, _ row: UnsafePointer<UInt8>, _ up: UnsafePointer<UInt8>,
    _ out: UnsafeMutablePointer<UInt8>
  ) {
    switch type {
    case 0:
      (out + span.start).update(from: row + span.start, count: span.end - span.start)
    case 2:
      for i in span.start..<span.end { out[i] = row[i] &- up[i] }
    default:
      _ = run(type, span, row, up, out)
    }
  }

  /// Filters `span` of `row` with filter `type` into `out`; returns the sum of the
  /// filtered bytes read as signed magnitudes (libpng's heuristic).
  private func run(
    _ type: Int, _ span: Span, _ row: UnsafePointer<UInt8>, _ up: UnsafePointer<UInt8>,
    _ out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let (start, split, end, bpp) = (span.start, span.split, span.end, span.pixelBytes)
    var sum = 0
    switch type {
    case 0:
      for i in start..<end {
        out[i] = row[i]
        sum &+= magnitude(row[i])
      }
    case 1:
      for i in start..<split {
        out[i] = row[i]
        sum &+= magnitude(out[i])
      }
      for i in split..<end {
        out[i] = row[i] &- row[i - bpp]
        sum &+= magnitude(out[i])
      }
    case 2:
      for i in start..<end {
        out[i] = row[i] &- up[i]
        sum &+= magnitude(out[i])
      }
    case 3:
      for i in start..<split {
        out[i] = row[i] &- up[i] >> 1
        sum &+= magnitude(out[i])
      }
      for i in split..<end {
        out[i] = row[i] &- UInt8(truncatingIfNeeded: (Int(row[i - bpp]) &+ Int(up[i])) >> 1)
        sum &+= magnitude(out[i])
      }
    default:
      // Paeth with left and upper-left outside the row: the prediction is `up`.
      for i in start..<split {
        out[i] = row[i] &- up[i]
        sum &+= magnitude(out[i])
      }
      for i in split..<end {
        out[i] = row[i] &- paeth(row[i - bpp], up[i], up[i - bpp])
        sum &+= magnitude(out[i])
      }
    }
    return sum
  }
}

/// The bytes of a row that need filtering, `start..<end`; below `split` the pixel to
/// the left is outside the row.
private struct Span {
  var start: Int
  var end: Int
  var split: Int
  var pixelBytes: Int

  init(start: Int, end: Int, pixelBytes: Int) {
    self.start = start
    self.end = end
    self.pixelBytes = pixelBytes
    split = min(max(start, pixelBytes), end)
  }
}

/// A filtered byte read as a signed value, made positive.
@inline(__always)
private func magnitude(_ byte: UInt8) -> Int {
  byte < 128 ? Int(byte) : 256 - Int(byte)
}

/// The Paeth predictor (PNG specification §9.4).
@inline(__always)
private func paeth(_ left: UInt8, _ up: UInt8, _ upLeft: UInt8) -> UInt8 {
  let (a, b, c) = (Int(left), Int(up), Int(upLeft))
  let pa = abs(b - c)
  let pb = abs(a - c)
  let pc = abs(a + b - 2 * c)
  if pa <= pb && pa <= pc { return left }
  return pb <= pc ? up : upLeft
}

/// How many bytes at the start are zero in both `a` and `b`.
func zeroPrefix(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Int {
  let (rawA, rawB) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
  var i = 0
  while i + 8 <= count {
    let word = UInt64(
      littleEndian: rawA.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        | rawB.loadUnaligned(fromByteOffset: i, as: UInt64.self))
    if word != 0 { return i + word.trailingZeroBitCount / 8 }
    i += 8
  }
  while i < count && a[i] | b[i] == 0 { i += 1 }
  return i
}

/// How many bytes at the end are zero in both `a` and `b`.
func zeroSuffix(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Int {
  let (rawA, rawB) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
  var end = count
  while end >= 8 {
    let word = UInt64(
      littleEndian: rawA.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)
        | rawB.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
    if word != 0 { return count - end + word.leadingZeroBitCount / 8 }
    end -= 8
  }
  while end > 0 && a[end - 1] | b[end - 1] == 0 { end -= 1 }
  return count - end
}
