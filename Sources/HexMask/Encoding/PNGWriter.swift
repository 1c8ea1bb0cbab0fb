import CImageShims

/// Writes an 8-bit RGBA (or, with `channels: 1`, gray) PNG one row at a time, with no timestamp or other varying chunk,
/// so the same pixels always give the same bytes.
///
/// Only IHDR, an iCCP when given a profile, IDAT and IEND are written, non-interlaced,
/// with libpng's adaptive filters; never a timestamp, text or EXIF. The writer writes
/// to the FILE it is given and never closes it; after `finish()` the bytes have been
/// flushed to it.
///
/// ```swift
/// let writer = try PNGWriter(
///   file: fp, width: 256, height: 256, iccProfile: decoder.metadata.iccProfile)
/// for warning in writer.warnings { print("hexmask: \(name): \(warning)") }
/// for row in rows { try row.withUnsafeBufferPointer { try writer.writeRow($0) } }
/// try writer.finish()
/// ```
public final class PNGWriter {
  /// Problems that did not stop the image, set by `init`: a profile libpng refused
  /// (a damaged header, or a CMYK or gray profile, which cannot describe RGB pixels) is
  /// left out and explained here, e.g. "ICC profile not written: …".
  public private(set) var warnings: [String] = []

  private let writer: OpaquePointer
  private let width: Int
  private let channels: Int

  /// Writes the PNG header for a `width`×`height` image; `compressionLevel` is
  /// zlib's 0 (none, fastest) … 9 (smallest, slowest). `iccProfile`, when given, is
  /// written as an iCCP chunk (named "ICC profile"), byte for byte; if libpng refuses
  /// it, the image is written without it and `warnings` says why — never an error.
  /// `channels` is 4 for RGBA rows or 1 for 8-bit gray ones (masks).
  public init(
    file: CFile, width: Int, height: Int, compressionLevel: Int = 6, iccProfile: [UInt8]? = nil,
    channels: Int = 4
  ) throws(ImageError) {
    guard let writer = hm_png_writer_create() else {
      throw ImageError(.writeFailed, "out of memory")
    }
    self.writer = writer
    self.width = width
    self.channels = channels
    // From here on deinit frees the writer, whatever throws.
    let sides = 1...0x7fff_ffff
    guard sides.contains(width), sides.contains(height) else {
      throw ImageError(.writeFailed, "cannot write a \(width)×\(height) PNG")
    }
    guard (0...9).contains(compressionLevel) else {
      throw ImageError(.writeFailed, "PNG compression level must be 0…9, not \(compressionLevel)")
    }
    guard channels == 1 || channels == 4 else {
      throw ImageError(.writeFailed, "PNG rows must have 1 or 4 channels, not \(channels)")
    }
    let profile = iccProfile ?? []
    try profile.withUnsafeBufferPointer { (bytes) throws(ImageError) in
      try callShim(format: "PNG", writing: true) {
        hm_png_writer_open(
          writer, file, UInt32(width), UInt32(height), Int32(channels), Int32(compressionLevel),
          iccProfile == nil ? nil : bytes.baseAddress, bytes.count, $0, $1)
      }
    }
    if iccProfile != nil,
      let refusal = hm_png_writer_icc_refusal(writer).map(String.init(cString:)),
      !refusal.isEmpty
    {
      warnings.append("ICC profile not written: \(userMessage(refusal))")
    }
  }

  deinit { hm_png_writer_destroy(writer) }

  /// Writes the next row: exactly `width * 4` bytes of straight RGBA, or `width` gray bytes.
  public func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {
    precondition(row.count == width * channels, "a row must hold exactly width * channels bytes")
    try callShim(format: "PNG", writing: true) {
      hm_png_writer_write_row(writer, row.baseAddress, $0, $1)
    }
  }

  /// Writes the end of the stream and flushes the file; call once after the last row.
  /// An error here means the file is incomplete.
  public func finish() throws(ImageError) {
    try callShim(format: "PNG", writing: true) { hm_png_writer_finish(writer, $0, $1) }
  }
}
