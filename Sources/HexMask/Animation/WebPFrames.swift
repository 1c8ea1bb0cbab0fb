import CWebP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The frames of an animated WebP, composited onto its canvas by libwebp's animation
/// decoder (`WebPAnimDecoder`, libwebpdemux), which applies each frame's blend (alpha over
/// or none) and dispose (none or background) itself and hands out straight RGBA
/// (`MODE_RGBA`; `MODE_rgbA` would be premultiplied).
///
/// WebP needs the whole file: it is read whole, but no further than the RIFF header says
/// it reaches (libwebp ignores anything after), and only after that size was checked
/// against a limit that follows `maxTotalPixels`; the bytes and libwebp's canvases are
/// taken from `memory` together, once the header is checked. Before the
/// decoder allocates its canvases, the demuxer's parse is checked: a canvas over
/// `maxPixels`, more frames than `maxFrames`, or canvas × frames over `maxTotalPixels` is
/// refused. A WebP without animation is refused as `.unsupported` (decode it as a still).
///
/// Delays are the differences of libwebp's timestamps, played as browsers play them: 10 ms
/// or less is 100 ms. `loopCount` is the ANIM chunk's, which is already the number of
/// plays (0 forever) as Chromium reads it. The ICCP chunk becomes `metadata.iccProfile`.
///
/// ```swift
/// let frames = try WebPFrames(
///   file: fp, maxPixels: 1 << 24, maxFrames: 1000, maxTotalPixels: 1 << 30)
/// while let frame = try frames.nextFrame() { encoder.add(frame) }
/// ```
///
/// - Complexity: memory O(file + canvas): the file's bytes and libwebp's two canvases
///   (the one shown and the one disposed), whatever the number of frames.
package final class WebPFrames: FrameSource {
  package let canvasWidth: Int
  package let canvasHeight: Int
  package let loopCount: Int
  package var declaredFrameCount: Int? { frameCount }
  package let metadata: ImageMetadata
  package let warnings: [Warning] = []

  /// What a canvas pixel costs in libwebp: the canvas shown, the one kept for the next
  /// frame's disposal, and room for decoding one frame (a lossless frame is decoded whole).
  static let bytesPerCanvasPixel = 12

  private let frameCount: Int
  /// The file's bytes, which the decoder reads from (it does not copy them).
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  private let decoder: OpaquePointer
  /// The file's bytes and libwebp's canvases, given back when this goes.
  private let reservation: MemoryReservation?
  private var index = 0
  private var lastTimestamp: Int32 = 0
  private var failure: ImageError?

  /// Reads the WebP from `file`, whose first bytes `prefix` the caller already took (to
  /// sniff the format), and prepares the decoder.
  package init(
    file: CFile, prefix: [UInt8] = [], maxPixels: Int, maxFrames: Int, maxTotalPixels: Int,
    readsAtMost: Int = .max, memory: MemoryBudget?
  ) throws(ImageError) {
    // A compressed frame is smaller than its pixels: a file larger than every allowed
    // canvas pixel at 4 bytes, plus room for headers and metadata, holds no allowed file
    // (when every frame is read).
    let (pixelBytes, overflow) =
      readsAtMost < Int.max ? (0, true) : maxTotalPixels.multipliedReportingOverflow(by: 4)
    let room = 16 << 20
    let limit = overflow || pixelBytes > Int.max - room ? Int.max : max(0, pixelBytes) + room
    let bytes = try readRIFF(file, prefix: prefix, limit: limit)
    var ready = false
    defer { if !ready { bytes.deallocate() } }
    var data = WebPData(bytes: UnsafePointer(bytes.baseAddress), size: bytes.count)
    // The demuxer's parse first: it holds the canvas size and the frame count, and
    // allocates nothing per pixel.
    guard let demuxer = WebPDemux(&data) else {
      throw ImageError(.corrupt, "corrupt WebP: the file's chunks cannot be read (truncated?)")
    }
    let width = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
    let height = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
    let frames = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
    let animated = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ANIMATION_FLAG.rawValue != 0
    let profile = webPChunkBytes("ICCP", in: demuxer)
    WebPDemuxDelete(demuxer)
    guard animated else {
      throw ImageError(.unsupported, "not an animated WebP (no animation flag)")
    }
    guard width > 0, height > 0 else {
      throw ImageError(.corrupt, "corrupt WebP: a canvas of \(width)×\(height) pixels")
    }
    let pixels = wholeBytes(width, height, 1)
    guard pixels <= maxPixels else {
      throw .tooManyPixels(width: width, height: height, maxPixels: maxPixels)
    }
    guard frames > 0 else {
      throw ImageError(.corrupt, "corrupt WebP: an animation without frames")
    }
    // The frames the render reads: those the file holds, or fewer (`readsAtMost`).
    try checkFrameLimits(
      counted: min(frames, readsAtMost), width: width, height: height, maxFrames: maxFrames,
      maxTotalPixels: maxTotalPixels)
    // One reservation for the file and the canvases: a second one, waiting for memory
    // while the first is held, could wait for ever.
    let reservation = try reserveFrameReading(
      width: width, height: height, canvases: Self.bytesPerCanvasPixel / 4, working: bytes.count,
      memory: memory)
    var options = WebPAnimDecoderOptions()
    guard WebPAnimDecoderOptionsInit(&options) != 0 else {
      throw ImageError(.unsupported, "the WebP library is not the version hexmask was built with")
    }
    options.color_mode = MODE_RGBA  // straight alpha, as every FrameSource gives
    options.use_threads = 0
    guard let decoder = WebPAnimDecoderNew(&data, &options) else {
      throw ImageError(.corrupt, "corrupt WebP: the animation cannot be decoded")
    }
    var info = WebPAnimInfo()
    guard WebPAnimDecoderGetInfo(decoder, &info) != 0,
      Int(info.canvas_width) == width, Int(info.canvas_height) == height
    else {
      WebPAnimDecoderDelete(decoder)
      throw ImageError(.corrupt, "corrupt WebP: the animation's header cannot be read")
    }
    self.bytes = bytes
    self.decoder = decoder
    self.reservation = reservation
    canvasWidth = width
    canvasHeight = height
    frameCount = frames
    loopCount = Int(info.loop_count)
    var metadata = ImageMetadata(iccProfile: profile)
    (metadata.storedWidth, metadata.storedHeight) = (width, height)
    self.metadata = metadata
    ready = true
  }

  deinit {
    WebPAnimDecoderDelete(decoder)
    bytes.deallocate()
  }

  package func nextFrame() throws(ImageError) -> ComposedFrame? {
    if let failure { throw failure }
    guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
    var pixels: UnsafeMutablePointer<UInt8>?
    var timestamp: Int32 = 0
    guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
      let error = ImageError(.corrupt, "frame \(index): corrupt WebP: the frame cannot be decoded")
      failure = error
      throw error
    }
    // Timestamps are when each frame ends; libwebp sums durations of at most 2^24 - 1 ms
    // per frame, so the difference fits.
    let stored = Int(timestamp) - Int(lastTimestamp)
    lastTimestamp = timestamp
    index += 1
    return ComposedFrame(
      canvas: UnsafeBufferPointer(start: pixels, count: canvasWidth * canvasHeight * 4),
      delayMilliseconds: shownMilliseconds(stored: stored), index: index - 1)
  }
}

