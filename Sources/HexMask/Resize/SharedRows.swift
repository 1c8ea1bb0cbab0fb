/// One decoder's rows, decoded once and read by several readers (``branch()``), each at its
/// own pace: how several sizes of one picture come from one decode.
///
/// A row is kept from the moment the first reader asks for it until the last open reader
/// has passed it, so memory follows how far apart the readers are, not the picture's
/// height. Readers that move through the picture at the same relative speed (the several
/// sizes of one render, interleaved by how far down each output is) stay a few filter
/// heights apart. A reader that is done should ``Branch/close()``, so rows are no longer
/// kept for it. With a single reader nothing is kept or copied: it reads the source
/// directly.
///
/// ```swift
/// let shared = SharedRows(upright)
/// let small = ResizedDecoder(shared.branch(), crop: square, side: 64)
/// let large = ResizedDecoder(shared.branch(), crop: square, side: 256)
/// ```
///
/// An error from the source is thrown to the reader that hit it and to every later read,
/// by any reader.
package final class SharedRows {
  /// The decoder whose rows are shared.
  package let source: any ImageDecoder
  /// The next row each reader reads; `Int.max` once it is closed.
  private var positions: [Int] = []
  /// Rows read from the source but not yet passed by every open reader; `kept[0]` is row
  /// `firstKept`.
  private var kept: [[UInt8]] = []
  private var firstKept = 0
  /// Buffers of rows every reader has passed, for reuse.
  private var spare: [[UInt8]] = []
  private var failure: ImageError?
  /// The most rows kept at once so far: what sharing costs in memory, in rows.
  package private(set) var mostRowsKept = 0

  package init(_ source: any ImageDecoder) {
    self.source = source
  }

  /// A new reader of the rows from the top. Make all readers before the first read.
  package func branch() -> Branch {
    positions.append(0)
    return Branch(shared: self, reader: positions.count - 1)
  }

  /// Writes row `positions[reader]` into `row` and moves that reader on.
  fileprivate func read(for reader: Int, into row: UnsafeMutableBufferPointer<UInt8>)
    throws(ImageError)
  {
    if let failure { throw failure }
    let index = positions[reader]
    do throws(ImageError) {
      if positions.count == 1 {
        try source.readRow(into: row)
      } else {
        try keepRows(through: index)
        kept[index - firstKept].withUnsafeBufferPointer { bytes in
          if let target = row.baseAddress, let stored = bytes.baseAddress {
            target.update(from: stored, count: row.count)
          }
        }
      }
    } catch {
      failure = error
      throw error
    }
    positions[reader] = index + 1
    forgetPassedRows()
  }

  /// Reads source rows into `kept` until row `last` is among them.
  private func keepRows(through last: Int) throws(ImageError) {
    while firstKept + kept.count <= last {
      var buffer = spare.popLast() ?? [UInt8](repeating: 0, count: source.width * 4)
      try source.readRow(into: &buffer)
      kept.append(buffer)
      mostRowsKept = max(mostRowsKept, kept.count)
    }
  }

  /// Stops keeping rows for `reader`.
  fileprivate func close(_ reader: Int) {
    positions[reader] = Int.max
    forgetPassedRows()
  }

  /// Moves the rows every open reader has passed to `spare`.
  private func forgetPassedRows() {
    let slowest = positions.min() ?? Int.max
    let passed = min(max(0, slowest - firstKept), kept.count)
    guard passed > 0 else { return }
    spare.append(contentsOf: kept[..<passed])
    kept.removeFirst(passed)
    firstKept += passed
    // Keep a few buffers for reuse, not every row a far-behind reader once held.
    if spare.count > 4 { spare.removeLast(spare.count - 4) }
  }

  /// One reader of a ``SharedRows``: a decoder of the source's rows, top to bottom.
  package final class Branch: WrappingDecoder {
    private let shared: SharedRows
    private let reader: Int
    private var reads = WrappedReads()

    fileprivate init(shared: SharedRows, reader: Int) {
      self.shared = shared
      self.reader = reader
    }

    package var source: any ImageDecoder { shared.source }
    package var width: Int { shared.source.width }
    package var height: Int { shared.source.height }

    package func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
      try reads.nextRow(of: self, into: row) { (_) throws(ImageError) in
        try shared.read(for: reader, into: row)
      }
    }

    /// Reads no more rows: the shared rows are no longer kept for this reader.
    package func close() {
      shared.close(reader)
    }
  }
}
