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
/// edge); and as it compares each frame with the one before, small changes that each go
/// unsent add up (a slow pan lost 8 dB in 100 frames). Here each pixel is compared with
/// what was last sent for it (``reference``), by one rule that keeps every pixel's alpha
/// exact:
/// - a pixel is sent when it differs from what was last sent for it: at all if either is
///   not opaque (or the animation is lossless), by more than ``similarity`` levels in a
///   channel if both are opaque (lossy: what the encoder would lose anyway);
/// - the frame stores the rectangle around the pixels sent. When they are all opaque, it is
///   blended over the frame before, the others made transparent (they cost almost nothing
///   and show what was sent before); otherwise it replaces what was there, every pixel of it
///   sent.
/// Frames are never disposed. A frame that sends nothing stores one pixel, so the file holds
/// every frame added (``storedFrameCount``), each for its own delay. The same frames give
/// the same bytes.
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
  /// What was last sent for each pixel (source values, not decoded ones), which the viewer
  /// shows give or take the encoder's loss.
  private var reference: UnsafeMutableBufferPointer<UInt8>
  /// The most an opaque channel may move from what was last sent and still go unsent:
  /// libwebp's own tolerance at quality 90 (its `QualityToMaxDiff`), 0 when lossless.
  private let similarity: Int
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
    try WebPWriter.check(width: width, height: height, quality: quality)
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
    reference = .allocate(capacity: width * height * 4)
    reference.initialize(repeating: 0)
    similarity = lossless ? 0 : Self.similarity(quality: quality)
  }

  deinit {
    WebPMuxDelete(mux)
    reference.deallocate()
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
    guard pixels.count == reference.count else {
      throw ImageError(
        .writeFailed, "a WebP frame holds \(reference.count) bytes, not \(pixels.count)")
    }
    guard (0...Self.maximumMilliseconds).contains(delayMilliseconds) else {
      throw ImageError(
        .writeFailed,
        "a frame of \(delayMilliseconds) ms: an animated WebP's frame lasts at most "
          + "\(Self.maximumMilliseconds) ms")
    }
    let sends = framesAdded == 0 ? nil : pixelsToSend(pixels)
    var rectangle =
      sends?.rectangle
      ?? ChangedRectangle(x: 0, y: 0, width: width, height: height, blendOver: false)
    // A frame's offset is stored halved: it starts at even coordinates.
    if rectangle.x % 2 == 1 {
      (rectangle.x, rectangle.width) = (rectangle.x - 1, rectangle.width + 1)
    }
    if rectangle.y % 2 == 1 {
      (rectangle.y, rectangle.height) = (rectangle.y - 1, rectangle.height + 1)
    }
    let blend = rectangle.blendOver
    let part = cut(rectangle, from: pixels, sending: blend ? sends?.mask : nil)
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
    framesAdded += 1
  }

  /// Which pixels of `pixels` differ from what was last sent for them (see the type's
  /// rule), and the rectangle around them, blended when all are opaque; 1×1 at the origin,
  /// replacing, when none does.
  private func pixelsToSend(_ pixels: UnsafeBufferPointer<UInt8>)
    -> (mask: [Bool], rectangle: ChangedRectangle)
  {
    var mask = [Bool](repeating: false, count: width * height)
    var (left, right, top, bottom) = (width, -1, height, -1)
    var opaque = true
    for y in 0..<height {
      for x in 0..<width {
        let pixel = (y * width + x) * 4
        let (alpha, sentAlpha) = (pixels[pixel + 3], reference[pixel + 3])
        var differs = alpha != sentAlpha
        if !differs {
          let tolerance = alpha == 255 ? similarity : 0
          for channel in 0..<3
          where abs(Int(pixels[pixel + channel]) - Int(reference[pixel + channel])) > tolerance {
            differs = true
          }
        }
        guard differs else { continue }
        mask[y * width + x] = true
        (left, right, top, bottom) = (min(left, x), max(right, x), min(top, y), max(bottom, y))
        if alpha != 255 { opaque = false }
      }
    }
    guard bottom >= 0 else {
      return (mask, ChangedRectangle(x: 0, y: 0, width: 1, height: 1, blendOver: false))
    }
    // Whole 8×8 blocks: a block with a pixel to send sends its other opaque pixels too, so
    // the alpha plane has blocks, not a speckle of holes, which costs less to store.
    for blockY in stride(from: top - top % 8, through: bottom, by: 8) {
      for blockX in stride(from: left - left % 8, through: right, by: 8) {
        let ys = blockY..<min(blockY + 8, height)
        let xs = blockX..<min(blockX + 8, width)
        guard ys.contains(where: { y in xs.contains { mask[y * width + $0] } }) else { continue }
        for y in ys {
          for x in xs
          where pixels[(y * width + x) * 4 + 3] == 255 && reference[(y * width + x) * 4 + 3] == 255
          {
            mask[y * width + x] = true
            (left, right, top, bottom) = (min(left, x), max(right, x), min(top, y), max(bottom, y))
          }
        }
      }
    }
    return (
      mask,
      ChangedRectangle(
        x: left, y: top, width: right - left + 1, height: bottom - top + 1, blendOver: opaque)
    )
  }

  /// The rectangle's pixels of `pixels`, and each pixel sent becomes what was last sent for
  /// it. With `sending` (blending), only the pixels it marks are sent; the others are
  /// transparent, which blending leaves as they were.
  private func cut(
    _ rectangle: ChangedRectangle, from pixels: UnsafeBufferPointer<UInt8>, sending: [Bool]?
  ) -> [UInt8] {
    let rowBytes = rectangle.width * 4
    var part = [UInt8](repeating: 0, count: rowBytes * rectangle.height)
    for y in 0..<rectangle.height {
      for x in 0..<rectangle.width {
        let index = (rectangle.y + y) * width + rectangle.x + x
        guard sending?[index] ?? true else {
          // Invisible, but the lossy encoder codes colour in blocks: the colour shown there
          // keeps the block smooth, where black holes would smear into the pixels sent.
          for channel in 0..<3 {
            part[y * rowBytes + x * 4 + channel] = reference[index * 4 + channel]
          }
          continue
        }
        for channel in 0..<4 {
          part[y * rowBytes + x * 4 + channel] = pixels[index * 4 + channel]
          reference[index * 4 + channel] = pixels[index * 4 + channel]
        }
      }
    }
    return part
  }

  /// libwebp's `QualityToMaxDiff`: how far an opaque channel may move unsent at `quality`.
  package static func similarity(quality: Int) -> Int {
    let value = (Double(quality) / 100).squareRoot()
    let difference = 31 * (1 - value) + 1 * value
    return Int((difference + 0.5).rounded(.down))
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
