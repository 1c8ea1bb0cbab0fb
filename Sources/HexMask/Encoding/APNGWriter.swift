import CZlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes an animated PNG of straight RGBA frames of one size, on the FastPNG chunk writer
/// and deflate bands.
///
/// Frame 0 is the default image (its fcTL comes before the IDAT, so viewers without APNG
/// show it). Every later frame stores only the rectangle that changed since the frame
/// before, with dispose NONE; its blend is OVER when every changed pixel is opaque (the
/// unchanged ones are then stored as transparent zeros, which deflate to almost nothing),
/// SOURCE otherwise. A frame identical to the one before still needs a rectangle: 1×1.
/// Delays are written as milliseconds over 1000. The header carries hexmask's mark and,
/// like ``PNGStreamEncoder``, an iCCP or sRGB chunk when asked.
///
/// acTL, which holds the frame count, comes before the pixels: `frameCount` is the count
/// the caller expects. When a different number of frames was added, `finish()` rewrites
/// acTL in place if the file can seek, and fails otherwise.
///
/// ```swift
/// let writer = try APNGWriter(file: fp, width: 256, height: 256, frameCount: 30, loopCount: 0)
/// while let frame = try frames.nextFrame() {
///   try writer.addFrame(frame.canvas, delayMilliseconds: frame.delayMilliseconds)
/// }
/// try writer.finish()
/// ```
///
/// - Complexity: memory O(frame): the previous frame and one rectangle being compressed.
package final class APNGWriter {
  /// An ICC profile libpng would refuse is left out and explained here.
  package private(set) var warnings: [Warning] = []
  /// The rectangle each frame stored, in order (tests and byte counts use it).
  package private(set) var storedRectangles: [(x: Int, y: Int, width: Int, height: Int)] = []

  private let chunks: PNGChunkWriter
  private let width: Int
  private let height: Int
  private let compression: PNGCompression
  private let declaredFrames: Int
  private var loopCount: Int
  private let declaredLoopCount: Int
  private let onlyChanges: Bool
  /// Where acTL starts in the file, for rewriting its count; nil when the file cannot seek.
  private let animationControlOffset: Int?
  private var previous: UnsafeMutableBufferPointer<UInt8>
  private var framesWritten = 0
  private var sequence = 0
  private var finished = false
  /// The first failure; every later call reports it again.
  private var failure: ImageError?

  /// Writes the header. `loopCount` is acTL's `num_plays`: 0 plays forever. `onlyChanges`
  /// false stores every frame whole (for comparing sizes).
  package init(
    file: CFile, width: Int, height: Int, frameCount: Int, loopCount: Int,
    compression: PNGCompression = .default, iccProfile: [UInt8]? = nil, srgb: Bool = false,
    mark: Bool = true, onlyChanges: Bool = true
  ) throws(ImageError) {
    let sides = 1...0x7fff_ffff
    guard sides.contains(width), sides.contains(height), width <= Int.max / 4 / height else {
      throw ImageError(.writeFailed, "cannot write a \(width)×\(height) APNG")
    }
    guard (1...0x7fff_ffff).contains(frameCount), (0...0x7fff_ffff).contains(loopCount) else {
      throw ImageError(
        .writeFailed,
        "an APNG cannot have \(frameCount) frame\(frameCount == 1 ? "" : "s") and \(loopCount) "
          + "play\(loopCount == 1 ? "" : "s")")
    }
    guard (0...9).contains(compression.level) else {
      throw ImageError(
        .writeFailed, "PNG compression level must be 0…9, not \(compression.level)")
    }
    chunks = PNGChunkWriter(file: file)
    self.width = width
    self.height = height
    self.compression = compression
    declaredFrames = frameCount
    self.loopCount = loopCount
    declaredLoopCount = loopCount
    self.onlyChanges = onlyChanges
    try chunks.writeSignature()
    try chunks.writeChunk("IHDR", headerChunkData(width: width, height: height, channels: 4))
    try chunks.flush()
    let offset = ftell(file)
    animationControlOffset = offset >= 0 ? offset : nil
    try chunks.writeChunk(
      "acTL", bigEndianBytes(UInt32(frameCount)) + bigEndianBytes(UInt32(loopCount)))
    if mark { try chunks.writeChunk("tEXt", HexMaskMark.pngText) }
    if srgb && iccProfile == nil { try chunks.writeChunk("sRGB", srgbChunkData) }
    if let iccProfile {
      if let refusal = pngProfileRefusal(iccProfile, gray: false) {
        warnings.append(
          Warning(.profileNotWritten, "ICC profile not written: \(userMessage(refusal))"))
      } else {
        try chunks.writeChunk("iCCP", iccProfileChunkData(iccProfile))
      }
    }
    previous = .allocate(capacity: width * height * 4)
    previous.initialize(repeating: 0)
  }

  deinit { previous.deallocate() }

  /// Adds the next frame, `width × height × 4` bytes of straight RGBA, shown for
  /// `delayMilliseconds`.
  package func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int)
    throws(ImageError)
  {
    if let failure { throw failure }
    do throws(ImageError) {
      try add(pixels, delayMilliseconds: delayMilliseconds)
    } catch {
      // A frame half written leaves the file unusable: every later call says so.
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
        .writeFailed, "an APNG frame holds \(previous.count) bytes, not \(pixels.count)")
    }
    guard delayMilliseconds >= 0 else {
      throw ImageError(.writeFailed, "a frame cannot last \(delayMilliseconds) ms")
    }
    let whole = ChangedRectangle(x: 0, y: 0, width: width, height: height, blendOver: false)
    let rectangle =
      framesWritten == 0 || !onlyChanges
      ? whole : ChangedRectangle(from: UnsafeBufferPointer(previous), to: pixels, width: width)
    try writeControl(rectangle, delayMilliseconds: delayMilliseconds)
    let stream = try compressed(rectangle, pixels)
    var start = 0
    repeat {
      let end = min(stream.count, start + IDATStream.chunkSize)
      if framesWritten == 0 {
        try chunks.writeChunk("IDAT", Array(stream[start..<end]))
      } else {
        try chunks.writeChunk("fdAT", bigEndianBytes(UInt32(sequence)) + stream[start..<end])
        sequence += 1
      }
      start = end
    } while start < stream.count
    _ = previous.update(fromContentsOf: pixels)
    storedRectangles.append((rectangle.x, rectangle.y, rectangle.width, rectangle.height))
    framesWritten += 1
  }

  /// Writes IEND and flushes; rewrites acTL first when the frame count differs from the
  /// one declared, or `loopCount` (nil: as declared) from the one given to `init`.
  package func finish(loopCount plays: Int? = nil) throws(ImageError) {
    if let failure { throw failure }
    guard !finished else { return }
    finished = true
    guard framesWritten > 0 else { throw ImageError(.writeFailed, "an APNG needs a frame") }
    if let plays, plays != loopCount {
      guard (0...0x7fff_ffff).contains(plays) else {
        throw ImageError(.writeFailed, "an APNG cannot play \(plays) times")
      }
      loopCount = plays
    }
    if framesWritten != declaredFrames || loopCount != declaredLoopCount {
      guard let offset = animationControlOffset else {
        throw ImageError(
          .writeFailed,
          "wrote \(framesWritten) frame\(framesWritten == 1 ? "" : "s") after declaring "
            + "\(declaredFrames), on a file that cannot seek"
        )
      }
      try chunks.flush()
      let end = ftell(chunks.file)
      guard end >= 0, fseek(chunks.file, offset, SEEK_SET) == 0 else { throw systemWriteError() }
      try chunks.writeChunk(
        "acTL", bigEndianBytes(UInt32(framesWritten)) + bigEndianBytes(UInt32(loopCount)))
      guard fseek(chunks.file, end, SEEK_SET) == 0 else { throw systemWriteError() }
    }
    try chunks.writeChunk("IEND")
    try chunks.flush()
  }

  private func writeControl(_ rectangle: ChangedRectangle, delayMilliseconds: Int)
    throws(ImageError)
  {
    let (numerator, denominator) = apngDelay(milliseconds: delayMilliseconds)
    var data = bigEndianBytes(UInt32(sequence))
    for value in [rectangle.width, rectangle.height, rectangle.x, rectangle.y] {
      data += bigEndianBytes(UInt32(value))
    }
    data += [UInt8(numerator >> 8), UInt8(numerator & 0xff)]
    data += [UInt8(denominator >> 8), UInt8(denominator & 0xff)]
    // dispose NONE: the next frame is drawn over this one.
    data += [APNGFrameControl.Dispose.none.rawValue]
    data += [(rectangle.blendOver ? APNGFrameControl.Blend.over : .source).rawValue]
    try chunks.writeChunk("fcTL", data)
    sequence += 1
  }

  /// The rectangle's rows filtered and deflated as one zlib stream, on the same deflate
  /// band the still encoder uses. For OVER, unchanged pixels become transparent zeros.
  private func compressed(_ rectangle: ChangedRectangle, _ pixels: UnsafeBufferPointer<UInt8>)
    throws(ImageError) -> [UInt8]
  {
    let rowBytes = rectangle.width * 4
    let band = DeflateBand(
      firstRow: 0, rowCount: rectangle.height, rowBytes: rowBytes, isLast: true)
    guard let source = pixels.baseAddress else {
      throw ImageError(.writeFailed, "an APNG frame without pixels")
    }
    for y in 0..<rectangle.height {
      let start = ((rectangle.y + y) * width + rectangle.x) * 4
      let target = band.row(y)
      target.update(from: source + start, count: rowBytes)
      guard rectangle.blendOver else { continue }
      for offset in stride(from: 0, to: rowBytes, by: 4) {
        let same = (0..<4).allSatisfy { previous[start + offset + $0] == target[offset + $0] }
        if same { (target + offset).update(repeating: 0, count: 4) }
      }
    }
    band.compress(compression, pixelBytes: 4)
    if let reason = band.failure { throw ImageError(.writeFailed, "cannot write PNG: \(reason)") }
    var stream = zlibHeader(for: compression)
    if let data = band.compressed {
      stream += UnsafeBufferPointer(start: data, count: band.compressedCount)
    }
    return stream + bigEndianBytes(UInt32(band.adler))
  }
}

