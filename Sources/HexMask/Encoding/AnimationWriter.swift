import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An animated output's writer: whole frames in, in order, then the play count.
protocol AnimationWriter: AnyObject {
  /// Adds the next frame, `side × side × 4` bytes of straight RGBA.
  func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int) throws(ImageError)
  /// Ends the file; `loopCount` is how many times it plays in all, 0 forever.
  func finish(loopCount: Int) throws(ImageError)
  var warnings: [Warning] { get }
  /// Waits until no frame is being encoded: before the caller lets go of the file (after a
  /// failure too), nothing may still write to it.
  func drain()
  /// How many plays the file will say for `loopCount` (the format's most, where it holds
  /// fewer: a warning then says so).
  func plays(_ loopCount: Int) -> Int
}

extension AnimationWriter {
  func drain() {}
  func plays(_ loopCount: Int) -> Int { loopCount }
}

extension AnimatedWebPWriter: AnimationWriter {}

/// The animated writer for `output` (WebP, JPEG XL, or an APNG for a PNG without a
/// palette), a
/// `side`-pixel square. `frameCount` is what the input declares; nil (a GIF, whose count
/// only its end tells) writes the APNG's count at the end, into a temporary file first
/// when `file` cannot seek.
///
/// With more than one of `output.threads`, frames are encoded on a thread of their own
/// while the next is drawn (``BackgroundFrames``).
func makeAnimationWriter(
  file: CFile, side: Int, output: HexMask.Output, profile: [UInt8]?, tagsSRGB: Bool,
  frameCount: Int?, loopCount: Int, memory: MemoryBudget? = nil
) throws(ImageError) -> any AnimationWriter {
  try checkEncodingMemory(
    output.kind.encodingBytes(side: side, moving: true),
    for: "a \(side)×\(side) \(output.kind.encodingName(moving: true))",
    purpose: "to encode its frames", memory: memory)
  let writer = try makeForegroundWriter(
    file: file, side: side, output: output, profile: profile, tagsSRGB: tagsSRGB,
    frameCount: frameCount, loopCount: loopCount)
  return output.threads > 1 ? BackgroundFrames(writer) : writer
}

private func makeForegroundWriter(
  file: CFile, side: Int, output: HexMask.Output, profile: [UInt8]?, tagsSRGB: Bool,
  frameCount: Int?, loopCount: Int
) throws(ImageError) -> any AnimationWriter {
  switch output.kind {
  case .webp(let webp):
    let lossless = webp.quality == .lossless
    var quality = HexMask.Output.defaultQuality
    if case .lossy(let value) = webp.quality { quality = value }
    return ClampedLoops(
      try AnimatedWebPWriter(
        file: file, width: side, height: side, lossless: lossless, quality: quality,
        iccProfile: profile, mark: output.mark))
  case .png(let png):
    return try SpooledAPNG(
      file: file, side: side, compression: png.compression, profile: profile,
      tagsSRGB: tagsSRGB, frameCount: frameCount, loopCount: loopCount, mark: output.mark)
  case .jxl(let jxl):
    return try JXLWriter(
      file: file, width: side, height: side, quality: jxl.quality, effort: jxl.effort,
      iccProfile: profile, animation: loopCount, mark: output.mark)
  case .jpeg, .avif, .mask:
    throw ImageError(.writeFailed, "a \(output.format) output cannot move")
  }
}

/// What an animated output holds per pixel of a frame while it is written: the frame
/// drawn, two copies waiting for the encoder, what was last sent (WebP) or the frame before
/// (APNG), the rectangle cut out, and the encoder's own (as ``WebPWriter``'s, or deflate's
/// rows). The encoded frames come on top, a compressed file's worth.
func animationCost(_ kind: HexMask.Output.Kind) -> EncodingCost {
  switch kind {
  case .webp(let webp):
    let frame = WebPWriter.cost(lossless: webp.quality == .lossless)
    return EncodingCost(fixed: frame.fixed, perPixel: 4 + 8 + 5 + 4 + frame.perPixel)
  case .jxl(let jxl):
    // The frame drawn, two copies waiting, the frame held back until the next (libjxl
    // marks the last frame when it encodes it), and libjxl's own for the one it encodes,
    // with the frame it keeps as a reference (a tryout: 4 frames of 1500² at effort 7
    // peaked at 700 MiB, 2500² at 1.54 GiB: 264 a pixel).
    let frame = JXLWriter.cost(effort: jxl.effort)
    return EncodingCost(fixed: frame.fixed, perPixel: 4 + 8 + 4 + 64 + frame.perPixel)
  default: return EncodingCost(fixed: 8 << 20, perPixel: 4 + 8 + 4 + 4 + 8)
  }
}

