import CJXL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The frames of a JPEG XL file, bare codestream or container, composited by libjxl
/// (coalescing: every frame is the whole canvas, blended as the file says) and handed out
/// as straight RGBA8. A still is the one-frame case: it takes this same road, so a JPEG XL
/// picture is cropped, turned and priced alike whether it moves or not.
///
/// Read as a browser shows it:
/// - **Orientation**: the header's orientation is applied by libjxl (it is part of the
///   codestream, as HEIF's `irot` is, and every viewer applies it); an `Exif` box is
///   never read, so nothing turns the picture twice.
/// - **Samples**: 16-bit, float and gray pictures come as RGBA8 (gray in all three).
///   Premultiplied (associated) alpha is unpremultiplied.
/// - **Colour**: pixels stored in the picture's own space (lossless, and recompressed
///   JPEGs) come in that space, with its ICC profile (nil for sRGB); the render's colour
///   plan keeps or converts it as for any format. A lossy picture is stored in XYB, which
///   no profile describes: libjxl turns it into sRGB in floating point (left alone it would
///   hand out linear light, which 8 bits cannot hold without banding), and the file's own
///   profile is reported as converted (`convertedToSRGB`), as for a CMYK JPEG.
/// - **Time**: each frame lasts its duration in the animation's ticks, in milliseconds,
///   played as browsers play every format (``shownMilliseconds(stored:)``); the loop count
///   is the header's `num_loops` (0 forever), which is already the number of plays.
///
/// Limits before pixels: the whole file is read (libjxl decodes from memory), no larger
/// than a picture within the limits could be; a first pass over the file reads the header
/// and each frame's header without decoding pixels (libjxl skips a frame nobody asked the
/// pixels of), so the canvas is checked against `maxPixels`, the frame count against
/// `maxFrames` and `maxTotalPixels` (as many frames as the render reads), and libjxl's
/// working memory is taken from `memory`, before a pixel is decoded.
///
/// - Complexity: memory O(file + canvas): the file's bytes, libjxl's frame state
///   (``bytesPerCanvasPixel``) and the canvas handed out, whatever the number of frames.
package final class JXLFrames: FrameSource {
  package let canvasWidth: Int
  package let canvasHeight: Int
  package let loopCount: Int
  package var declaredFrameCount: Int? { frameCount }
  package let metadata: ImageMetadata
  package let warnings: [Warning] = []
  /// True when the header says the file is an animation (it may still hold one frame).
  package let isAnimation: Bool

  /// What a canvas pixel costs while libjxl decodes a frame: its float planes for colour
  /// and alpha (4 × 4 bytes), the frame kept for blending the next one (another 16), and
  /// the RGBA8 canvas handed out (4). Measured: a 3000×2000 still to a 256² PNG peaked at
  /// 64 MiB lossy and 134 MiB lossless (its file 21 MB), 9–17 bytes a pixel besides the
  /// file: the price is a ceiling, kept for animations that blend.
  static let bytesPerCanvasPixel = 36

  /// The frames the header walk counted: all of them, or (for a still of an early frame,
  /// which reads no further) one more than the render reads, enough to say it moves.
  private let frameCount: Int
  private let durations: [Int]
  /// The file's bytes, which the decoder reads from (it does not copy them).
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  private let decoder: OpaquePointer
  private let canvas: PixelBuffer
  private let reservation: MemoryReservation?
  private var index = 0
  private var failure: ImageError?

  /// Reads the JPEG XL from `file`, whose first bytes `prefix` the caller already took (to
  /// sniff the format), checks it against the limits and prepares the decoder.
  package init(
    file: CFile, prefix: [UInt8] = [], maxPixels: Int, maxFrames: Int, maxTotalPixels: Int,
    readsAtMost: Int = .max, memory: MemoryBudget?
  ) throws(ImageError) {
    // A compressed picture is smaller than its pixels: a file larger than every allowed
    // pixel at 4 bytes, plus room for metadata, holds no allowed picture.
    let allowed = readsAtMost < Int.max ? maxPixels : max(maxPixels, maxTotalPixels)
    let whole = try readWhole(file, after: prefix, maxPixels: allowed)
    let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, whole.count))
    _ = bytes.initialize(from: whole)
    var ready = false
    defer { if !ready { bytes.deallocate() } }
    let input = UnsafeBufferPointer(start: bytes.baseAddress, count: whole.count)

    let header = try JXLHeader(input, maxPixels: maxPixels, counting: min(maxFrames, readsAtMost))
    let (width, height) = (header.width, header.height)
    let counted = min(header.durations.count, readsAtMost)
    guard counted <= maxFrames else { throw .tooManyFrames(limit: maxFrames) }
    let (total, overflow) = (width * height).multipliedReportingOverflow(by: counted)
    guard !overflow, total <= maxTotalPixels else {
      throw .tooManyPixelsInAll(
        frames: counted, width: width, height: height, limit: maxTotalPixels)
    }
    let reservation = try reserveFrameReading(
      width: width, height: height, canvases: Self.bytesPerCanvasPixel / 4, working: whole.count,
      memory: memory)
    guard let decoder = JxlDecoderCreate(nil) else {
      throw ImageError(.tooLarge, "not enough memory to start the JPEG XL decoder")
    }
    var made = false
    defer { if !made { JxlDecoderDestroy(decoder) } }
    let events = Int32(JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
    guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
      JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS,
      JxlDecoderSetInput(decoder, input.baseAddress, input.count) == JXL_DEC_SUCCESS
    else { throw ImageError(.unsupported, "the JPEG XL library refused its settings") }
    let colour = try readColour(decoder, gray: header.isGray, xyb: header.isXYB)
    guard let canvas = PixelBuffer(zeroedCount: width * height * 4) else {
      throw ImageError(.tooLarge, "not enough memory for a \(width) × \(height) picture")
    }
    self.bytes = bytes
    self.decoder = decoder
    self.canvas = canvas
    self.reservation = reservation
    canvasWidth = width
    canvasHeight = height
    frameCount = header.durations.count
    durations = header.durations
    loopCount = header.loopCount
    isAnimation = header.isAnimation
    var metadata = ImageMetadata(iccProfile: colour.profile)
    metadata.convertedToSRGB = colour.converted
    metadata.isGray = header.isGray
    (metadata.storedWidth, metadata.storedHeight) = (width, height)
    self.metadata = metadata
    made = true
    ready = true
  }

  deinit {
    JxlDecoderDestroy(decoder)
    bytes.deallocate()
  }

  package func nextFrame() throws(ImageError) -> ComposedFrame? {
    if let failure { throw failure }
    guard index < frameCount else { return nil }
    do throws(ImageError) {
      try decodeFrame()
    } catch {
      let named = ImageError(error.kind, "frame \(index): \(error.reason)")
      failure = named
      throw named
    }
    index += 1
    // libjxl does not say which part of the canvas changed: `changed` stays unknown.
    return ComposedFrame(
      canvas: UnsafeBufferPointer(canvas.bytes),
      delayMilliseconds: shownMilliseconds(stored: durations[index - 1]), index: index - 1)
  }

  /// Runs the decoder until the next frame's pixels are in the canvas.
  private func decodeFrame() throws(ImageError) {
    var format = rgba8
    while true {
      switch JxlDecoderProcessInput(decoder) {
      case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
        var size = 0
        guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS,
          size == canvas.bytes.count,
          JxlDecoderSetImageOutBuffer(decoder, &format, canvas.bytes.baseAddress, size)
            == JXL_DEC_SUCCESS
        else {
          throw ImageError(.corrupt, "corrupt JPEG XL: a frame is not the size of the picture")
        }
      case JXL_DEC_FULL_IMAGE:
        return
      case JXL_DEC_SUCCESS:
        throw ImageError(.corrupt, "corrupt JPEG XL: fewer frames than the file's headers")
      case JXL_DEC_NEED_MORE_INPUT:
        throw ImageError(.corrupt, "truncated JPEG XL: unexpected end of file")
      case JXL_DEC_ERROR:
        throw ImageError(.corrupt, "corrupt JPEG XL: the frame cannot be decoded")
      default:
        continue  // an event not subscribed to (libjxl may still report the box ones)
      }
    }
  }
}

