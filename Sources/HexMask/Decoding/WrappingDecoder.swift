/// A decoder that shows another decoder's picture differently (turned upright, cropped,
/// resized), one row at a time.
///
/// Its `warnings`, `metadata` and `isOpaque` are its source's: turning, cropping and
/// resampling add no problems, keep the file's metadata, and keep opaque pixels opaque.
/// A conforming type only makes the rows.
///
/// ```swift
/// let upright = OrientedDecoder(try openDecoder(file: fp, maxPixels: limit), orientation: .right)
/// // upright.metadata == upright.source.metadata
/// ```
package protocol WrappingDecoder: ImageDecoder {
  /// The decoder whose rows this one reads.
  var source: any ImageDecoder { get }
}

extension WrappingDecoder {
  /// The source's warnings.
  package var warnings: [Warning] { source.warnings }
  /// The source's metadata.
  package var metadata: ImageMetadata { source.metadata }
  /// The source's promise: no wrapping decoder makes an opaque pixel transparent.
  package var isOpaque: Bool { source.isOpaque }
}

/// What a wrapping decoder remembers between reads: how many rows it has delivered, and
/// the first error its source threw. After that error the source's state is unknown, so
/// every later read throws the same error again instead of reading on.
///
/// ```swift
/// try reads.nextRow(of: self, into: row) { (y) throws(ImageError) in try source.readRow(into: row) }
/// ```
struct WrappedReads {
  /// Rows delivered so far.
  private(set) var rowsRead = 0
  private var failure: ImageError?

  /// Reads that have not failed yet; `failed` makes every read throw it from the start.
  init(failed: ImageError? = nil) { failure = failed }

  /// Delivers the next row of `decoder` into `row` through `body`, which gets the row's
  /// index: throws an earlier failure again, checks `row` and that a row is left (as
  /// every decoder's `readRow` does), then runs `body` and counts the row.
  mutating func nextRow(
    of decoder: some ImageDecoder, into row: UnsafeMutableBufferPointer<UInt8>,
    _ body: (Int) throws(ImageError) -> Void
  ) throws(ImageError) {
    if let failure { throw failure }
    try decoder.checkRead(of: row, index: rowsRead)
    let index = rowsRead
    try remembering { () throws(ImageError) in try body(index) }
    rowsRead += 1
  }

  /// Counts the rows up to `row` (exclusive) as delivered without making them, after
  /// `body` has moved the source past them; an earlier failure is thrown again.
  mutating func skip(to row: Int, _ body: () throws(ImageError) -> Void) throws(ImageError) {
    guard row > rowsRead else { return }
    try remembering(body)
    rowsRead = row
  }

  /// Runs `body` unless an earlier read failed; an error from `body` is thrown by this
  /// call and by every later one.
  mutating func remembering(_ body: () throws(ImageError) -> Void) throws(ImageError) {
    if let failure { throw failure }
    do {
      try body()
    } catch {
      failure = error
      throw error
    }
  }
}
