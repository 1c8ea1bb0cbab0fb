import CZlib
import Dispatch

/// One band of rows: filtered and raw-deflated on its own, so bands compress in
/// parallel and still join into one zlib stream.
///
/// Each band ends with a full flush (the last with `Z_FINISH`), which byte-aligns the
/// output and empties the match window: the compressed bands concatenate into one valid
/// deflate stream, and each band's bytes depend only on its own rows and the row above
/// it, never on which thread ran it or when.
///
/// A band is filled by the encoder's thread, then compressed by exactly one thread; the
/// semaphore `done` hands it back. Nothing touches it concurrently, hence
/// `@unchecked Sendable`.
final class DeflateBand: @unchecked Sendable {
  /// The band's first image row.
  let firstRow: Int
  let rowCount: Int
  let rowBytes: Int
  /// Whether this band ends the image (and so the deflate stream).
  let isLast: Bool
  /// The row above the band (zeros above the image), then the band's rows.
  let pixels: UnsafeMutablePointer<UInt8>

  /// The raw deflate output, `compressedCount` bytes; valid once `done` was signalled.
  private(set) var compressed: UnsafeMutablePointer<UInt8>?
  private(set) var compressedCount = 0
  /// Adler-32 of the filtered bytes, for `adler32_combine`.
  private(set) var adler: uLong = 1
  /// The filtered bytes fed to deflate.
  var filteredCount: Int { rowCount * (rowBytes + 1) }
  /// Why compression failed (zlib's words); nil when it did not.
  private(set) var failure: String?
  /// Signalled once when `compress` has returned on a worker thread.
  let done = DispatchSemaphore(value: 0)

  init(firstRow: Int, rowCount: Int, rowBytes: Int, isLast: Bool) {
    self.firstRow = firstRow
    self.rowCount = rowCount
    self.rowBytes = rowBytes
    self.isLast = isLast
    pixels = .allocate(capacity: (rowCount + 1) * rowBytes)
    if firstRow == 0 { pixels.initialize(repeating: 0, count: rowBytes) }
  }

  deinit {
    pixels.deallocate()
    compressed?.deallocate()
  }

  /// Where row `index` of the band (0-based) goes; index −1 is the row above.
  func row(_ index: Int) -> UnsafeMutablePointer<UInt8> {
    pixels + (index + 1) * rowBytes
  }

  /// Filters every row and deflates them as one raw-deflate segment.
  ///
  /// - Complexity: O(`rowCount` × `rowBytes`); memory about 300 KB of zlib state plus
  ///   the compressed bytes.
  func compress(_ settings: PNGCompression, pixelBytes: Int) {
    let filter = RowFilter(filter: settings.filter, rowBytes: rowBytes, pixelBytes: pixelBytes)
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer { stream.deallocate() }
    // windowBits −15: raw deflate, no zlib header or trailer; the encoder adds them once.
    let status = deflateInit2_(
      stream, Int32(settings.level), Z_DEFLATED, -15, 8, settings.strategy.zlibValue,
      zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      failure = "zlib could not start (error \(status))"
      return
    }
    defer { deflateEnd(stream) }
    var capacity = Int(deflateBound(stream, uLong(filteredCount))) + 64
    var output = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    compressed = output
    stream.pointee.next_out = output
    stream.pointee.avail_out = uInt(capacity)

    for index in 0..<rowCount {
      let line = filter.apply(row: row(index), previous: row(index - 1))
      adler = CZlib.adler32(adler, line.baseAddress, uInt(line.count))
      let flush =
        index < rowCount - 1 ? Z_NO_FLUSH : isLast ? Z_FINISH : Z_FULL_FLUSH
      stream.pointee.next_in = UnsafeMutablePointer(mutating: line.baseAddress)
      stream.pointee.avail_in = uInt(line.count)
      while true {
        if stream.pointee.avail_out == 0 {
          // deflateBound makes this rare; grow and carry on.
          let used = capacity
          capacity *= 2
          let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
          larger.update(from: output, count: used)
          output.deallocate()
          output = larger
          compressed = output
          stream.pointee.next_out = output + used
          stream.pointee.avail_out = uInt(capacity - used)
        }
        let result = deflate(stream, flush)
        guard result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR else {
          failure = "zlib failed (error \(result))"
          return
        }
        // Done with this row once all input is taken and, when flushing, every byte
        // has fit (zlib fills the output completely only when it has more to give).
        let drained = stream.pointee.avail_in == 0
        let complete: Bool
        switch flush {
        case Z_FINISH: complete = result == Z_STREAM_END
        case Z_FULL_FLUSH: complete = drained && stream.pointee.avail_out > 0
        default: complete = drained
        }
        if complete { break }
      }
    }
    compressedCount = capacity - Int(stream.pointee.avail_out)
  }
}

/// The zlib stream header (RFC 1950) zlib itself would write for `settings`: deflate
/// with a 32 KB window, and the level hint in FLEVEL.
func zlibHeader(for settings: PNGCompression) -> [UInt8] {
  let levelHint: UInt16
  switch (settings.strategy, settings.level) {
  case (.rle, _), (_, ..<2): levelHint = 0
  case (_, ..<6): levelHint = 1
  case (_, 6): levelHint = 2
  default: levelHint = 3
  }
  var header: UInt16 = 0x78 << 8 | levelHint << 6
  header += 31 - header % 31
  return [UInt8(header >> 8), UInt8(header & 0xff)]
}

/// Runs `DeflateBand`s on up to `threads` worker threads and hands them back in image
/// order, so at most `threads` bands are compressing at any time.
struct BandQueue {
  let threads: Int
  let settings: PNGCompression
  let pixelBytes: Int
  /// Submitted and not yet handed back, oldest first.
  private var pending: [DeflateBand] = []

  init(threads: Int, settings: PNGCompression, pixelBytes: Int) {
    self.threads = threads
    self.settings = settings
    self.pixelBytes = pixelBytes
  }

  var isEmpty: Bool { pending.isEmpty }
  /// Whether another band may start without waiting.
  var hasRoom: Bool { pending.count < threads }

  /// Starts compressing `band`; call when `hasRoom` (the encoder waits for a band to finish
  /// while there is none; more would only run more bands at once). With one thread it runs
  /// on the caller's thread before returning.
  mutating func submit(_ band: DeflateBand) {
    pending.append(band)
    let (settings, pixelBytes) = (self.settings, self.pixelBytes)
    if threads == 1 {
      band.compress(settings, pixelBytes: pixelBytes)
      band.done.signal()
    } else {
      DispatchQueue.global().async {
        band.compress(settings, pixelBytes: pixelBytes)
        band.done.signal()
      }
    }
  }

  /// The oldest band once it is compressed: waits for it when `wait`, else returns nil
  /// if it is still running.
  mutating func next(wait: Bool) -> DeflateBand? {
    guard let first = pending.first else { return nil }
    if wait {
      first.done.wait()
    } else if first.done.wait(timeout: .now()) != .success {
      return nil
    }
    pending.removeFirst()
    return first
  }
}
