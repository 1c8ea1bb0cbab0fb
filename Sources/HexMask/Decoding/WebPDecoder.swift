import CWebP

/// Decodes a WebP file held whole in `bytes` (the first frame of an animation).
///
/// The size comes from the header (`VP8X`, `VP8 ` or `VP8L`) and is checked against
/// `maxPixels` before any pixel memory. Lossy, lossless and alpha pictures decode to
/// straight RGBA; an animation gives its first frame on the full canvas, with a warning.
/// The `ICCP` chunk becomes `metadata.iccProfile`.
///
/// EXIF: `metadata.exif` stays nil for WebP, so an `EXIF` chunk never rotates the picture.
/// Browsers (Chromium, Firefox, Safari) show WebP pixels as stored and ignore an EXIF
/// orientation in it, and cwebp writes upright pixels; libvips does rotate by it, but
/// hexmask follows what people see when they open the file. hexmask never copies EXIF
/// into its output, so nothing else is lost.
///
/// Memory follows the outputs, not the header: with `need`, libwebp crops to the window
/// the outputs use and scales it while decoding (`DecodeWindow`), into pixel memory that
/// is allocated but not touched until libwebp writes it, so a truncated file claiming
/// 16383 × 16383 fails in a few kilobytes. What a picture still needs whole (a lossless
/// picture, which libwebp decodes whole for its back-references; an animation's canvas;
/// the delivered window) is taken from `memory` first. Incremental decoding (`WebPIDecode`)
/// would save nothing: the file is in memory already, and it delivers the same pixels.
func openWebP(bytes: [UInt8], maxPixels: Int, need: PictureNeed? = nil, memory: MemoryBudget? = nil)
  throws(ImageError) -> any ImageDecoder
{
  var features = WebPBitstreamFeatures()
  let status = WebPGetFeatures(bytes, bytes.count, &features)
  guard status == VP8_STATUS_OK else { throw webPError(status) }
  let (width, height) = (Int(features.width), Int(features.height))
  guard width > 0, height > 0 else {
    throw ImageError(.corrupt, "corrupt WebP: the picture is \(width)×\(height)")
  }
  let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
  guard !overflow, pixels <= maxPixels else {
    throw ImageError.tooManyPixels(width: width, height: height, maxPixels: maxPixels)
  }
  var metadata = ImageMetadata(iccProfile: webPChunk("ICCP", in: bytes))
  metadata.isGray = false  // WebP has no gray pixels
  (metadata.storedWidth, metadata.storedHeight) = (width, height)
  // An animation is opened by `WebPFrames` (`openDecoder` tells it from the first bytes).
  if features.has_animation != 0 {
    throw ImageError(.corrupt, "corrupt WebP: an animation whose header says otherwise")
  }
  // The look averages a lossless picture's exact pixels, as it does a PNG's: libwebp's
  // scaled decode would give it other pixels, and the same picture would get another
  // square in another container. A lossless picture is decoded whole anyway.
  var need = need
  if features.format == 2 { need?.scalesWhole = false }
  let window = DecodeWindow(width: width, height: height, need: need)
  let delivered = window.outputWidth * window.outputHeight * 4
  // A lossless picture is decoded whole inside libwebp (4 bytes a pixel), a lossy one row
  // by row (its cache of 36 rows with the loop filter's margin, and a macroblock row's
  // state: 40 bytes a column), its alpha plane (1 byte a pixel) whole; the file is held
  // whole too.
  let decoding =
    features.format == 2 ? pixels * 4 : width * 40 + (features.has_alpha != 0 ? pixels : 0)
  let working = decoding + bytes.count
  let reservation = try memory.reserve(
    working + delivered, for: PictureSize(width: width, height: height))
  let rgba = try decodeStill(bytes, storedWidth: width, storedHeight: height, window: window)
  reservation?.shrink(to: delivered)
  return WholePicture(
    width: window.outputWidth, height: window.outputHeight, pixels: rgba, metadata: metadata,
    warnings: [], isOpaque: features.has_alpha == 0, chosenSquare: window.square,
    reservation: reservation)
}

