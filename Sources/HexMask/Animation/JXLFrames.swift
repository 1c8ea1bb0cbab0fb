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
/// - **Orientation**: the stored pixels are handed out (libjxl is told to keep them) and
///   the header's orientation goes into `metadata.headerOrientation`, so the render turns
///   them by the one rule every format follows (and not at all without `autoOrient`), as
///   browsers turn them; an `Exif` box is never read, so nothing turns them twice.
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
/// Limits before pixels: a first pass reads the header and each frame's header without
/// decoding pixels (libjxl skips a frame nobody asked the pixels of), reading the file only
/// as far as libjxl asks, so the canvas is checked against `maxPixels` and the frame count
/// against `maxFrames` and `maxTotalPixels` (as many frames as the render reads) before the
/// rest is read; then the rest, into memory refused past the budget's whole limit (a
/// picture followed by endless bytes is refused there), and the file's bytes and libjxl's
/// working memory are taken from `memory` before a pixel is decoded.
///
/// - Complexity: memory O(file + canvas): the file's bytes, libjxl's frame state
///   (``bytesPerCanvasPixel``) and the canvas handed out, whatever the number of frames.
package final class JXLFrames: FrameSource {
  package let canvasWidth: Int
  package let canvasHeight: Int
  package let loopCount: Int
  package var declaredFrameCount: Int? { durations.count }
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

  /// The stored duration of each frame the header walk counted: all of them, or (for a
  /// still of an early frame, which reads no further) one more than the render reads,
  /// enough to say it moves.
  private let durations: [Int]
  /// The file's bytes, which the decoder reads from (it does not copy them).
  private let bytes: JXLBytes
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
    let (pixelBytes, overflow) = allowed.multipliedReportingOverflow(by: 4)
    let bytes = try JXLBytes(
      file: file, prefix: prefix,
      limit: overflow || pixelBytes > Int.max - (64 << 20) ? .max : pixelBytes + (64 << 20),
      memoryLimit: memory?.limit)
    // The header walk reads the file only as far as the headers it counts reach, so that
    // a picture over a limit is refused before the rest is read.
    let header = try JXLHeader(bytes, maxPixels: maxPixels, counting: min(maxFrames, readsAtMost))
    // libjxl's walk does not read the last frame's data (it skips a frame it is not asked
    // the pixels of without reading it), so the rest of the file is read now, within the
    // same limits: the decode needs it, and its memory is priced with the file's.
    if !header.stoppedEarly {
      while try bytes.readMore() {}
    }
    let input = bytes.read
    let (width, height) = (header.width, header.height)
    try checkFrameLimits(
      counted: min(header.durations.count, readsAtMost), width: width, height: height,
      maxFrames: maxFrames, maxTotalPixels: maxTotalPixels)
    let reservation = try reserveFrameReading(
      width: width, height: height, canvases: Self.bytesPerCanvasPixel / 4, working: input.count,
      memory: memory)
    guard let decoder = JxlDecoderCreate(nil) else {
      throw ImageError(.tooLarge, "not enough memory to start the JPEG XL decoder")
    }
    var made = false
    defer { if !made { JxlDecoderDestroy(decoder) } }
    let events = Int32(JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
    // The stored pixels, turned by the render's one orientation rule (`autoOrient` too).
    guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
      JxlDecoderSetKeepOrientation(decoder, 1) == JXL_DEC_SUCCESS,
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
    durations = header.durations
    loopCount = header.loopCount
    isAnimation = header.isAnimation
    var metadata = ImageMetadata(iccProfile: colour.profile)
    metadata.headerOrientation = header.orientation
    metadata.convertedToSRGB = colour.converted
    metadata.isGray = header.isGray
    (metadata.storedWidth, metadata.storedHeight) = (width, height)
    self.metadata = metadata
    made = true
  }

  deinit { JxlDecoderDestroy(decoder) }

  package func nextFrame() throws(ImageError) -> ComposedFrame? {
    if let failure { throw failure }
    guard index < durations.count else { return nil }
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

/// What a JPEG XL file's headers say, read without decoding a pixel: the canvas as stored,
/// its orientation, gray or colour, the animation's loop count and each frame's stored
/// duration in milliseconds.
private struct JXLHeader {
  var width = 0
  var height = 0
  var orientation = Orientation.up
  /// True when the walk ended at a frame past those counted, before the file's end.
  var stoppedEarly = false
  var isGray = false
  var isAnimation = false
  /// Lossy: the pixels are stored in XYB, not in the picture's own colour space.
  var isXYB = false
  var loopCount = 1
  var durations: [Int] = []

  /// Reads `bytes`' headers, reading on from the file as libjxl asks: the canvas is
  /// refused over `maxPixels`, and the frame walk stops after `counting` + 1 frames
  /// (enough to know there are too many).
  init(_ bytes: JXLBytes, maxPixels: Int, counting: Int) throws(ImageError) {
    guard let decoder = JxlDecoderCreate(nil) else {
      throw ImageError(.tooLarge, "not enough memory to start the JPEG XL decoder")
    }
    defer { JxlDecoderDestroy(decoder) }
    let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FRAME.rawValue)
    guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
      JxlDecoderSetKeepOrientation(decoder, 1) == JXL_DEC_SUCCESS,
      JxlDecoderSetInput(decoder, bytes.read.baseAddress, bytes.read.count) == JXL_DEC_SUCCESS
    else { throw ImageError(.unsupported, "the JPEG XL library refused its settings") }
    var ticks = (numerator: 1, denominator: 1)
    while true {
      switch JxlDecoderProcessInput(decoder) {
      case JXL_DEC_BASIC_INFO:
        var info = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
          throw ImageError(.corrupt, "corrupt JPEG XL: the header cannot be read")
        }
        // The stored size and the turn (JPEG XL numbers its orientations as EXIF does).
        (width, height) = (Int(info.xsize), Int(info.ysize))
        orientation = Orientation(rawValue: Int(info.orientation.rawValue)) ?? .up
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
        // duration ticks of denominator/numerator seconds each (at most 2^32 ticks, 2^32
        // a tick), to the nearest millisecond.
        let milliseconds =
          isAnimation
          ? (Int(frame.duration) * 1000 * ticks.denominator + ticks.numerator / 2)
            / ticks.numerator : 0
        durations.append(milliseconds)
        // Past the frames counted, the walk ends: that frame's bytes are never needed, and
        // every frame before it was read through (its header follows their data).
        if durations.count > counting {
          stoppedEarly = true
          return
        }
      case JXL_DEC_SUCCESS:
        guard !durations.isEmpty else {
          throw ImageError(.corrupt, "corrupt JPEG XL: a file without a frame")
        }
        return
      case JXL_DEC_NEED_MORE_INPUT:
        let unread = JxlDecoderReleaseInput(decoder)
        let from = bytes.read.count - unread
        guard try bytes.readMore() else {
          throw ImageError(.corrupt, "truncated JPEG XL: unexpected end of file")
        }
        let rest = UnsafeBufferPointer(rebasing: bytes.read[from...])
        guard JxlDecoderSetInput(decoder, rest.baseAddress, rest.count) == JXL_DEC_SUCCESS else {
          throw ImageError(.unsupported, "the JPEG XL library refused its input")
        }
      case JXL_DEC_ERROR:
        throw ImageError(.corrupt, "corrupt JPEG XL: the headers cannot be read")
      default:
        continue
      }
    }
  }
}