/// The part of a frame that differs from the frame before, and whether blend OVER can draw
/// it (every changed pixel opaque).
struct ChangedRectangle {
  var x, y, width, height: Int
  var blendOver: Bool

  init(x: Int, y: Int, width: Int, height: Int, blendOver: Bool) {
    (self.x, self.y, self.width, self.height, self.blendOver) = (x, y, width, height, blendOver)
  }

  /// The bounding box of the pixels (all four bytes compared) that differ; 1×1 at the
  /// origin when none does.
  init(from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>, width: Int) {
    let rowBytes = width * 4
    let rows = old.count / rowBytes
    var (left, right, top, bottom) = (width, -1, rows, -1)
    var opaque = true
    guard let oldBase = old.baseAddress, let newBase = new.baseAddress else {
      self.init(x: 0, y: 0, width: 1, height: 1, blendOver: false)
      return
    }
    for row in 0..<rows {
      let start = row * rowBytes
      guard memcmp(oldBase + start, newBase + start, rowBytes) != 0 else {
        continue
      }
      (top, bottom) = (min(top, row), row)
      for column in 0..<width {
        let pixel = start + column * 4
        if old[pixel] == new[pixel], old[pixel + 1] == new[pixel + 1],
          old[pixel + 2] == new[pixel + 2], old[pixel + 3] == new[pixel + 3]
        {
          continue
        }
        (left, right) = (min(left, column), max(right, column))
        if new[pixel + 3] != 255 { opaque = false }
      }
    }
    guard bottom >= 0 else {
      self.init(x: 0, y: 0, width: 1, height: 1, blendOver: false)
      return
    }
    self.init(
      x: left, y: top, width: right - left + 1, height: bottom - top + 1, blendOver: opaque)
  }
}

/// A delay in milliseconds as fcTL's 16-bit fraction of a second: ms/1000 while it fits,
/// then centiseconds, then whole seconds (at most 65535 s).
package func apngDelay(milliseconds: Int) -> (numerator: Int, denominator: Int) {
  if milliseconds <= 0xffff { return (milliseconds, 1000) }
  if milliseconds <= 0xffff * 10 { return ((milliseconds + 5) / 10, 100) }
  return ((min(milliseconds, 0xffff * 1000) + 500) / 1000, 1)
}