/// Straight RGBA, 8 bits a sample, rows packed: what every frame reader hands out.
private let rgba8 = JxlPixelFormat(
  num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)

/// What a JPEG XL file's headers say, read without decoding a pixel: the canvas (upright,
/// as libjxl delivers it), gray or colour, the animation's loop count and each frame's
/// stored duration in milliseconds.
private struct JXLHeader {
  var width = 0
  var height = 0
  var isGray = false
  var isAnimation = false
  /// Lossy: the pixels are stored in XYB, not in the picture's own colour space.
  var isXYB = false
  var loopCount = 1
  var durations: [Int] = []

  /// Reads `bytes`' headers: the canvas is refused over `maxPixels`, and the frame walk
  /// stops after `counting` + 1 frames (enough to know there are too many).
  init(_ bytes: UnsafeBufferPointer<UInt8>, maxPixels: Int, counting: Int) throws(ImageError) {
    guard let decoder = JxlDecoderCreate(nil) else {
      throw ImageError(.tooLarge, "not enough memory to start the JPEG XL decoder")
    }
    defer { JxlDecoderDestroy(decoder) }
    let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FRAME.rawValue)
    guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
      JxlDecoderSetInput(decoder, bytes.baseAddress, bytes.count) == JXL_DEC_SUCCESS
    else { throw ImageError(.unsupported, "the JPEG XL library refused its settings") }
    var ticks = (numerator: 1, denominator: 1)
    while true {
      switch JxlDecoderProcessInput(decoder) {
      case JXL_DEC_BASIC_INFO:
        var info = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
          throw ImageError(.corrupt, "corrupt JPEG XL: the header cannot be read")
        }
        // The stored size; orientations 5…8 swap the sides libjxl delivers.
        let (stored, other) = (Int(info.xsize), Int(info.ysize))
        let swaps = info.orientation.rawValue >= JXL_ORIENT_TRANSPOSE.rawValue
        (width, height) = swaps ? (other, stored) : (stored, other)
        guard width > 0, height > 0 else {
          throw ImageError(.corrupt, "corrupt JPEG XL: the picture is \(width)×\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
          throw ImageError.tooManyPixels(width: width, height: height, maxPixels: maxPixels)
        }
        isGray = info.num_color_channels == 1
        isXYB = info.uses_original_profile == 0
        isAnimation = info.have_animation != 0
        if isAnimation {
          loopCount = Int(info.animation.num_loops)
          ticks = (Int(info.animation.tps_numerator), Int(info.animation.tps_denominator))
          guard ticks.numerator > 0 else {
            throw ImageError(.corrupt, "corrupt JPEG XL: an animation of 0 ticks a second")
          }
        }
      case JXL_DEC_FRAME:
        var frame = JxlFrameHeader()
        guard JxlDecoderGetFrameHeader(decoder, &frame) == JXL_DEC_SUCCESS else {
          throw ImageError(.corrupt, "corrupt JPEG XL: a frame header cannot be read")
        }
        // duration ticks of denominator/numerator seconds each; at most 2^32 ticks.
        let milliseconds =
          isAnimation
          ? Int(frame.duration) * 1000 * ticks.denominator / ticks.numerator : 0
        durations.append(milliseconds)
        if durations.count > counting || frame.is_last != 0 { return }
      case JXL_DEC_SUCCESS:
        guard !durations.isEmpty else {
          throw ImageError(.corrupt, "corrupt JPEG XL: a file without a frame")
        }
        return
      case JXL_DEC_NEED_MORE_INPUT:
        throw ImageError(.corrupt, "truncated JPEG XL: unexpected end of file")
      case JXL_DEC_ERROR:
        throw ImageError(.corrupt, "corrupt JPEG XL: the headers cannot be read")
      default:
        continue
      }
    }
  }
}

