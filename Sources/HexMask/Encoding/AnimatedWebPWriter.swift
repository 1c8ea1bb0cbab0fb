import CWebP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes an animated WebP of straight RGBA frames of one size through libwebpmux's
/// animation encoder (`WebPAnimEncoder`), lossy or lossless, with alpha.
///
/// Every frame is lossy or every frame is lossless (`allow_mixed` off), so the choice is
/// the caller's, as for ``WebPWriter``. libwebp picks each frame's rectangle, blend and
/// dispose itself, and folds a frame identical to the one before into that one's delay
/// (the file then holds fewer frames than were added: ``storedFrameCount``; what is
/// shown, and for how long, is the same). An animation left with one frame may come out
/// as a still WebP, when libwebp finds that smaller. Nothing that varies between runs is written:
/// the key-frame distances are set here rather than left to libwebp's defaults, and the
/// encoder runs on one thread, so the same frames give the same bytes.
///
/// The loop count, the ICC profile (an ICCP chunk) and hexmask's mark (``HexMaskMark``,
/// the `HXMK` chunk ``WebPWriter`` writes) are put in by libwebpmux after the encoder
/// assembled the file; nothing is written before `finish(loopCount:)`.
///
/// ```swift
/// let writer = try AnimatedWebPWriter(file: fp, width: 256, height: 256, quality: 80)
/// while let frame = try frames.nextFrame() {
///   try writer.addFrame(frame.canvas, delayMilliseconds: frame.delayMilliseconds)
/// }
/// try writer.finish(loopCount: frames.loopCount)
/// ```
///
/// - Complexity: memory O(canvas + output): libwebp keeps a few canvases and the encoded
///   candidates of the frames since the last key frame; the encoded file is held whole
///   until it is written.
package final class AnimatedWebPWriter {
  /// An ICC profile a WebP cannot carry (CMYK or gray) is left out and explained here.
  package private(set) var warnings: [Warning] = []
  /// How many frames the file holds, known after `finish`.
  package private(set) var storedFrameCount = 0

  /// The longest animation libwebp's millisecond timestamps (an `Int32`) can hold.
  package static let maximumMilliseconds = Int(Int32.max)

  private let file: CFile
  private let width: Int
  private let height: Int
  private let iccProfile: [UInt8]?
  private let mark: Bool
  private var config: WebPConfig
  private let encoder: OpaquePointer
  /// When the next frame starts, in milliseconds from the first.
  private var timestamp = 0
  private var framesAdded = 0
  private var finished = false
  /// The first failure; every later call reports it again.
  private var failure: ImageError?

  /// Prepares a `width`×`height` animation, at most 16383 a side. Lossy with `quality` in
  /// ``HexMask/Output/qualityRange`` (alpha kept losslessly), or `lossless` (every byte
  /// of every frame, the colour under transparent pixels too; `quality` is ignored).
  package init(
    file: CFile, width: Int, height: Int, lossless: Bool = false, quality: Int = 90,
    iccProfile: [UInt8]? = nil, mark: Bool = true
  ) throws(ImageError) {
    let sides = 1...WebPWriter.maximumSide
    guard sides.contains(width), sides.contains(height) else {
      throw ImageError(
        .writeFailed,
        "cannot write a \(width)×\(height) WebP (at most \(WebPWriter.maximumSide) a side)")
    }
    let qualities = HexMask.Output.qualityRange
    guard qualities.contains(quality) else {
      throw ImageError(
        .writeFailed,
        "WebP quality must be \(qualities.lowerBound)…\(qualities.upperBound), not \(quality)")
    }
    var config = WebPConfig()
    // libwebp's simple lossless API uses quality 70 as its effort; so does this.
    guard WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, Float(lossless ? 70 : quality)) != 0
    else { throw ImageError(.writeFailed, "cannot write WebP: libwebp version mismatch") }
    config.lossless = lossless ? 1 : 0
    config.exact = lossless ? 1 : 0
    config.alpha_quality = 100
    config.thread_level = 0
    var options = WebPAnimEncoderOptions()
    guard WebPAnimEncoderOptionsInit(&options) != 0 else {
      throw ImageError(.writeFailed, "cannot write WebP: libwebp version mismatch")
    }
    options.allow_mixed = 0
    options.minimize_size = 0
    options.verbose = 0
    // No key frames after the first (libvips' and gif2webp's choice): each frame is
    // encoded as the change from the one before, never also whole to compare, which
    // halves the encoding time and makes smaller files. A key frame only helps a viewer
    // that jumps into the middle, which an avatar's never does.
    (options.kmin, options.kmax) = (Int32.max - 1, Int32.max)
    // Set again by libwebpmux in finish(); 0 here is "forever".
    options.anim_params.loop_count = 0
    options.anim_params.bgcolor = 0
    guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
      throw ImageError(.writeFailed, "cannot write WebP: out of memory")
    }
    self.encoder = encoder
    self.config = config
    self.file = file
    self.width = width
    self.height = height
    self.mark = mark
    if let profile = iccProfile, let refusal = rgbProfileRefusal(profile) {
      warnings.append(Warning(.profileNotWritten, refusal))
      self.iccProfile = nil
    } else {
      self.iccProfile = iccProfile
    }
  }

  deinit { WebPAnimEncoderDelete(encoder) }

  /// Adds the next frame, `width × height × 4` bytes of straight RGBA, shown for
  /// `delayMilliseconds`.
  package func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int)
    throws(ImageError)
  {
    if let failure { throw failure }
    do throws(ImageError) {
      try add(pixels, delayMilliseconds: delayMilliseconds)
    } catch {
      failure = error
      throw error
    }
  }

  private func add(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int)
    throws(ImageError)
  {
    guard !finished else { throw ImageError(.writeFailed, "a frame was added after finish()") }
    guard pixels.count == width * height * 4 else {
      throw ImageError(
        .writeFailed, "a WebP frame holds \(width * height * 4) bytes, not \(pixels.count)")
    }
    guard delayMilliseconds >= 0, delayMilliseconds <= Self.maximumMilliseconds - timestamp
    else {
      throw ImageError(
        .writeFailed,
        "a frame of \(delayMilliseconds) ms after \(timestamp) ms: an animated WebP lasts at "
          + "most \(Self.maximumMilliseconds) ms")
    }
    var picture = WebPPicture()
    guard WebPPictureInit(&picture) != 0 else {
      throw ImageError(.writeFailed, "cannot write WebP: libwebp version mismatch")
    }
    defer { WebPPictureFree(&picture) }
    // The animation encoder works on ARGB whatever the mode.
    picture.use_argb = 1
    picture.width = Int32(width)
    picture.height = Int32(height)
    guard WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(width * 4)) != 0 else {
      throw ImageError(.writeFailed, "cannot write WebP: out of memory")
    }
    guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
      throw encoderError("cannot encode frame \(framesAdded)")
    }
    timestamp += delayMilliseconds
    framesAdded += 1
  }

  /// Ends the animation (the last frame's delay), assembles the file with `loopCount`
  /// plays (0 forever, at most 65535), the profile and the mark, and writes and flushes
  /// it; call once after the last frame. An error here means the file is incomplete.
  package func finish(loopCount: Int) throws(ImageError) {
    if let failure { throw failure }
    guard !finished else { return }
    finished = true
    do throws(ImageError) {
      try assembleAndWrite(loopCount: loopCount)
    } catch {
      failure = error
      throw error
    }
  }

  private func assembleAndWrite(loopCount: Int) throws(ImageError) {
    guard framesAdded > 0 else { throw ImageError(.writeFailed, "an animated WebP needs a frame") }
    guard (0...0xffff).contains(loopCount) else {
      throw ImageError(
        .writeFailed, "an animated WebP plays 0 (forever) to 65535 times, not \(loopCount)")
    }
    guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
      throw encoderError("cannot end the animation")
    }
    var encoded = WebPData()
    WebPDataInit(&encoded)
    defer { WebPDataClear(&encoded) }
    guard WebPAnimEncoderAssemble(encoder, &encoded) != 0 else {
      throw encoderError("cannot assemble the animation")
    }
    var assembled = try withChunks(encoded, loopCount: loopCount)
    defer { WebPDataClear(&assembled) }
    try write(assembled.bytes, assembled.size)
  }

  /// The file with the loop count set and the ICCP and mark chunks added; the caller frees
  /// the result.
  private func withChunks(_ encoded: WebPData, loopCount: Int) throws(ImageError) -> WebPData {
    var image = encoded
    guard let mux = WebPMuxCreate(&image, 0) else {
      throw ImageError(.writeFailed, "cannot write WebP: libwebpmux cannot read the animation")
    }
    defer { WebPMuxDelete(mux) }
    var parameters = WebPMuxAnimParams()
    var frames: Int32 = 0
    guard WebPMuxNumChunks(mux, WEBP_CHUNK_ANMF, &frames) == WEBP_MUX_OK else {
      throw ImageError(.writeFailed, "cannot write WebP: libwebpmux cannot read the animation")
    }
    // libwebp writes an animation of one frame as a still picture when that is smaller:
    // it has no loop count then.
    let animated = frames > 0
    if animated {
      guard WebPMuxGetAnimationParams(mux, &parameters) == WEBP_MUX_OK else {
        throw ImageError(.writeFailed, "cannot write WebP: libwebpmux cannot read the animation")
      }
      parameters.loop_count = Int32(loopCount)
    }
    func add(_ type: String, _ data: [UInt8]) -> Bool {
      data.withUnsafeBufferPointer { bytes in
        var chunk = WebPData(bytes: bytes.baseAddress, size: bytes.count)
        return WebPMuxSetChunk(mux, type, &chunk, 1) == WEBP_MUX_OK
      }
    }
    guard !animated || WebPMuxSetAnimationParams(mux, &parameters) == WEBP_MUX_OK,
      iccProfile.map({ add("ICCP", $0) }) ?? true,
      !mark || add(HexMaskMark.webpChunk, HexMaskMark.text)
    else {
      throw ImageError(
        .writeFailed, "cannot write WebP: cannot set the loop count, ICC profile or mark")
    }
    var assembled = WebPData()
    WebPDataInit(&assembled)
    guard WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK else {
      WebPDataClear(&assembled)
      throw ImageError(
        .writeFailed, "cannot write WebP: cannot set the loop count, ICC profile or mark")
    }
    storedFrameCount = max(Int(frames), 1)
    return assembled
  }

  private func write(_ bytes: UnsafePointer<UInt8>?, _ count: Int) throws(ImageError) {
    guard let bytes, count > 0 else { throw ImageError(.writeFailed, "cannot write WebP: empty") }
    // stdio buffers: a full disk often shows only at the flush.
    if fwrite(bytes, 1, count, file) != count || fflush(file) != 0 || ferror(file) != 0 {
      let reason = userMessage(String(cString: strerror(errno)))
      throw ImageError(.writeFailed, "cannot write WebP: \(reason)")
    }
  }

  private func encoderError(_ what: String) -> ImageError {
    let detail = WebPAnimEncoderGetError(encoder).map { userMessage(String(cString: $0)) }
    return ImageError(.writeFailed, "cannot write WebP: \(what)" + (detail.map { ": \($0)" } ?? ""))
  }
}
