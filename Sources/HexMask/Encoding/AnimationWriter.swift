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
  /// How many frames the file holds, once finished: libwebp merges a frame that repeats
  /// the one before into it (its delay added), so a WebP may hold fewer than were added.
  var storedFrameCount: Int { get }
}

extension AnimatedWebPWriter: AnimationWriter {}

/// The animated writer for `output` (WebP, or an APNG for a PNG without a palette), a
/// `side`-pixel square. `frameCount` is what the input declares; nil (a GIF, whose count
/// only its end tells) writes the APNG's count at the end, into a temporary file first
/// when `file` cannot seek.
///
/// With more than one of `output.threads`, frames are encoded on a thread of their own
/// while the next is drawn (``BackgroundFrames``).
func makeAnimationWriter(
  file: CFile, side: Int, output: HexMask.Output, profile: [UInt8]?, tagsSRGB: Bool,
  frameCount: Int?, loopCount: Int
) throws(ImageError) -> any AnimationWriter {
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
  case .jpeg, .avif, .mask:
    throw ImageError(.writeFailed, "a \(output.format) output cannot move")
  }
}

/// An animated WebP plays at most 65535 times besides forever; a GIF may ask for 65536
/// (its count 65535 repeats after the first play), which is written as 65535.
private final class ClampedLoops: AnimationWriter {
  private let writer: AnimatedWebPWriter
  init(_ writer: AnimatedWebPWriter) { self.writer = writer }
  var warnings: [Warning] { writer.warnings }
  var storedFrameCount: Int { writer.storedFrameCount }
  func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int) throws(ImageError) {
    try writer.addFrame(pixels, delayMilliseconds: delayMilliseconds)
  }
  func finish(loopCount: Int) throws(ImageError) {
    try writer.finish(loopCount: min(loopCount, 0xffff))
  }
}

/// An APNG, written straight to its file, or (when the frame count is known only at the
/// end and the file cannot seek back to the header) to an unnamed temporary file that is
/// copied to it at the end.
private final class SpooledAPNG: AnimationWriter {
  private let writer: APNGWriter
  private let destination: CFile
  private let spool: CFile?

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
        loopCount: loopCount, compression: compression, iccProfile: profile, srgb: tagsSRGB,
        mark: mark)
    } catch {
      if let spool { fclose(spool) }
      throw error
    }
  }

  deinit { if let spool { fclose(spool) } }

  var warnings: [Warning] { writer.warnings }
  var storedFrameCount: Int { writer.storedFrameCount }

  func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int) throws(ImageError) {
    try writer.addFrame(pixels, delayMilliseconds: delayMilliseconds)
  }

  func finish(loopCount: Int) throws(ImageError) {
    try writer.finish(loopCount: loopCount)
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
  // @unchecked: `writer` and `failure` are touched only on `queue` (serial) or after
  // `queue.sync`, which waits for everything before it; `room` bounds the frames in flight.
  private let writer: any AnimationWriter
  private let queue = DispatchQueue(label: "hexmask.animation-encoder")
  private let room = DispatchSemaphore(value: 2)
  private var failure: ImageError?

  init(_ writer: any AnimationWriter) { self.writer = writer }

  var warnings: [Warning] { queue.sync { writer.warnings } }
  var storedFrameCount: Int { queue.sync { writer.storedFrameCount } }

  func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int) throws(ImageError) {
    if let failure = queue.sync(execute: { failure }) { throw failure }
    let copy = Array(pixels)
    room.wait()
    queue.async {
      defer { self.room.signal() }
      guard self.failure == nil else { return }
      do throws(ImageError) {
        try copy.withUnsafeBufferPointer { (frame) throws(ImageError) in
          try self.writer.addFrame(frame, delayMilliseconds: delayMilliseconds)
        }
      } catch {
        self.failure = error
      }
    }
  }

  func finish(loopCount: Int) throws(ImageError) {
    if let failure = queue.sync(execute: { failure }) { throw failure }
    try writer.finish(loopCount: loopCount)
  }
}