/// The payload of the first chunk named `fourCC` that `demuxer` found, or nil.
private func webPChunkBytes(_ fourCC: String, in demuxer: OpaquePointer) -> [UInt8]? {
  var chunk = WebPChunkIterator()
  guard WebPDemuxGetChunk(demuxer, fourCC, 1, &chunk) != 0 else { return nil }
  defer { WebPDemuxReleaseChunkIterator(&chunk) }
  return copyBytes(chunk.chunk.bytes, chunk.chunk.size)
}

/// The RIFF file from `file` (after `prefix`, already read), no longer than its header
/// says: a size over `limit` is refused before reading on. The buffer grows as bytes come
/// (a 60-byte file claiming 4 GiB costs 60 bytes). A file that ends early is kept as far as it goes (libwebp then says it is
/// truncated).
private func readRIFF(
  _ file: CFile, prefix: [UInt8], limit: Int
) throws(ImageError) -> UnsafeMutableBufferPointer<UInt8> {
  var header = Array(prefix.prefix(12))
  if header.count < 12 {
    var more = [UInt8](repeating: 0, count: 12 - header.count)
    let got = fread(&more, 1, more.count, file)
    header += more[..<got]
  }
  guard header.count == 12, header[0..<4] == Array("RIFF".utf8)[...],
    header[8..<12] == Array("WEBP".utf8)[...]
  else {
    throw ImageError(.unreadable, "not a WebP file")
  }
  let riffSize = header[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
  // The RIFF size counts from byte 8; an odd size is padded to even.
  let size = 8 + riffSize + riffSize % 2
  guard size >= 20, prefix.count <= size else {
    throw ImageError(.corrupt, "corrupt WebP: a RIFF size of \(riffSize) bytes")
  }
  guard size <= limit else {
    throw ImageError(.tooLarge, "the file is larger than any animation within the pixel limit")
  }
  var bytes = Array(prefix.count > 12 ? prefix : header)
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while bytes.count < size {
    let count = fread(&chunk, 1, min(chunk.count, size - bytes.count), file)
    if count == 0 {
      if ferror(file) != 0 {
        throw ImageError(
          .unreadable, "read error: \(userMessage(String(cString: strerror(errno))))")
      }
      break
    }
    bytes += chunk[..<count]
  }
  // libwebp's decoder keeps pointing into the bytes: they get a buffer of their own.
  let kept = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
  _ = kept.initialize(from: bytes)
  return kept
}
