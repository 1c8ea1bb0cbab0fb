import CImageShims
import CZlib

/// Writes an 8-bit RGBA or gray PNG one row at a time, compressing bands of rows on
/// several threads; the bytes depend only on the pixels and `compression`, never on
/// `threads`.
///
/// The stream is written here, without libpng: the signature, IHDR, hexmask's mark (a
/// `tEXt` chunk, ``HexMaskMark``) unless told not to, an iCCP when given a profile libpng
/// would accept, IDAT chunks and IEND — never a timestamp, other text or EXIF. Rows are grouped into bands of about 1 MB (a size fixed by the image width);
/// each band is filtered and raw-deflated on its own and ends with a full flush, so the
/// bands join into one zlib stream whose Adler-32 is combined from theirs. At most
/// `threads + 1` bands of rows are held at once. The encoder writes to the FILE it is
/// given and never closes it; after `finish()` the bytes have been flushed to it.
///
/// ```swift
/// let encoder = try PNGStreamEncoder(
///   file: fp, width: 4000, height: 4000, compression: .default, threads: 2)
/// for row in rows { try row.withUnsafeBufferPointer { try encoder.writeRow($0) } }
/// try encoder.finish()
/// ```
///
/// - Complexity: O(`width` × `height`) time; memory O(`threads` × band size).
package final class PNGStreamEncoder {
  /// Problems that did not stop the image, set by `init`: a profile libpng would refuse
  /// (e.g. a CMYK profile) is left out and explained here, "ICC profile not written: …".
  package private(set) var warnings: [Warning] = []

  /// Rows per band target this many filtered bytes; only the width decides the split.
  static let bandBytes = 1 << 20

  private let chunks: PNGChunkWriter
  private let height: Int
  private let rowBytes: Int
  private let rowsPerBand: Int
  private let compression: PNGCompression
  private var queue: BandQueue
  private var idat = IDATStream()
  /// The band being filled, nil between bands.
  private var filling: DeflateBand?
  private var rowsWritten = 0
  private var adler = adler32(0, nil, 0)
  private var finished = false
  /// The first failure; every later call reports it again.
  private var failure: ImageError?

  /// Writes the PNG header for a `width`×`height` image of `channels` bytes per pixel:
  /// 4 for straight RGBA, 1 for gray. `iccProfile`, when given, is written as an iCCP
  /// chunk (named "ICC profile") byte for byte, unless libpng's checks refuse it — then
  /// the image is written without it and `warnings` says why, never an error. `threads`
  /// (at least 1) bands are compressed at a time. `mark` writes hexmask's mark. `srgb`
  /// writes an `sRGB` chunk, which says the pixels are sRGB (with no `iccProfile`).
  package convenience init(
    file: CFile, width: Int, height: Int, channels: Int = 4,
    compression: PNGCompression = .default, iccProfile: [UInt8]? = nil, srgb: Bool = false,
    threads: Int = 1, mark: Bool = true
  ) throws(ImageError) {
    try self.init(
      file: file, width: width, height: height, channels: channels, compression: compression,
      iccProfile: iccProfile, srgb: srgb, threads: threads, bandBytes: Self.bandBytes,
      mark: mark)
  }

  /// The same, with bands of about `bandBytes` filtered bytes (tests use small ones).
  init(
    file: CFile, width: Int, height: Int, channels: Int, compression: PNGCompression,
    iccProfile: [UInt8]?, srgb: Bool = false, threads: Int, bandBytes: Int, mark: Bool = true
  ) throws(ImageError) {
    let sides = 1...0x7fff_ffff
    guard sides.contains(width), sides.contains(height) else {
      throw ImageError(.writeFailed, "cannot write a \(width)×\(height) PNG")
    }
    guard channels == 1 || channels == 4 else {
      throw ImageError(
        .writeFailed, "PNG pixels must have 1 (gray) or 4 (RGBA) bytes, not \(channels)")
    }
    guard (0...9).contains(compression.level) else {
      throw ImageError(
        .writeFailed, "PNG compression level must be 0…9, not \(compression.level)")
    }
    guard threads >= 1 else {
      throw ImageError(.writeFailed, "PNG encoding needs at least 1 thread, not \(threads)")
    }
    chunks = PNGChunkWriter(file: file)
    self.height = height
    rowBytes = width * channels
    rowsPerBand = max(1, bandBytes / (rowBytes + 1))
    self.compression = compression
    queue = BandQueue(threads: threads, settings: compression, pixelBytes: channels)

    try chunks.writeSignature()
    try chunks.writeChunk("IHDR", headerChunkData(width: width, height: height, channels: channels))
    if mark { try chunks.writeChunk("tEXt", HexMaskMark.pngText) }
    if srgb && iccProfile == nil { try chunks.writeChunk("sRGB", srgbChunkData) }
    if let iccProfile {
      if let refusal = pngProfileRefusal(iccProfile, gray: channels == 1) {
        warnings.append(
          Warning(.profileNotWritten, "ICC profile not written: \(userMessage(refusal))"))
      } else {
        try chunks.writeChunk("iCCP", iccProfileChunkData(iccProfile))
      }
    }
    try idat.append(zlibHeader(for: compression), to: chunks)
  }

  /// Takes the next row: exactly `width * channels` bytes. Compressed bands are written
  /// as they complete, in order; this waits only when `threads` bands are in flight.
  package func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {
    guard row.count == rowBytes else {
      throw fail(ImageError(.writeFailed, "a row holds \(rowBytes) bytes, not \(row.count)"))
    }
    if let failure { throw failure }
    guard !finished, rowsWritten < height else {
      throw fail(ImageError(.writeFailed, "more rows written than the image has"))
    }
    let band = filling ?? startBand(after: nil)
    let index = rowsWritten - band.firstRow
    if let base = row.baseAddress { band.row(index).update(from: base, count: rowBytes) }
    rowsWritten += 1
    guard index == band.rowCount - 1 else { return }
    // The band is full: hand it to a worker, then start the next with its last row.
    do throws(ImageError) {
      while !queue.hasRoom, let done = queue.next(wait: true) { try write(done) }
      queue.submit(band)
      filling = band.isLast ? nil : startBand(after: band)
      while let done = queue.next(wait: false) { try write(done) }
    } catch {
      throw fail(error)
    }
  }

  /// Writes the rest of the stream and IEND, and flushes the file; call once after the
  /// last row. An error here means the file is incomplete.
  package func finish() throws(ImageError) {
    if let failure { throw failure }
    guard !finished, rowsWritten == height else {
      throw fail(
        ImageError(.writeFailed, "only \(rowsWritten) of \(height) rows were written"))
    }
    finished = true
    do throws(ImageError) {
      while let done = queue.next(wait: true) { try write(done) }
      try idat.flush(to: chunks)
      try chunks.writeChunk("IEND")
      try chunks.flush()
    } catch {
      throw fail(error)
    }
  }

  /// A new band starting below `previous` (or at the top), holding its last row.
  private func startBand(after previous: DeflateBand?) -> DeflateBand {
    let firstRow = previous.map { $0.firstRow + $0.rowCount } ?? 0
    let rowCount = min(rowsPerBand, height - firstRow)
    let band = DeflateBand(
      firstRow: firstRow, rowCount: rowCount, rowBytes: rowBytes,
      isLast: firstRow + rowCount == height)
    if let previous {
      band.row(-1).update(from: previous.row(previous.rowCount - 1), count: rowBytes)
    }
    filling = band
    return band
  }

  /// Appends a compressed band to the IDAT stream, and the Adler-32 after the last one.
  private func write(_ band: DeflateBand) throws(ImageError) {
    if let reason = band.failure { throw ImageError(.writeFailed, "cannot write PNG: \(reason)") }
    if let compressed = band.compressed {
      try idat.append(
        UnsafeRawBufferPointer(start: compressed, count: band.compressedCount), to: chunks)
    }
    adler = adler32_combine(adler, band.adler, off_t(band.filteredCount))
    if band.isLast {
      try idat.append(bigEndianBytes(UInt32(adler)), to: chunks)
    }
  }

  private func fail(_ error: ImageError) -> ImageError {
    if failure == nil { failure = error }
    return failure ?? error
  }
}

/// Why libpng would not write `profile` as the iCCP of an RGBA (or gray) PNG; nil when
/// it would.
func pngProfileRefusal(_ profile: [UInt8], gray: Bool) -> String? {
  var reason = [CChar](repeating: 0, count: Int(HM_MESSAGE_SIZE))
  let accepted = profile.withUnsafeBufferPointer { bytes in
    hm_png_icc_profile_check(bytes.baseAddress, bytes.count, gray ? 1 : 0, &reason, reason.count)
  }
  guard accepted == 0 else { return nil }
  return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

extension PNGStreamEncoder: ImageWriter {}