/// Settles the colour of the pixels `decoder` will deliver, at its colour event: a lossy
/// (`xyb`) picture in sRGB (gray for gray), converted by libjxl in floating point, anything
/// else in its own space. Returns the ICC profile of that space (nil for sRGB) and whether
/// the pixels were converted to sRGB from it.
private func readColour(_ decoder: OpaquePointer, gray: Bool, xyb: Bool) throws(ImageError)
  -> (profile: [UInt8]?, converted: Bool)
{
  while true {
    switch JxlDecoderProcessInput(decoder) {
    case JXL_DEC_COLOR_ENCODING:
      if xyb {
        var srgb = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&srgb, gray ? 1 : 0)
        guard JxlDecoderSetPreferredColorProfile(decoder, &srgb) == JXL_DEC_SUCCESS else {
          throw ImageError(.unsupported, "the JPEG XL library cannot deliver sRGB")
        }
        let original = profile(decoder, JXL_COLOR_PROFILE_TARGET_ORIGINAL)
        return (original, original != nil)
      }
      return (profile(decoder, JXL_COLOR_PROFILE_TARGET_DATA), false)
    case JXL_DEC_NEED_MORE_INPUT:
      throw ImageError(.corrupt, "truncated JPEG XL: unexpected end of file")
    case JXL_DEC_ERROR, JXL_DEC_SUCCESS:
      throw ImageError(.corrupt, "corrupt JPEG XL: the colour header cannot be read")
    default:
      continue
    }
  }
}

/// The ICC profile of `target` (the file's own colour, or the delivered pixels'): nil for
/// sRGB, which needs none, and when libjxl has none to give.
private func profile(_ decoder: OpaquePointer, _ target: JxlColorProfileTarget) -> [UInt8]? {
  var encoding = JxlColorEncoding()
  if JxlDecoderGetColorAsEncodedProfile(decoder, nil, target, &encoding) == JXL_DEC_SUCCESS,
    isSRGB(encoding)
  {
    return nil
  }
  var size = 0
  guard JxlDecoderGetICCProfileSize(decoder, nil, target, &size) == JXL_DEC_SUCCESS, size > 0,
    size <= 1 << 26
  else { return nil }
  var bytes = [UInt8](repeating: 0, count: size)
  guard JxlDecoderGetColorAsICCProfile(decoder, nil, target, &bytes, size) == JXL_DEC_SUCCESS
  else { return nil }
  return bytes
}

/// True for sRGB itself (gray or colour): sRGB primaries and transfer, D65 white,
/// perceptual or relative intent alike (the pixels are the same).
private func isSRGB(_ encoding: JxlColorEncoding) -> Bool {
  encoding.white_point == JXL_WHITE_POINT_D65
    && encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
    && (encoding.color_space == JXL_COLOR_SPACE_GRAY
      || (encoding.color_space == JXL_COLOR_SPACE_RGB && encoding.primaries == JXL_PRIMARIES_SRGB))
}

/// The libjxl the reader and writer are built with, as `0.7.0`.
package let jxlVersion: String = {
  let version = Int(JxlDecoderVersion())
  return "\(version / 1_000_000).\(version / 1000 % 1000).\(version % 1000)"
}()
