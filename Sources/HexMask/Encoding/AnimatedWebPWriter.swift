import CWebP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes an animated WebP of straight RGBA frames of one size, lossy or lossless, with
/// alpha: each frame after the first is the rectangle that changed, encoded by libwebp's
/// still encoder and put together by libwebpmux.
///
/// Not libwebp's animation encoder (`WebPAnimEncoder`): for a lossy frame it takes pixels
/// that are "similar" to the frame before as unchanged and blends the frame over it, so a
/// half-transparent edge pixel whose colour changed a little is drawn over itself and
/// grows more opaque frame after frame (36 became 92 by the third frame of a hexagon's
/// edge). Here a frame is drawn by one rule that keeps every pixel exact in alpha:
/// - when every changed pixel is opaque, the rectangle is blended over the frame before,
///   its unchanged pixels made transparent (they cost almost nothing and show the pixel
///   below, which is the same);
/// - otherwise the rectangle replaces what was there (no blending), every pixel as it is.
/// Frames are never disposed. A frame that changes nothing is kept as one pixel, so the
/// file holds every frame added (``storedFrameCount``), each for its own delay. The same
/// frames give the same bytes.
///
/// The loop count, the ICC profile (an ICCP chunk) and hexmask's mark (``HexMaskMark``,
/// the `HXMK` chunk ``WebPWriter`` writes) go in when the file is assembled; nothing is
/// written before `finish(loopCount:)`.
///
/// ```swift
/// let writer = try AnimatedWebPWriter(file: fp, width: 256, height: 256, quality: 80)
/// while let frame = try frames.nextFrame() {
///   try writer.addFrame(frame.canvas, delayMilliseconds: frame.delayMilliseconds)
/// }
/// try writer.finish(loopCount: frames.loopCount)
/// ```
///
/// - Complexity: memory O(canvas + output): the frame before, one rectangle being encoded,
///   and the encoded frames, held until the file is written.
package final class AnimatedWebPWriter {
  /// An ICC profile a WebP cannot carry (CMYK or gray) is left out and explained here.
  package private(set) var warnings: [Warning] = []
  /// How many frames the file holds: every frame added.
  package var storedFrameCount: Int { framesAdded }
  /// The rectangle each frame stored and whether it was blended (tests and byte counts).
  package private(set) var storedRectangles: [(x: Int, y: Int, width: Int, height: Int)] = []

  /// The longest frame an ANMF chunk's 24-bit duration holds, in milliseconds.
  package static let maximumMilliseconds = 0xff_ffff

  private let file: CFile
  private let width: Int
  private let height: Int
  private let lossless: Bool
  private let quality: Int
  private let iccProfile: [UInt8]?
  private let mark: Bool
  private let mux: OpaquePointer
  /// The frame before, as added.
  private var previous: UnsafeMutableBufferPointer<UInt8>
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
    guard let mux = WebPMuxNew() else {
      throw ImageError(.writeFailed, "cannot write WebP: out of memory")
    }
    self.mux = mux
    self.file = file
    self.width = width
    self.height = height
    self.lossless = lossless
    self.quality = quality
    self.mark = mark
    if let profile = iccProfile, let refusal = rgbProfileRefusal(profile) {
      warnings.append(Warning(.profileNotWritten, refusal))
      self.iccProfile = nil
    } else {
      self.iccProfile = iccProfile
    }
    previous = .allocate(capacity: width * height * 4)
    previous.initialize(repeating: 0)
  }

  deinit {
    WebPMuxDelete(mux)
    previous.deallocate()
  }

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
    guard pixels.count == previous.count else {
      throw ImageError(
        .writeFailed, "a WebP frame holds \(previous.count) bytes, not \(pixels.count)")
    }
    guard (0...Self.maximumMilliseconds).contains(delayMilliseconds) else {
      throw ImageError(
        .writeFailed,
        "a frame of \(delayMilliseconds) ms: an animated WebP's frame lasts at most "
          + "\(Self.maximumMilliseconds) ms")
    }
    var rectangle =
      framesAdded == 0
      ? ChangedRectangle(x: 0, y: 0, width: width, height: height, blendOver: false)
      : ChangedRectangle(from: UnsafeBufferPointer(previous), to: pixels, width: width)
    // A frame's offset is stored halved: it starts at even coordinates.
    if rectangle.x % 2 == 1 {
      (rectangle.x, rectangle.width) = (rectangle.x - 1, rectangle.width + 1)
    }
    if rectangle.y % 2 == 1 {
      (rectangle.y, rectangle.height) = (rectangle.y - 1, rectangle.height + 1)
    }
    let blend = framesAdded > 0 && rectangle.blendOver
    let part = cut(rectangle, from: pixels, clearingUnchanged: blend)
    var encoded = try part.withUnsafeBufferPointer { (part) throws(ImageError) in
      try encodeWebP(
        part, width: rectangle.width, height: rectangle.height, lossless: lossless,
        quality: quality)
    }
    defer { WebPMemoryWriterClear(&encoded) }
    var frame = WebPMuxFrameInfo()
    frame.bitstream = WebPData(bytes: encoded.mem, size: encoded.size)
    frame.x_offset = Int32(rectangle.x)
    frame.y_offset = Int32(rectangle.y)
    frame.duration = Int32(delayMilliseconds)
    frame.id = WEBP_CHUNK_ANMF
    frame.dispose_method = WEBP_MUX_DISPOSE_NONE
    frame.blend_method = blend ? WEBP_MUX_BLEND : WEBP_MUX_NO_BLEND
    guard WebPMuxPushFrame(mux, &frame, 1) == WEBP_MUX_OK else {
      throw ImageError(
        .writeFailed, "cannot write WebP: libwebpmux cannot add frame \(framesAdded)")
    }
    _ = previous.update(fromContentsOf: pixels)
    storedRectangles.append((rectangle.x, rectangle.y, rectangle.width, rectangle.height))
    framesAdded += 1
  }

  /// The rectangle's pixels of `pixels`; with `clearingUnchanged`, those equal to the frame
  /// before are transparent black, so that blending shows the frame before there.
  private func cut(
    _ rectangle: ChangedRectangle, from pixels: UnsafeBufferPointer<UInt8>,
    clearingUnchanged: Bool
  ) -> [UInt8] {
    let rowBytes = rectangle.width * 4
    var part = [UInt8](repeating: 0, count: rowBytes * rectangle.height)
    for y in 0..<rectangle.height {
      let start = ((rectangle.y + y) * width + rectangle.x) * 4
      for offset in stride(from: 0, to: rowBytes, by: 4) {
        let pixel = start + offset
        let unchanged =
          clearingUnchanged && pixels[pixel] == previous[pixel]
          && pixels[pixel + 1] == previous[pixel + 1] && pixels[pixel + 2] == previous[pixel + 2]
          && pixels[pixel + 3] == previous[pixel + 3]
        guard !unchanged else { continue }
        for channel in 0..<4 { part[y * rowBytes + offset + channel] = pixels[pixel + channel] }
      }
    }
    return part
  }

  /// Assembles the file with `loopCount` plays (0 forever, at most 65535), the profile and
  /// the mark, and writes and flushes it; call once after the last frame. An error here
  /// means the file is incomplete.
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
    var parameters = WebPMuxAnimParams()
    parameters.loop_count = Int32(loopCount)
    parameters.bgcolor = 0
    func add(_ type: String, _ data: [UInt8]) -> Bool {
      data.withUnsafeBufferPointer { bytes in
        var chunk = WebPData(bytes: bytes.baseAddress, size: bytes.count)
        return WebPMuxSetChunk(mux, type, &chunk, 1) == WEBP_MUX_OK
      }
    }
    guard WebPMuxSetAnimationParams(mux, &parameters) == WEBP_MUX_OK,
      WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)) == WEBP_MUX_OK,
      iccProfile.map({ add("ICCP", $0) }) ?? true,
      !mark || add(HexMaskMark.webpChunk, HexMaskMark.text)
    else {
      throw ImageError(
        .writeFailed, "cannot write WebP: cannot set the loop count, ICC profile or mark")
    }
    var assembled = WebPData()
    WebPDataInit(&assembled)
    defer { WebPDataClear(&assembled) }
    guard WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK else {
      throw ImageError(.writeFailed, "cannot write WebP: libwebpmux cannot assemble the animation")
    }
    try writeWebP(assembled.bytes, assembled.size, to: file)
  }
}