/// What an animated WebP cannot hold, made to fit with a warning: it plays at most 65535
/// times besides forever (a GIF may ask for 65536: its count 65535 repeats after the first
/// play), and a frame lasts at most 16777215 ms (4.66 hours; an APNG's may last 18 hours).
private final class ClampedLoops: AnimationWriter {
  private let writer: AnimatedWebPWriter
  private var clamped: [Warning] = []
  init(_ writer: AnimatedWebPWriter) { self.writer = writer }
  var warnings: [Warning] { writer.warnings + clamped }
  func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int) throws(ImageError) {
    let longest = AnimatedWebPWriter.maximumMilliseconds
    // One warning for the file, however many frames are shortened.
    if delayMilliseconds > longest && !clamped.contains(where: { $0.kind == .shorterFrame }) {
      clamped.append(
        Warning(
          .shorterFrame,
          "a frame of \(delayMilliseconds) ms is written as \(longest) ms, the longest a WebP "
            + "frame lasts"))
    }
    try writer.addFrame(pixels, delayMilliseconds: min(delayMilliseconds, longest))
  }
  func plays(_ loopCount: Int) -> Int {
    guard loopCount > 0xffff else { return loopCount }
    // Asked for the report, then again by finish: one warning.
    if !clamped.contains(where: { $0.kind == .fewerPlays }) {
      clamped.append(
        Warning(
          .fewerPlays,
          "\(loopCount) plays are written as 65535, the most a WebP plays (besides forever)"))
    }
    return 0xffff
  }
  func finish(loopCount: Int) throws(ImageError) {
    try writer.finish(loopCount: plays(loopCount))
  }
}

/// An APNG, written straight to its file, or (when the frame count is known only at the
/// end and the file cannot seek back to the header) to an unnamed temporary file that is
/// copied to it at the end.
private final class SpooledAPNG: AnimationWriter {
  private let writer: APNGWriter
  private let destination: CFile
  private let spool: CFile?
  /// The most plays an APNG holds besides forever (`num_plays` is a PNG four-byte number,
  /// at most 2^31 − 1): a JPEG XL may ask for up to 2^32 − 1.
  static let mostPlays = 0x7fff_ffff
  private var clamped: [Warning] = []

  init(
    file: CFile, side: Int, compression: PNGCompression, profile: [UInt8]?, tagsSRGB: Bool,
    frameCount: Int?, loopCount: Int, mark: Bool
  ) throws(ImageError) {
    destination = file
    if frameCount == nil && !HexMask.isSeekable(file) {
      guard let spool = tmpfile() else {
        throw ImageError(.writeFailed, "cannot make a temporary file: \(systemError())")
      }
      self.spool = spool
    } else {
      spool = nil
    }
    do throws(ImageError) {
      writer = try APNGWriter(
        file: spool ?? file, width: side, height: side, frameCount: frameCount ?? 1,
        loopCount: min(loopCount, Self.mostPlays), compression: compression,
        iccProfile: profile, srgb: tagsSRGB, mark: mark)
    } catch {
      if let spool { fclose(spool) }
      throw error
    }
  }

  deinit { if let spool { fclose(spool) } }

  var warnings: [Warning] { writer.warnings + clamped }

  func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int) throws(ImageError) {
    try writer.addFrame(pixels, delayMilliseconds: delayMilliseconds)
  }

  func plays(_ loopCount: Int) -> Int {
    guard loopCount > Self.mostPlays else { return loopCount }
    // Asked for the report, then again by finish: one warning.
    if clamped.isEmpty {
      clamped.append(
        Warning(
          .fewerPlays,
          "\(loopCount) plays are written as \(Self.mostPlays), the most an APNG plays "
            + "(besides forever)"))
    }
    return Self.mostPlays
  }

  func finish(loopCount: Int) throws(ImageError) {
    try writer.finish(loopCount: plays(loopCount))
    guard let spool else { return }
    rewind(spool)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = fread(&chunk, 1, chunk.count, spool)
      if count == 0 {
        guard ferror(spool) == 0 else {
          throw ImageError(.writeFailed, "cannot read the temporary file: \(systemError())")
        }
        return
      }
      guard fwrite(chunk, 1, count, destination) == count else {
        throw systemWriteError()
      }
    }
  }
}

/// Encodes each frame on a serial queue of its own while the caller draws the next: the
/// encoder (libwebp's, or deflate) costs about as much as decoding, resizing and masking a
/// frame, so the two halves overlap. The frames reach the writer in order, one at a time,
/// so the bytes are the same as in the foreground. At most two frames wait (copied), and
/// the first failure is thrown by the next call.
private final class BackgroundFrames: AnimationWriter, @unchecked Sendable {
  // @unchecked: `writer` is touched only on `queue` (serial) or after `queue.sync`, which
  // waits for everything before it; `failure` only under `lock`; `room` bounds the frames
  // in flight.
  private let writer: any AnimationWriter
  private let queue = DispatchQueue(label: "hexmask.animation-encoder")
  private let room = DispatchSemaphore(value: 2)
  private let lock = DispatchSemaphore(value: 1)
  private var failure: ImageError?

  init(_ writer: any AnimationWriter) { self.writer = writer }

  var warnings: [Warning] { queue.sync { writer.warnings } }

  /// The first failure so far, without waiting for the frames in flight.
  private var failed: ImageError? {
    lock.wait()
    defer { lock.signal() }
    return failure
  }

  func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int) throws(ImageError) {
    if let failed { throw failed }
    let copy = Array(pixels)
    room.wait()
    queue.async {
      defer { self.room.signal() }
      guard self.failed == nil else { return }
      do throws(ImageError) {
        try copy.withUnsafeBufferPointer { (frame) throws(ImageError) in
          try self.writer.addFrame(frame, delayMilliseconds: delayMilliseconds)
        }
      } catch {
        self.lock.wait()
        self.failure = error
        self.lock.signal()
      }
    }
  }

  func finish(loopCount: Int) throws(ImageError) {
    drain()
    if let failed { throw failed }
    try writer.finish(loopCount: loopCount)
  }

  func drain() { queue.sync {} }

  func plays(_ loopCount: Int) -> Int { queue.sync { writer.plays(loopCount) } }
}
