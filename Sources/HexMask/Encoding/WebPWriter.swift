import CWebP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a WebP with alpha, lossless or lossy, through libwebp.
///
/// libwebp encodes a whole picture at once, so this writer keeps every row it is given
/// (`width × height × 4` bytes, ``KeptRows``) and encodes in `finish()`, as ``AVIFWriter``
/// does. Lossy files keep alpha losslessly (libwebp's
/// `alpha_quality` 100). The ICC profile, when given, goes into an ICCP chunk, and
/// hexmask's mark (``HexMaskMark``) unless told not to into a chunk of its own at the end,
/// both through libwebpmux (which makes the file the extended format). Nothing that varies between runs is written, so the same pixels and
/// settings always give the same bytes.
///
/// ```swift
/// let writer = try WebPWriter(file: fp, width: 256, height: 256, quality: 80)
/// for row in rows { try row.withUnsafeBufferPointer { try writer.writeRow($0) } }
/// try writer.finish()   // encodes and writes the file
/// ```
package final class WebPWriter: ImageWriter {
  /// Problems that did not stop the image: an ICC profile left out because it describes
  /// CMYK or gray kept.pixels.
  package private(set) var warnings: [Warning] = []

  /// WebP's largest side (`WEBP_MAX_DIMENSION`).
  package static let maximumSide = 16383

  /// The memory encoding takes, all told: the kept rows (4 a pixel), libwebp's ARGB or
  /// YUVA copy and its work. Measured peaks over an idle render: lossy 7 MiB at 500²
  /// (29 a pixel), 94 MiB at 2000², 205 MiB at 3000² (23 a pixel), but 34 a pixel at 3000²
  /// when the alpha is noise (a tryout), whose plane libwebp compresses apart; lossless 24 MiB at 500²
  /// of noise (101 a pixel), 132 MiB at 2000², 300 MiB at 3000² of noise (35 a pixel).
  static func cost(lossless: Bool) -> EncodingCost {
    lossless
      ? EncodingCost(fixed: 20 << 20, perPixel: 35) : EncodingCost(fixed: 8 << 20, perPixel: 38)
  }

  private let file: CFile
  private let width: Int
  private let height: Int
  private let lossless: Bool
  private let quality: Int
  private let iccProfile: [UInt8]?
  private let mark: Bool
  private var kept: KeptRows

  /// Prepares a `width`×`height` WebP, at most 16383 a side. Lossy by default with
  /// `quality` in ``HexMask/Output/qualityRange``; `lossless` keeps every byte of every row (then `quality` is
  /// ignored and libwebp's default effort is used). Nothing is written before `finish()`;
  /// `mark` writes hexmask's mark.
  package init(
    file: CFile, width: Int, height: Int, lossless: Bool = false, quality: Int = 90,
    iccProfile: [UInt8]? = nil, memory: MemoryBudget? = nil, mark: Bool = true
  ) throws(ImageError) {
    try Self.check(width: width, height: height, quality: quality)
    self.file = file
    self.width = width
    self.height = height
    kept = try KeptRows(
      width: width, height: height, format: "WebP",
      cost: Self.cost(lossless: lossless),
      memory: memory)
    self.lossless = lossless
    self.quality = quality
    self.mark = mark
    if let profile = iccProfile, let refusal = rgbProfileRefusal(profile) {
      warnings.append(Warning(.profileNotWritten, refusal))
      self.iccProfile = nil
    } else {
      self.iccProfile = iccProfile
    }
  }

  /// Keeps the next row: exactly `width * 4` bytes of straight RGBA.
  /// Refuses what no WebP can be: a side out of 1…16383, a quality out of range.
  static func check(width: Int, height: Int, quality: Int) throws(ImageError) {
    let sides = 1...maximumSide
    guard sides.contains(width), sides.contains(height) else {
      throw ImageError(
        .writeFailed, "cannot write a \(width)×\(height) WebP (at most \(maximumSide) a side)")
    }
    let qualities = HexMask.Output.qualityRange
    guard qualities.contains(quality) else {
      throw ImageError(
        .writeFailed,
        "WebP quality must be \(qualities.lowerBound)…\(qualities.upperBound), not \(quality)")
    }
  }

  package func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {
    try kept.append(row)
  }

  /// Encodes the image and writes it to the file, then flushes it; call once after the
  /// last row. An error here means the file is incomplete.
  package func finish() throws(ImageError) {
    try kept.close()
    defer { kept.release() }
    var encoded = try encode()
    defer { WebPMemoryWriterClear(&encoded) }
    if iccProfile != nil || mark {
      var assembled = try withChunks(encoded)
      defer { WebPDataClear(&assembled) }
      try write(assembled.bytes, assembled.size)
    } else {
      try write(encoded.mem, encoded.size)
    }
  }

  private func encode() throws(ImageError) -> WebPMemoryWriter {
    try kept.pixels.withUnsafeBufferPointer { (pixels) throws(ImageError) in
      try encodeWebP(pixels, width: width, height: height, lossless: lossless, quality: quality)
    }
  }

  private func withChunks(_ encoded: WebPMemoryWriter) throws(ImageError) -> WebPData {
    var image = WebPData(bytes: encoded.mem, size: encoded.size)
    guard let mux = WebPMuxCreate(&image, 0) else {
      throw ImageError(.writeFailed, "cannot write WebP: libwebpmux cannot read the image")
    }
    defer { WebPMuxDelete(mux) }
    /// Adds one chunk (copied by libwebpmux); false when it cannot.
    func add(_ type: String, _ data: [UInt8]) -> Bool {
      data.withUnsafeBufferPointer { bytes in
        var chunk = WebPData(bytes: bytes.baseAddress, size: bytes.count)
        return WebPMuxSetChunk(mux, type, &chunk, 1) == WEBP_MUX_OK
      }
    }
    // libwebpmux puts chunks it does not know (the mark) after the picture.
    guard iccProfile.map({ add("ICCP", $0) }) ?? true,
      !mark || add(HexMaskMark.webpChunk, HexMaskMark.text)
    else {
      throw ImageError(.writeFailed, "cannot write WebP: cannot add the ICC profile or mark")
    }
    var assembled = WebPData()
    WebPDataInit(&assembled)
    guard WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK else {
      WebPDataClear(&assembled)
      throw ImageError(.writeFailed, "cannot write WebP: cannot add the ICC profile or mark")
    }
    return assembled
  }

  private func write(_ bytes: UnsafePointer<UInt8>?, _ count: Int) throws(ImageError) {
    try writeWebP(bytes, count, to: file)
  }
}

