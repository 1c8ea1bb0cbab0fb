import CImageShims

/// Writes a JPEG one row at a time, flattening straight RGBA rows onto an opaque
/// background, since JPEG has no alpha.
///
/// The file holds a JFIF header, hexmask's mark (``HexMaskMark``, a comment) unless told
/// not to, the ICC profile when given (as APP2 "ICC_PROFILE"
/// segments of at most 65519 bytes), and the image: baseline, YCbCr 4:2:0, accurate integer
/// DCT, Huffman tables fitted to the image up to 2048² (fitting them holds every
/// coefficient, so larger pictures take libjpeg's standard tables). Never EXIF, another
/// comment or a timestamp, so the same pixels and settings always give the same bytes. Memory is a
/// few rows above 2048², and every coefficient up to it (``cost(side:)``).
///
/// ```swift
/// let writer = try JPEGWriter(file: fp, width: 256, height: 256, quality: 85,
///                             background: .white, iccProfile: profile)
/// for row in rows { try row.withUnsafeBufferPointer { try writer.writeRow($0) } }
/// try writer.finish()
/// ```
package final class JPEGWriter: ImageWriter {
  /// Up to 2048² (the shim's `HM_JPEG_FITTED_TABLES_MAX_PIXELS`), libjpeg keeps every
  /// coefficient to fit its Huffman tables: 3 bytes a pixel in 4:2:0 (measured: 11.4 MiB
  /// at 2000²); above it, rows.
  static func cost(side: Int) -> EncodingCost {
    let (pixels, overflow) = side.multipliedReportingOverflow(by: side)
    let fitted = !overflow && pixels <= Int(HM_JPEG_FITTED_TABLES_MAX_PIXELS)
    return fitted ? EncodingCost(fixed: 0, perPixel: 3) : .streamed
  }

  /// Problems that did not stop the image: an ICC profile left out (one that describes
  /// CMYK or gray pixels, or too large for JPEG markers), and libjpeg's warnings.
  package var warnings: [Warning] {
    notes
      + shimWarnings(.encoder, count: hm_jpeg_writer_warning_count(writer)) {
        hm_jpeg_writer_warning(writer, $0)
      }
  }

  private var notes: [Warning] = []
  private let writer: OpaquePointer
  private let width: Int
  private let background: RGBAColor
  private var flattened: [UInt8]

  /// Writes the JPEG headers for a `width`×`height` image with libjpeg's `quality`
  /// (in ``HexMask/Output/qualityRange``). Transparent parts show `background` (its alpha is
  /// ignored). `iccProfile`, when given, is written byte for byte, unless it does not
  /// describe RGB pixels or exceeds 255 × 65519 bytes: then `warnings` says so. `mark`
  /// writes hexmask's mark.
  package init(
    file: CFile, width: Int, height: Int, quality: Int = 90, background: RGBAColor = .white,
    iccProfile: [UInt8]? = nil, mark: Bool = true
  ) throws(ImageError) {
    guard let writer = hm_jpeg_writer_create() else {
      throw ImageError(.writeFailed, "out of memory")
    }
    self.writer = writer
    self.width = width
    self.background = background
    flattened = []
    // From here on deinit frees the writer, whatever throws.
    // JPEG_MAX_DIMENSION: libjpeg's own limit on either side.
    let sides = 1...65500
    guard sides.contains(width), sides.contains(height) else {
      throw ImageError(
        .writeFailed, "cannot write a \(width)×\(height) JPEG (at most 65500 a side)")
    }
    let qualities = HexMask.Output.qualityRange
    guard qualities.contains(quality) else {
      throw ImageError(
        .writeFailed,
        "JPEG quality must be \(qualities.lowerBound)…\(qualities.upperBound), not \(quality)")
    }
    var profile = iccProfile
    if let given = profile {
      if let refusal = rgbProfileRefusal(given) {
        notes.append(Warning(.profileNotWritten, refusal))
        profile = nil
      } else if given.count > Self.maximumProfileSize {
        notes.append(
          Warning(
            .profileNotWritten,
            "ICC profile not written: \(given.count) bytes is more than JPEG can hold"))
        profile = nil
      }
    }
    flattened = [UInt8](repeating: 0, count: width * 3)
    let bytes = profile ?? []
    let comment = mark ? HexMaskMark.text : []
    try bytes.withUnsafeBufferPointer { (bytes) throws(ImageError) in
      try comment.withUnsafeBufferPointer { (comment) throws(ImageError) in
        try callShim(format: "JPEG", writing: true) {
          hm_jpeg_writer_open(
            writer, file, UInt32(width), UInt32(height), Int32(quality),
            profile == nil ? nil : bytes.baseAddress, bytes.count,
            mark ? comment.baseAddress : nil, comment.count, $0, $1)
        }
      }
    }
  }

  deinit { hm_jpeg_writer_destroy(writer) }

  /// 255 APP2 segments (their numbers are one byte) of 65519 profile bytes each.
  static let maximumProfileSize = 255 * 65519

  /// Flattens and compresses the next row: exactly `width * 4` bytes of straight RGBA.
  package func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {
    guard row.count == width * 4 else {
      throw ImageError(
        .writeFailed, "a row of \(width) RGBA8 pixels holds \(width * 4) bytes, not \(row.count)")
    }
    let background = background
    let writer = writer
    var failure: ImageError?
    flattened.withUnsafeMutableBufferPointer { rgb in
      flatten(row, onto: background, into: rgb)
      do throws(ImageError) {
        try callShim(format: "JPEG", writing: true) {
          hm_jpeg_writer_write_row(writer, rgb.baseAddress, $0, $1)
        }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// Writes the end of the image and flushes the file; call once after the last row.
  /// An error here means the file is incomplete.
  package func finish() throws(ImageError) {
    try callShim(format: "JPEG", writing: true) { hm_jpeg_writer_finish(writer, $0, $1) }
  }
}
