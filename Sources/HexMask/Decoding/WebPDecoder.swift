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
func openWebP(bytes: [UInt8], maxPixels: Int) throws(ImageError) -> any ImageDecoder {
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
  let metadata = ImageMetadata(iccProfile: webPChunk("ICCP", in: bytes))
  if features.has_animation != 0 {
    let rgba = try firstFrame(of: bytes, width: width, height: height)
    // The canvas around a first frame smaller than it is transparent: look, not guess.
    var opaque = true
    for index in stride(from: 3, to: rgba.count, by: 4) where rgba[index] != 255 {
      opaque = false
      break
    }
    return WholePicture(
      width: width, height: height, rgba: rgba, metadata: metadata,
      warnings: ["an animated WebP: only its first frame is used"], isOpaque: opaque)
  }
  let rgba = try decodeStill(bytes, width: width, height: height)
  return WholePicture(
    width: width, height: height, rgba: rgba, metadata: metadata, warnings: [],
    isOpaque: features.has_alpha == 0)
}

/// A still picture (lossy or lossless, with or without alpha) as straight RGBA8.
private func decodeStill(_ bytes: [UInt8], width: Int, height: Int) throws(ImageError)
  -> [UInt8]
{
  var config = WebPDecoderConfig()
  guard WebPInitDecoderConfig(&config) != 0 else {
    throw ImageError(.unsupported, "the WebP library is not the version hexmask was built with")
  }
  var rgba = [UInt8](repeating: 0, count: width * height * 4)
  let status = rgba.withUnsafeMutableBufferPointer { buffer in
    config.output.colorspace = MODE_RGBA
    config.output.is_external_memory = 1
    config.output.u.RGBA.rgba = buffer.baseAddress
    config.output.u.RGBA.stride = Int32(width * 4)
    config.output.u.RGBA.size = buffer.count
    let status = WebPDecode(bytes, bytes.count, &config)
    WebPFreeDecBuffer(&config.output)  // frees nothing for external memory; a good habit
    return status
  }
  guard status == VP8_STATUS_OK else { throw webPError(status) }
  guard Int(config.output.width) == width, Int(config.output.height) == height else {
    throw ImageError(.corrupt, "corrupt WebP: the picture is not the size its header says")
  }
  return rgba
}

/// The first frame of an animation, composed on the `width × height` canvas, straight RGBA8.
private func firstFrame(of bytes: [UInt8], width: Int, height: Int) throws(ImageError) -> [UInt8] {
  let frame: [UInt8]? = bytes.withUnsafeBufferPointer { buffer in
    var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
    var options = WebPAnimDecoderOptions()
    guard WebPAnimDecoderOptionsInit(&options) != 0 else { return nil }
    options.color_mode = MODE_RGBA
    options.use_threads = 0
    guard let decoder = WebPAnimDecoderNew(&data, &options) else { return nil }
    defer { WebPAnimDecoderDelete(decoder) }
    var info = WebPAnimInfo()
    guard WebPAnimDecoderGetInfo(decoder, &info) != 0,
      Int(info.canvas_width) == width, Int(info.canvas_height) == height
    else { return nil }
    var pixels: UnsafeMutablePointer<UInt8>?
    var timestamp: Int32 = 0
    guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
      return nil
    }
    return Array(UnsafeBufferPointer(start: pixels, count: width * height * 4))
  }
  guard let frame else {
    throw ImageError(.corrupt, "corrupt WebP: the first frame of the animation cannot be decoded")
  }
  return frame
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