/// Writes an encoded WebP file's `count` bytes to `file` and flushes it.
func writeWebP(_ bytes: UnsafePointer<UInt8>?, _ count: Int, to file: CFile) throws(ImageError) {
  guard let bytes, count > 0 else { throw ImageError(.writeFailed, "cannot write WebP: empty") }
  // stdio buffers: a full disk often shows only at the flush.
  if fwrite(bytes, 1, count, file) != count || fflush(file) != 0 || ferror(file) != 0 {
    let reason = userMessage(String(cString: strerror(errno)))
    throw ImageError(.writeFailed, "cannot write WebP: \(reason)")
  }
}

/// libwebp's encoding errors in words.
private func describe(_ error: WebPEncodingError) -> String {
  switch error {
  case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory"
  case VP8_ENC_ERROR_BAD_DIMENSION: "bad picture size"
  case VP8_ENC_ERROR_PARTITION0_OVERFLOW, VP8_ENC_ERROR_PARTITION_OVERFLOW:
    "the picture is too complex for a lossy WebP at this quality"
  case VP8_ENC_ERROR_FILE_TOO_BIG: "the file would exceed 4 GiB"
  default: "libwebp error \(error.rawValue)"
  }
}

/// `pixels` (straight RGBA, `width × 4` bytes a row) encoded as one WebP bitstream in
/// memory, lossy at `quality` (its alpha lossless) or lossless (every byte, the colour
/// under transparent pixels too); the caller clears the result.
func encodeWebP(
  _ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, lossless: Bool, quality: Int
) throws(ImageError) -> WebPMemoryWriter {
  var config = WebPConfig()
  // libwebp's simple lossless API uses quality 70 as its effort; so does this.
  guard WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, Float(lossless ? 70 : quality)) != 0
  else {
    throw ImageError(.writeFailed, "cannot write WebP: libwebp version mismatch")
  }
  config.lossless = lossless ? 1 : 0
  // Lossless means lossless: RGB under alpha 0 is kept too.
  config.exact = lossless ? 1 : 0
  var picture = WebPPicture()
  guard WebPPictureInit(&picture) != 0 else {
    throw ImageError(.writeFailed, "cannot write WebP: libwebp version mismatch")
  }
  defer { WebPPictureFree(&picture) }
  picture.use_argb = lossless ? 1 : 0
  picture.width = Int32(width)
  picture.height = Int32(height)
  guard WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(width * 4)) != 0 else {
    throw ImageError(.writeFailed, "cannot write WebP: out of memory")
  }
  var memory = WebPMemoryWriter()
  WebPMemoryWriterInit(&memory)
  picture.writer = WebPMemoryWrite
  let ok = withUnsafeMutablePointer(to: &memory) { memory in
    picture.custom_ptr = UnsafeMutableRawPointer(memory)
    defer { picture.custom_ptr = nil }
    return WebPEncode(&config, &picture)
  }
  guard ok != 0 else {
    WebPMemoryWriterClear(&memory)
    throw ImageError(.writeFailed, "cannot write WebP: \(describe(picture.error_code))")
  }
  return memory
}
