import CHeif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes an AVIF with alpha, lossy or lossless, through libheif and its AV1 encoder
/// (libaom on Debian).
///
/// libheif encodes a whole picture at once, so this writer keeps every row it is given
/// (`width × height × 4` bytes) and encodes in `finish()`, as ``WebPWriter`` does. Alpha
/// is written as the AVIF auxiliary alpha image, losslessly (as hexmask's WebP does): the
/// shape's anti-aliased edge and its border keep their exact coverage, and a shape's
/// alpha is cheap to code. A picture whose every alpha is 255 (one flattened on a
/// background) is written without an alpha image. The ICC profile, when given, goes into
/// the `colr prof` box. Nothing that varies between runs is written, and the encoder runs
/// with a fixed number of threads, so the same pixels, settings and encoder
/// (``encoderVersion``) always give the same bytes.
///
/// Lossy pictures are 8-bit YCbCr 4:2:0 (BT.601 full range, libheif's default): the
/// smallest files at the same SSIM, and what browsers decode fastest. Lossless pictures are
/// 4:4:4 in RGB (identity matrix), so every byte comes back.
///
/// ```swift
/// let writer = try AVIFWriter(file: fp, width: 256, height: 256, quality: 90)
/// for row in rows { try row.withUnsafeBufferPointer { try writer.writeRow($0) } }
/// try writer.finish()   // encodes and writes the file
/// ```
package final class AVIFWriter: ImageWriter {
  /// Problems that did not stop the image: an ICC profile left out because it describes
  /// CMYK or gray pixels.
  package private(set) var warnings: [Warning] = []

  /// AV1's largest side (a frame's width and height are coded in 16 bits).
  package static let maximumSide = 65_536

  /// libaom's speed for hexmask's AVIFs, 0 (slowest, smallest) … 9. Avatars are small
  /// (a 256² one encodes in some tens of milliseconds at this speed), so a slow, thorough
  /// speed costs little time and saves bytes; below it the bytes hardly shrink while the
  /// time doubles at each step (docs/avif-progress.md).
  package static let speed = 4

  /// Encoder threads: fixed, so that the bytes never depend on the machine.
  static let threads = 4

  private let file: CFile
  private let width: Int
  private let height: Int
  private let lossless: Bool
  private let quality: Int
  private let iccProfile: [UInt8]?
  private var pixels: [UInt8] = []
  private var finished = false

  /// Prepares a `width`×`height` AVIF. Lossy by default with `quality` in
  /// ``HexMask/Output/qualityRange``; `lossless` keeps every byte of every row (then
  /// `quality` is ignored). Nothing is written before `finish()`.
  package init(
    file: CFile, width: Int, height: Int, lossless: Bool = false,
    quality: Int = HexMask.Output.defaultQuality, iccProfile: [UInt8]? = nil
  ) throws(ImageError) {
    let sides = 1...Self.maximumSide
    guard sides.contains(width), sides.contains(height) else {
      throw ImageError(
        .writeFailed,
        "cannot write a \(width)×\(height) AVIF (at most \(Self.maximumSide) a side)")
    }
    let qualities = HexMask.Output.qualityRange
    guard qualities.contains(quality) else {
      throw ImageError(
        .writeFailed,
        "AVIF quality must be \(qualities.lowerBound)…\(qualities.upperBound), not \(quality)")
    }
    self.file = file
    self.width = width
    self.height = height
    self.lossless = lossless
    self.quality = quality
    if let profile = iccProfile, let refusal = iccProfileRefusal(profile) {
      warnings.append(Warning(.profileNotWritten, refusal))
      self.iccProfile = nil
    } else {
      self.iccProfile = iccProfile
    }
    pixels.reserveCapacity(width * height * 4)
  }

  /// libaom's quality (libheif's 0…100 scale, which it turns into AV1 quantizers) for
  /// hexmask's `quality`. hexmask's scale is libjpeg's, shared with WebP; AV1 reaches the
  /// same SSIM at a lower libheif quality, so the scale is moved down to match WebP at the
  /// same `--quality` on avatars (docs/avif-progress.md):
  ///
  /// | `--quality` | libheif quality |
  /// |---:|---:|
  /// | 1 | 0 |
  /// | 50 | 30 |
  /// | 80 | 54 |
  /// | 90 | 62 |
  /// | 100 | 70 |
  ///
  /// In between it is linear in pieces (1→0, 50→30, 100→70), rounded to nearest.
  static func encoderQuality(_ quality: Int) -> Int {
    let q = min(max(quality, 1), 100)
    if q <= 50 { return ((q - 1) * 30 * 2 + 49) / (49 * 2) }
    return 30 + ((q - 50) * 40 * 2 + 50) / (50 * 2)
  }

  /// libheif's and the AV1 encoder's versions, which the bytes depend on:
  /// `libheif 1.15.1, AOMedia Project AV1 Encoder v3.6.0`; nil when libheif has no AV1
  /// encoder. Asked once.
  package static let encoderVersion: String? = {
    guard let context = heif_context_alloc() else { return nil }
    defer { heif_context_free(context) }
    var encoder: OpaquePointer?
    guard
      heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder).code
        == heif_error_Ok, let encoder
    else { return nil }
    defer { heif_encoder_release(encoder) }
    let library = heif_get_version().map { String(cString: $0) } ?? "?"
    let name = heif_encoder_get_name(encoder).map { String(cString: $0) } ?? "?"
    return "libheif \(library), \(name)"
  }()

  /// Keeps the next row: exactly `width * 4` bytes of straight RGBA.
  package func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {
    guard row.count == width * 4 else {
      throw ImageError(
        .writeFailed, "a row of \(width) RGBA8 pixels holds \(width * 4) bytes, not \(row.count)")
    }
    guard !finished && pixels.count < width * height * 4 else {
      throw ImageError(.writeFailed, "more rows written than the image has")
    }
    pixels.append(contentsOf: row)
  }

  /// Encodes the image and writes it to the file, then flushes it; call once after the
  /// last row. An error here means the file is incomplete.
  package func finish() throws(ImageError) {
    let rows = pixels.count / (width * 4)
    guard !finished && rows == height else {
      throw ImageError(.writeFailed, "only \(rows) of \(height) rows were written")
    }
    finished = true
    defer { pixels = [] }
    let encoded = try encode()
    try write(encoded)
  }

  /// Runs libheif's AV1 encoder on the kept rows and returns the file's bytes.
  private func encode() throws(ImageError) -> [UInt8] {
    guard let context = heif_context_alloc() else {
      throw ImageError(.writeFailed, "cannot write AVIF: out of memory")
    }
    defer { heif_context_free(context) }
    var found: OpaquePointer?
    try check(heif_context_get_encoder_for_format(context, heif_compression_AV1, &found))
    guard let encoder = found else {
      throw ImageError(.writeFailed, "cannot write AVIF: libheif has no AV1 encoder")
    }
    defer { heif_encoder_release(encoder) }
    try configure(encoder)

    let image = try makeImage()
    defer { heif_image_release(image) }

    guard let options = heif_encoding_options_alloc() else {
      throw ImageError(.writeFailed, "cannot write AVIF: out of memory")
    }
    defer { heif_encoding_options_free(options) }
    options.pointee.save_alpha_channel = 1
    // Lossless: RGB stored as it is (the identity matrix), not converted to YCbCr.
    var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
    if lossless {
      nclx = heif_nclx_color_profile_alloc()
      guard let nclx else { throw ImageError(.writeFailed, "cannot write AVIF: out of memory") }
      nclx.pointee.matrix_coefficients = heif_matrix_coefficients_RGB_GBR
      nclx.pointee.full_range_flag = 1
      options.pointee.output_nclx_profile = nclx
    }
    defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
    try check(heif_context_encode_image(context, image, encoder, options, nil))

    var bytes: [UInt8] = []
    var writer = heif_writer(writer_api_version: 1, write: appendToArray)
    try withUnsafeMutablePointer(to: &bytes) { (target) throws(ImageError) in
      try check(heif_context_write(context, &writer, target))
    }
    return bytes
  }

  /// Sets the encoder's parameters; see ``encoderQuality(_:)`` and ``speed``.
  private func configure(_ encoder: OpaquePointer) throws(ImageError) {
    if lossless {
      try check(heif_encoder_set_lossless(encoder, 1))
      try check(heif_encoder_set_parameter_string(encoder, "chroma", "444"))
    } else {
      try check(heif_encoder_set_lossy_quality(encoder, Int32(Self.encoderQuality(quality))))
      try check(heif_encoder_set_parameter_string(encoder, "chroma", "420"))
    }
    try check(heif_encoder_set_parameter_boolean(encoder, "lossless-alpha", 1))
    try check(heif_encoder_set_parameter_integer(encoder, "speed", Int32(Self.speed)))
    try check(heif_encoder_set_parameter_integer(encoder, "threads", Int32(Self.threads)))
  }

  /// The kept rows as a libheif picture: interleaved RGBA, or RGB when all is opaque.
  private func makeImage() throws(ImageError) -> OpaquePointer {
    let opaque = stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
    let channels = opaque ? 3 : 4
    var created: OpaquePointer?
    try check(
      heif_image_create(
        Int32(width), Int32(height), heif_colorspace_RGB,
        opaque ? heif_chroma_interleaved_RGB : heif_chroma_interleaved_RGBA, &created))
    guard let image = created else {
      throw ImageError(.writeFailed, "cannot write AVIF: out of memory")
    }
    do throws(ImageError) {
      try check(
        heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8))
      var rowStride: Int32 = 0
      guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &rowStride),
        Int(rowStride) >= width * channels
      else { throw ImageError(.writeFailed, "cannot write AVIF: out of memory") }
      pixels.withUnsafeBufferPointer { source in
        for y in 0..<height {
          let row = plane + y * Int(rowStride)
          for x in 0..<width {
            for c in 0..<channels { row[x * channels + c] = source[(y * width + x) * 4 + c] }
          }
        }
      }
      if let iccProfile {
        try check(
          iccProfile.withUnsafeBytes {
            heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count)
          })
      }
      return image
    } catch {
      heif_image_release(image)
      throw error
    }
  }

  private func write(_ bytes: [UInt8]) throws(ImageError) {
    guard !bytes.isEmpty else { throw ImageError(.writeFailed, "cannot write AVIF: empty") }
    // stdio buffers: a full disk often shows only at the flush.
    let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    if written != bytes.count || fflush(file) != 0 || ferror(file) != 0 {
      let reason = userMessage(String(cString: strerror(errno)))
      throw ImageError(.writeFailed, "cannot write AVIF: \(reason)")
    }
  }
}

/// libheif's writer callback: appends the bytes to the `[UInt8]` that `userdata` points at.
private func appendToArray(
  _ context: OpaquePointer?, _ data: UnsafeRawPointer?, _ size: Int,
  _ userdata: UnsafeMutableRawPointer?
) -> heif_error {
  let success = UnsafeRawPointer(StaticString("Success").utf8Start)
    .assumingMemoryBound(to: CChar.self)
  if let data, let userdata, size > 0 {
    let target = userdata.assumingMemoryBound(to: [UInt8].self)
    target.pointee.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
  }
  return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: success)
}

/// Throws the `ImageError` for a failed libheif call while writing, with libheif's message.
private func check(_ error: heif_error) throws(ImageError) {
  guard error.code != heif_error_Ok else { return }
  let message = error.message.map { String(cString: $0) } ?? ""
  let text = userMessage(message.split(whereSeparator: \.isNewline).joined(separator: " "))
  throw ImageError(
    .writeFailed,
    "cannot write AVIF: \(text.isEmpty ? "libheif error \(error.code.rawValue)" : text)")
}