/// A still picture (lossy or lossless, with or without alpha), the part `window` names, as
/// straight RGBA8.
private func decodeStill(
  _ bytes: [UInt8], storedWidth: Int, storedHeight: Int, window: DecodeWindow
) throws(ImageError) -> PixelBuffer {
  var config = WebPDecoderConfig()
  guard WebPInitDecoderConfig(&config) != 0 else {
    throw ImageError(.unsupported, "the WebP library is not the version hexmask was built with")
  }
  // Every size here is at most a stored side (16383 in WebP), so Int32 holds it.
  if window.crops(width: storedWidth, height: storedHeight) {
    config.options.use_cropping = 1
    config.options.crop_left = Int32(clamping: window.left)
    config.options.crop_top = Int32(clamping: window.top)
    config.options.crop_width = Int32(clamping: window.width)
    config.options.crop_height = Int32(clamping: window.height)
  }
  if window.scales {
    config.options.use_scaling = 1
    config.options.scaled_width = Int32(clamping: window.outputWidth)
    config.options.scaled_height = Int32(clamping: window.outputHeight)
  }
  let (width, height) = (window.outputWidth, window.outputHeight)
  guard let rgba = PixelBuffer(zeroedCount: width * height * 4) else {
    throw ImageError(.tooLarge, "not enough memory for a \(width) × \(height) picture")
  }
  config.output.colorspace = MODE_RGBA
  config.output.is_external_memory = 1
  config.output.u.RGBA.rgba = rgba.bytes.baseAddress
  config.output.u.RGBA.stride = Int32(clamping: width * 4)
  config.output.u.RGBA.size = rgba.bytes.count
  let status = WebPDecode(bytes, bytes.count, &config)
  WebPFreeDecBuffer(&config.output)  // frees nothing for external memory; a good habit
  guard status == VP8_STATUS_OK else { throw webPError(status) }
  guard Int(config.output.width) == width, Int(config.output.height) == height else {
    throw ImageError(.corrupt, "corrupt WebP: the picture is not the size its header says")
  }
  return rgba
}

/// The payload of the first chunk named `fourCC` ("ICCP", "EXIF", "XMP "), or nil when the
/// file has none or its container cannot be parsed whole.
private func webPChunk(_ fourCC: String, in bytes: [UInt8]) -> [UInt8]? {
  bytes.withUnsafeBufferPointer { buffer in
    var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
    guard let demuxer = WebPDemux(&data) else { return nil }
    defer { WebPDemuxDelete(demuxer) }
    var chunk = WebPChunkIterator()
    guard WebPDemuxGetChunk(demuxer, fourCC, 1, &chunk) != 0 else { return nil }
    defer { WebPDemuxReleaseChunkIterator(&chunk) }
    return copyBytes(chunk.chunk.bytes, chunk.chunk.size)
  }
}

/// The error for a libwebp status other than `VP8_STATUS_OK`, in one line.
private func webPError(_ status: VP8StatusCode) -> ImageError {
  switch status {
  case VP8_STATUS_NOT_ENOUGH_DATA:
    ImageError(.corrupt, "truncated WebP: unexpected end of file")
  case VP8_STATUS_UNSUPPORTED_FEATURE:
    ImageError(.unsupported, "unsupported WebP: a feature libwebp does not decode")
  case VP8_STATUS_OUT_OF_MEMORY:
    ImageError(.tooLarge, "not enough memory to decode the WebP picture")
  case VP8_STATUS_BITSTREAM_ERROR:
    ImageError(.corrupt, "corrupt WebP: bitstream error")
  case VP8_STATUS_INVALID_PARAM:
    ImageError(.corrupt, "corrupt WebP: invalid parameter")
  default:
    ImageError(.corrupt, "corrupt WebP: status \(status.rawValue)")
  }
}
