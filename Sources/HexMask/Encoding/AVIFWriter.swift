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
/// (`width × height × 4` bytes, ``KeptRows``) and encodes in `finish()`, as ``WebPWriter`` does. Alpha
/// is written as the AVIF auxiliary alpha image: losslessly with `lossless`, else at
/// ``alphaQuality``, within a few levels of the shape's coverage. A picture whose every
/// alpha is 255 (one flattened on a background) is written without an alpha image. The
/// ICC profile, when given, goes into the `colr prof` box; hexmask's mark
/// (``HexMaskMark``), unless told not to, is a top-level `free` box after the others, so
/// no offset libheif wrote moves. Nothing that varies between
/// runs is written, and the encoder runs with a fixed number of threads, so the same
/// pixels, settings and encoder (``encoderVersion``) always give the same bytes.
///
/// Lossy pictures are 8-bit YCbCr 4:2:0 (libheif's default colour description). At the
/// same RGB SSIM 4:4:4 is smaller, but at the same luma SSIM, which is closer to what the
/// eye sees, 4:2:0 is (docs/web.md, AVIF); and 4:2:0 is AV1's Main profile, which
/// every AVIF decoder reads. Lossless pictures are 4:4:4 in RGB (identity matrix), so
/// every byte comes back.
///
/// ```swift
/// let writer = try AVIFWriter(file: fp, width: 256, height: 256, quality: 90)
/// for row in rows { try row.withUnsafeBufferPointer { try writer.writeRow($0) } }
/// try writer.finish()   // encodes and writes the file
/// ```
package final class AVIFWriter: ImageWriter {
  /// Problems that did not stop the image: an ICC profile left out because it describes
  /// CMYK or gray kept.pixels.
  package private(set) var warnings: [Warning] = []

  /// AV1's largest side (a frame's width and height are coded in 16 bits).
  package static let maximumSide = 65_536

  /// libaom's speed, 0 (slowest, smallest) … 9, for an `effort` in
  /// ``HexMask/Output/effortRange``: 9 − effort, as libvips and sharp map theirs. The
  /// default for avatars, effort 4, is speed 5 (libheif's own default is 6): avatars are
  /// small, so a thorough speed costs little time, and at the same SSIM speed 4 saves
  /// nothing more for half as much time again; larger pictures get speed 6
  /// (``HexMask/Output/defaultEffort(side:)``; docs/web.md, "How the AVIF defaults were
  /// chosen").
  static func encoderSpeed(_ effort: Int) -> Int { 9 - min(max(effort, 0), 9) }

  /// libheif's quality for the alpha image of lossy AVIFs. A hexagon's alpha is 0 or 255
  /// but for its anti-aliased edge; at 95 it comes back within 4 levels (within 3 of 255
  /// and 2 of 0, on pixels next to the edge only), and a 256² avatar is 11 % smaller than
  /// with lossless alpha (docs/web.md, AVIF). A lossless AVIF keeps alpha exactly.
  package static let alphaQuality = 95

  /// Encoder threads: fixed, so that the bytes never depend on the machine.
  static let threads = 4

  /// The memory encoding takes, all told: the kept rows (4 a pixel), libheif's picture (4)
  /// and libaom's frames and threads. Measured peaks over an idle render, at the default
  /// effort for each side: lossy 19 MiB at 500² (80 a pixel), 57 MiB at 1000², 137 MiB at
  /// 2000², 269 MiB at 3000² (31 a pixel); lossless (4:4:4) 28 MiB at 500², 85 MiB at
  /// 1000², 223 MiB at 2000², 482 MiB at 3000² of noise (56 a pixel), 740 MiB at 4000².
  static func cost(lossless: Bool) -> EncodingCost {
    lossless
      ? EncodingCost(fixed: 45 << 20, perPixel: 54) : EncodingCost(fixed: 30 << 20, perPixel: 34)
  }

  private let file: CFile
  private let width: Int
  private let height: Int
  private let lossless: Bool
  private let quality: Int
  private let effort: Int
  private let iccProfile: [UInt8]?
  /// Say sRGB in the `nclx` box (BT.709 primaries, the sRGB transfer), with no profile.
  private let srgb: Bool
  private let mark: Bool
  private var kept: KeptRows

  /// Prepares a `width`×`height` AVIF. Lossy by default with `quality` in
  /// ``HexMask/Output/qualityRange``; `lossless` keeps every byte of every row (then
  /// `quality` is ignored). `effort` (``HexMask/Output/effortRange``, nil for the default
  /// at this width) trades time for bytes, lossy or lossless. Nothing is written before
  /// `finish()`; `mark` writes hexmask's mark; `srgb` says sRGB in the `nclx` box.
  package init(
    file: CFile, width: Int, height: Int, lossless: Bool = false,
    quality: Int = HexMask.Output.defaultQuality, effort: Int? = nil,
    iccProfile: [UInt8]? = nil, srgb: Bool = false, memory: MemoryBudget? = nil,
    mark: Bool = true
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
    let effort = effort ?? HexMask.Output.defaultEffort(side: width)
    let efforts = HexMask.Output.effortRange
    guard efforts.contains(effort) else {
      throw ImageError(
        .writeFailed,
        "AVIF effort must be \(efforts.lowerBound)…\(efforts.upperBound), not \(effort)")
    }
    self.file = file
    self.effort = effort
    self.width = width
    self.height = height
    kept = try KeptRows(
      width: width, height: height, format: "AVIF",
      cost: Self.cost(lossless: lossless),
      memory: memory)
    self.lossless = lossless
    self.quality = quality
    self.mark = mark
    self.srgb = srgb && iccProfile == nil
    if let profile = iccProfile, let refusal = rgbProfileRefusal(profile) {
      warnings.append(Warning(.profileNotWritten, refusal))
      self.iccProfile = nil
    } else {
      self.iccProfile = iccProfile
    }
  }

  /// libaom's quality (libheif's 0…100 scale, which it turns into AV1 quantizers) for
  /// hexmask's `quality` (libjpeg's scale, shared with WebP): each measured point is where
  /// the AVIF's SSIM equals that of hexmask's WebP at the same `quality`, on 256² avatars of
  /// five photos flattened on grey, at 0.83–0.90× WebP's bytes (bench/avif_bench.py;
  /// docs/web.md, "How the AVIF defaults were chosen"). Between the points the scale is
  /// linear; 100 is libheif's 100 (AV1's finest quantizer, still 4:2:0 and not lossless:
  /// `lossless` is), and below 50, which was not measured, it runs straight down to 1:
  ///
  /// | `quality` | libheif quality | SSIM (WebP → AVIF) |
  /// |---:|---:|---:|
  /// | 1 | 1 | |
  /// | 50 | 43 | 0.939 → 0.940 |
  /// | 60 | 46 | 0.945 → 0.943–0.948 |
  /// | 70 | 49 | 0.951 → 0.951 |
  /// | 80 | 57 | 0.961 → 0.960 |
  /// | 90 | 78 | 0.975 → 0.974 |
  /// | 95 | 90 | 0.981 → 0.977–0.981 |
  /// | 100 | 100 | |
  static func encoderQuality(_ quality: Int) -> Int {
    let q = min(max(quality, 1), 100)
    for (low, high) in zip(qualityPoints, qualityPoints.dropFirst()) where q <= high.quality {
      let span = high.quality - low.quality
      return low.libheif + ((q - low.quality) * (high.libheif - low.libheif) + span / 2) / span
    }
    return 100
  }

  /// The points of ``encoderQuality(_:)``'s table, in increasing order.
  static let qualityPoints: [(quality: Int, libheif: Int)] = [
    (1, 1), (50, 43), (60, 46), (70, 49), (80, 57), (90, 78), (95, 90), (100, 100),
  ]

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
    try kept.append(row)
  }

  /// Encodes the image and writes it to the file, then flushes it; call once after the
  /// last row. An error here means the file is incomplete.
  package func finish() throws(ImageError) {
    try kept.close()
    defer { kept.release() }
    var encoded = try encode()
    if mark { try appendMark(to: &encoded) }
    try write(encoded)
  }

  /// Appends the mark's `free` box after libheif's last box. Appending moves no offset,
  /// but only when the boxes end where the file does: a last box "to the end of the file"
  /// (size 0) would swallow the mark, so that is checked, not assumed.
  private func appendMark(to file: inout [UInt8]) throws(ImageError) {
    var offset = 0
    while offset + 8 <= file.count {
      var size = file[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      if size == 1 && offset + 16 <= file.count {  // a 64-bit size follows the type
        size = file[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
      }
      guard size >= 8, size <= file.count - offset else { break }
      offset += size
    }
    guard offset == file.count else {
      throw ImageError(.writeFailed, "cannot write AVIF: libheif's boxes do not end the file")
    }
    let text = HexMaskMark.text
    file += bigEndianBytes(UInt32(8 + text.count)) + Array(HexMaskMark.avifBox.utf8) + text
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
    // Lossless: RGB stored as it is (the identity matrix), not converted to YCbCr. The
    // picture and the file both say so (an `nclx` box next to the ICC profile's), so that
    // decoders do not take the planes for YCbCr.
    // Lossy and sRGB: the same box with libheif's own matrix (BT.601), which it converts
    // with, and the primaries and transfer it otherwise leaves unspecified.
    var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
    defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
    if lossless || srgb {
      nclx = heif_nclx_color_profile_alloc()
      guard let nclx else { throw ImageError(.writeFailed, "cannot write AVIF: out of memory") }
      nclx.pointee.matrix_coefficients =
        lossless ? heif_matrix_coefficients_RGB_GBR : heif_matrix_coefficients_ITU_R_BT_601_6
      // With an ICC profile the box says nothing about primaries and transfer: the profile
      // does, and a reader that prefers the box must not take its numbers for sRGB.
      let described = iccProfile != nil
      nclx.pointee.color_primaries =
        described ? heif_color_primaries_unspecified : heif_color_primaries_ITU_R_BT_709_5
      nclx.pointee.transfer_characteristics =
        described
        ? heif_transfer_characteristic_unspecified : heif_transfer_characteristic_IEC_61966_2_1
      nclx.pointee.full_range_flag = 1
      try check(heif_image_set_nclx_color_profile(image, nclx))
      options.pointee.output_nclx_profile = nclx
      options.pointee.save_two_colr_boxes_when_ICC_and_nclx_available = 1
    }
    try check(heif_context_encode_image(context, image, encoder, options, nil))

    var bytes: [UInt8] = []
    var writer = heif_writer(writer_api_version: 1, write: appendToArray)
    try withUnsafeMutablePointer(to: &bytes) { (target) throws(ImageError) in
      try check(heif_context_write(context, &writer, target))
    }
    return bytes
  }

  /// Sets the encoder's parameters; see ``encoderQuality(_:)`` and ``encoderSpeed(_:)``.
  private func configure(_ encoder: OpaquePointer) throws(ImageError) {
    if lossless {
      try check(heif_encoder_set_lossless(encoder, 1))
      try check(heif_encoder_set_parameter_string(encoder, "chroma", "444"))
    } else {
      try check(heif_encoder_set_lossy_quality(encoder, Int32(Self.encoderQuality(quality))))
      try check(heif_encoder_set_parameter_string(encoder, "chroma", "420"))
    }
    try check(heif_encoder_set_parameter_boolean(encoder, "lossless-alpha", lossless ? 1 : 0))
    if !lossless {
      try check(
        heif_encoder_set_parameter_integer(encoder, "alpha-quality", Int32(Self.alphaQuality)))
    }
    try check(
      heif_encoder_set_parameter_integer(encoder, "speed", Int32(Self.encoderSpeed(effort))))
    try check(heif_encoder_set_parameter_integer(encoder, "threads", Int32(Self.threads)))
  }

  /// The kept rows as a libheif picture: interleaved RGBA, or RGB when all is opaque.
  /// Lossy pictures get the colour of the nearest visible pixel under their fully
  /// transparent ones (``fillTransparent(_:width:height:)``).
  private func makeImage() throws(ImageError) -> OpaquePointer {
    let opaque = stride(from: 3, to: kept.pixels.count, by: 4).allSatisfy { kept.pixels[$0] == 255 }
    if !lossless && !opaque { fillTransparent(&kept.pixels, width: width, height: height) }
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
      kept.pixels.withUnsafeBufferPointer { source in
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
