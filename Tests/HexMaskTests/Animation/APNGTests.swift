import Foundation
import HexMask
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// APNGFrames against Chromium's frames of APNGs made by Pillow and apngasm, APNGWriter
/// round trips, and hostile files (Fixtures/animation/MANIFEST.txt says how each was made).
@Suite struct APNGTests {
  static let fixtures = [
    "apng-apngasm", "apng-dispose-blend", "apng-hidden-default", "apng-palette",
    "apng-previous-first", "apng-spliced-16bit-interlaced", "apng-spliced-16bit",
  ]

  @Test(arguments: fixtures)
  func framesAreChromiums(_ name: String) throws {
    let expected = try ReferenceRow.load().filter { $0.file == name + ".png" }
    try #require(!expected.isEmpty)
    let animation = try readAnimation(Fixtures.bytes("animation/\(name).png"))
    #expect(animation.frames.count == expected.count)
    #expect(animation.declaredFrameCount == expected.count)
    for (index, row) in expected.enumerated() where index < animation.frames.count {
      let reference = try decodeFixture("animation/apng-reference/\(name)-\(index).png")
      #expect(reference.width == animation.width && reference.height == animation.height)
      let difference = premultipliedDifference(animation.frames[index], reference.pixels)
      #expect(difference <= 1, "\(name) frame \(index): \(difference) levels from Chromium")
      // WebCodecs reports the stored delay; <img> plays 10 ms or less as 100 ms.
      #expect(
        animation.delays[index] == (row.chromiumMilliseconds <= 10 ? 100 : row.chromiumMilliseconds)
      )
      #expect(animation.loopCount == row.loop)
    }
  }

  /// The fixtures are worth their name: the composited frames differ from the stored
  /// rectangles, and Pillow misses some of them, which is why Chromium decides.
  @Test func fixturesExerciseTheHardCases() throws {
    let rows = try ReferenceRow.load()
    #expect(rows.contains { $0.file == "apng-hidden-default.png" && $0.pillowDifference != "0" })
    #expect(rows.contains { $0.file == "apng-previous-first.png" && $0.pillowDifference == "255" })
    let delays = rows.map(\.chromiumMilliseconds)
    #expect(delays.contains(0) && delays.contains(5) && delays.contains(333))
  }

  @Test func roundTripKeepsFramesDelaysAndLoops() throws {
    let source = try readAnimation(Fixtures.bytes("animation/apng-dispose-blend.png"))
    for loop in [0, 3] {
      let bytes = try writeAnimation(source, loopCount: loop)
      let back = try readAnimation(bytes)
      #expect(back.frames == source.frames)
      #expect(back.delays == source.delays)
      #expect(back.loopCount == loop)
      #expect(back.width == source.width && back.height == source.height)
    }
  }

  @Test func changedRectanglesAreSmallerThanWholeFrames() throws {
    let source = try readAnimation(Fixtures.bytes("animation/apng-apngasm.png"))
    let (changes, rectangles) = try writeAnimationWithRectangles(source, onlyChanges: true)
    let (whole, _) = try writeAnimationWithRectangles(source, onlyChanges: false)
    #expect(changes.count < whole.count)
    #expect(
      rectangles.dropFirst().allSatisfy { $0.width * $0.height < source.width * source.height })
    #expect(try readAnimation(changes).frames == source.frames)
    #expect(try readAnimation(whole).frames == source.frames)
  }

  /// A sprite that moves, fades, vanishes and comes back over a transparent canvas, and a
  /// patch of an opaque background that turns half and then fully transparent: frames that
  /// take opaque pixels away are stored so that they replace (blend SOURCE), and every
  /// frame reads back exactly; the rectangles stay around what changed.
  @Test func framesThatTakePixelsAwayReadBackExactly() throws {
    let (width, height) = (24, 16)
    func frame(sprite: (x: Int, alpha: UInt8)?, patchAlpha: UInt8) -> [UInt8] {
      var pixels = [UInt8](repeating: 0, count: width * height * 4)
      for y in 0..<height {
        for x in 0..<width {
          let pixel = (y * width + x) * 4
          if y >= 12 {  // an opaque background strip with a patch that changes
            let alpha = (8..<12).contains(x) ? patchAlpha : 255
            pixels.replaceSubrange(pixel..<pixel + 4, with: [30, 90, 160, alpha])
          } else if let sprite, (sprite.x..<sprite.x + 4).contains(x), (2..<6).contains(y) {
            pixels.replaceSubrange(pixel..<pixel + 4, with: [220, 40, 10, sprite.alpha])
          }
        }
      }
      return pixels
    }
    let frames = [
      frame(sprite: (2, 255), patchAlpha: 255),
      frame(sprite: (6, 255), patchAlpha: 255),  // moves: its old place turns transparent
      frame(sprite: (6, 128), patchAlpha: 128),  // fades, and the patch with it
      frame(sprite: nil, patchAlpha: 0),  // vanishes, the patch too
      frame(sprite: (6, 255), patchAlpha: 255),  // comes back: opaque, blended over
    ]
    let source = Animation(
      width: width, height: height, frames: frames, delays: [40, 40, 40, 40, 40], loopCount: 0)
    let (bytes, rectangles) = try writeAnimationWithRectangles(source, onlyChanges: true)
    let back = try readAnimation(bytes)
    #expect(back.frames.count == frames.count)
    for index in frames.indices {
      #expect(back.frames[index] == frames[index], "frame \(index)")
    }
    for rectangle in rectangles.dropFirst() {
      #expect(rectangle.width * rectangle.height < width * height)
    }
  }

  @Test func identicalFramesStoreOnePixel() throws {
    let frame = [UInt8](repeating: 200, count: 8 * 6 * 4)
    let source = Animation(
      width: 8, height: 6, frames: [frame, frame], delays: [50, 70], loopCount: 2)
    let (bytes, rectangles) = try writeAnimationWithRectangles(source, onlyChanges: true)
    #expect(rectangles[1].width == 1 && rectangles[1].height == 1)
    let back = try readAnimation(bytes)
    #expect(back.frames == source.frames && back.delays == [50, 70] && back.loopCount == 2)
  }

  @Test(.enabled(if: pillowAvailable()))
  func pillowReadsTheWritersFrames() throws {
    let source = try readAnimation(Fixtures.bytes("animation/apng-dispose-blend.png"))
    let bytes = try writeAnimation(source, loopCount: 0)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("hexmask-apng-\(getpid()).png")
    try Data(bytes).write(to: path)
    defer { try? FileManager.default.removeItem(at: path) }
    let script = """
      import sys
      from PIL import Image
      im = Image.open(sys.argv[1])
      for i in range(im.n_frames):
          im.seek(i)
          print(im.info.get("duration"), im.convert("RGBA").tobytes().hex())
      """
    let run = try runProcess(
      executableOnPath(named: "python3"), ["-c", script, path.path], timeout: 60)
    try #require(run.status == 0, "\(run.standardError)")
    let lines = run.standardOutput.split(separator: "\n")
    #expect(lines.count == source.frames.count)
    for (index, line) in lines.enumerated() where index < source.frames.count {
      let parts = line.split(separator: " ")
      #expect(Double(parts[0]) == Double(source.delays[index]))
      let pixels = hexBytes(String(parts[1]))
      #expect(premultipliedDifference(pixels, source.frames[index]) == 0, "frame \(index)")
    }
  }

  /// The format sniffer may already have read the signature, or part of it.
  @Test(arguments: [0, 4, 8])
  func signatureAlreadyRead(_ consumed: Int) throws {
    let bytes = try Fixtures.bytes("animation/apng-palette.png")
    let whole = try readAnimation(bytes)
    let frames = try withBytesFile(bytes) { file in
      var skipped = [UInt8](repeating: 0, count: max(consumed, 1))
      #expect(fread(&skipped, 1, consumed, file) == consumed)
      let source = try APNGFrames(
        file: file, signatureBytes: consumed, maxPixels: 1 << 20, maxFrames: 10, memory: nil)
      var frames: [[UInt8]] = []
      while let frame = try source.nextFrame() { frames.append(Array(frame.canvas)) }
      return frames
    }
    #expect(frames == whole.frames && frames.count == 3)
  }

  @Test func plainPNGIsNotAnAnimation() throws {
    let error = hostileError(try Fixtures.bytes("pngsuite/basn6a08.png"))
    #expect(error?.kind == .unsupported)
  }

  @Test func sequenceOutOfOrderIsRefused() throws {
    var chunks = try Chunks(Fixtures.bytes("animation/apng-dispose-blend.png"))
    // The third frame's fcTL claims the number its fdAT should have.
    let index = try #require(chunks.indices(of: "fcTL").dropFirst(2).first)
    chunks.list[index].data.replaceSubrange(0..<4, with: [0, 0, 0, 4])
    let error = hostileError(chunks.bytes)
    #expect(error?.kind == .corrupt)
    #expect(
      error?.reason.contains("sequence number 4 where 3 was expected") == true,
      "\(String(describing: error))")
    #expect(error?.reason.hasPrefix("frame 2:") == true)
  }

  /// An APNG ending after its first frame of 6 declared: the count is said in the singular.
  @Test func fewerFramesThanDeclaredAreRefused() throws {
    var chunks = try Chunks(Fixtures.bytes("animation/apng-dispose-blend.png"))
    let second = try #require(chunks.indices(of: "fcTL").dropFirst(1).first)
    let end = try #require(chunks.indices(of: "IEND").first)
    chunks.list.removeSubrange(second..<end)
    let error = hostileError(chunks.bytes)
    #expect(error?.kind == .corrupt)
    #expect(error?.reason == "frame 0: APNG holds 1 frame, not the 6 its acTL declares")
  }

  @Test func frameOutsideTheCanvasIsRefused() throws {
    var chunks = try Chunks(Fixtures.bytes("animation/apng-dispose-blend.png"))
    let index = try #require(chunks.indices(of: "fcTL").dropFirst(1).first)
    // x offset 20 for a 26-pixel-wide frame on a 32-pixel canvas.
    chunks.list[index].data.replaceSubrange(12..<16, with: [0, 0, 0, 20])
    let error = hostileError(chunks.bytes)
    #expect(error?.kind == .corrupt)
    #expect(
      error?.reason.contains("outside the 32×20 canvas") == true, "\(String(describing: error))")
  }

  @Test func firstFrameSmallerThanTheDefaultImageIsRefused() throws {
    var chunks = try Chunks(Fixtures.bytes("animation/apng-dispose-blend.png"))
    let index = try #require(chunks.indices(of: "fcTL").first)
    chunks.list[index].data.replaceSubrange(4..<8, with: [0, 0, 0, 31])
    #expect(
      hostileError(chunks.bytes)?.reason.contains("not the whole 32×20 default image") == true)
  }

  @Test(arguments: [0x7fff_ffff, 0x8000_0000])
  func hugeFrameCountInAFewBytesIsRefused(_ frames: Int) throws {
    var chunks = Chunks()
    chunks.append("IHDR", be32(16) + be32(16) + [8, 6, 0, 0, 0])
    chunks.append("acTL", be32(frames) + be32(0))
    let bytes = chunks.bytes
    #expect(bytes.count <= 60)
    #expect(hostileError(bytes, maxFrames: 1000)?.kind != nil)
    // Even with no frame limit: the file ends long before, an error and no allocation.
    #expect(hostileError(bytes, maxFrames: .max) != nil)
  }

  @Test func moreFramesThanTheLimitAreRefusedBeforeDecoding() throws {
    let bytes = try Fixtures.bytes("animation/apng-dispose-blend.png")
    let error = hostileError(bytes, maxFrames: 5)
    #expect(error?.kind == .tooLarge)
    #expect(error?.reason == "more frames than the limit of 5")
    #expect(error?.animation == .frames(limit: 5))
    #expect(hostileError(bytes, maxFrames: 6) == nil)
  }

  @Test func morePixelsInAllThanTheLimitAreRefusedBeforeDecoding() throws {
    let bytes = try Fixtures.bytes("animation/apng-dispose-blend.png")
    let whole = try readAnimation(bytes)
    let all = whole.width * whole.height * 6
    let error = hostileError(bytes, maxTotalPixels: all - 1)
    #expect(error?.kind == .tooLarge)
    #expect(error?.animation == .pixelsInAll(limit: all - 1))
    #expect(
      error?.reason
        == "6 frames of \(whole.width)×\(whole.height) are more than the limit of \(all - 1) "
        + "pixels over all frames")
    #expect(hostileError(bytes, maxTotalPixels: all) == nil)
  }

  @Test func invalidHeaderIsLibpngsError() throws {
    var chunks = Chunks()
    chunks.append("IHDR", be32(16) + be32(16) + [3, 6, 0, 0, 0])
    chunks.append("acTL", be32(1) + be32(0))
    chunks.append("IDAT", [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
    chunks.append("IEND", [])
    let error = hostileError(chunks.bytes)
    #expect(error?.kind == .corrupt)
    #expect(
      error?.reason.lowercased().contains("bit depth") == true, "\(String(describing: error))")
  }

  @Test func hugeCanvasIsRefusedBeforeAllocating() throws {
    var chunks = Chunks()
    chunks.append("IHDR", be32(65535) + be32(65535) + [8, 6, 0, 0, 0])
    chunks.append("acTL", be32(65535) + be32(0))
    chunks.append("IEND", [])
    let error = hostileError(chunks.bytes, maxPixels: 1 << 24)
    #expect(error?.kind == .tooLarge && error?.pixels?.width == 65535)
  }

  @Test func truncatedFrameDataIsRefused() throws {
    let chunks = try Chunks(Fixtures.bytes("animation/apng-dispose-blend.png"))
    let whole = chunks.bytes
    let fdAT = try #require(chunks.indices(of: "fdAT").dropFirst(2).first)
    // Cut in the middle of the third fdAT's data.
    let cut = chunks.offset(of: fdAT) + 8 + chunks.list[fdAT].data.count / 2
    let error = hostileError(Array(whole[..<cut]))
    #expect(
      error?.reason.contains("ends inside the fdAT chunk") == true, "\(String(describing: error))")
    #expect(error?.reason.hasPrefix("frame 3:") == true)
  }

  @Test func damagedChecksumIsRefused() throws {
    var bytes = try Fixtures.bytes("animation/apng-dispose-blend.png")
    let chunks = try Chunks(bytes)
    let fdAT = try #require(chunks.indices(of: "fdAT").first)
    bytes[chunks.offset(of: fdAT) + 12] ^= 0x40
    #expect(hostileError(bytes)?.reason.contains("CRC") == true)
  }

  /// Bytes of the animation chunks changed at random, CRCs repaired so that the damage
  /// reaches the parser and libpng: each file decodes or throws, never traps or hangs.
  @Test(arguments: ["apng-dispose-blend", "apng-spliced-16bit-interlaced", "apng-palette"])
  func damagedChunksNeverTrap(_ name: String) throws {
    let original = try Chunks(Fixtures.bytes("animation/\(name).png"))
    var random = SplitMix64(seed: 32)
    var refused = 0
    for _ in 0..<300 {
      var chunks = original
      let index = random.int(in: 0...chunks.list.count - 1)
      guard !chunks.list[index].data.isEmpty else { continue }
      for _ in 0..<random.int(in: 1...3) {
        let at = random.int(in: 0...chunks.list[index].data.count - 1)
        chunks.list[index].data[at] = UInt8(truncatingIfNeeded: random.next())
      }
      if let error = hostileError(chunks.bytes) {
        #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
        refused += 1
      }
    }
    // Most changes to headers and compressed data are caught; not all (pixel bytes).
    #expect(refused > 30)
  }

  /// Cut at every chunk boundary and in the middle of every chunk: always a thrown error
  /// (or a clean end), never a trap.
  @Test func everyTruncationIsAnError() throws {
    let bytes = try Fixtures.bytes("animation/apng-hidden-default.png")
    for cut in stride(from: 1, to: bytes.count - 1, by: 7) {
      #expect(hostileError(Array(bytes[..<cut])) != nil, "cut at \(cut)")
    }
  }
}

/// fcTL delays as browsers play them, and the writer's fractions.
@Suite struct APNGDelayTests {
  @Test(arguments: [
    (1, 10, 100), (0, 0, 100), (1, 0, 100), (2, 0, 20), (5, 1000, 100), (10, 1000, 100),
    (11, 1000, 11), (333, 1000, 333), (1, 3, 333), (65535, 1, 65_535_000),
  ])
  func playedDelays(_ numerator: Int, _ denominator: Int, _ milliseconds: Int) throws {
    var chunks = try Chunks(Fixtures.bytes("animation/apng-palette.png"))
    for index in chunks.indices(of: "fcTL") {
      chunks.list[index].data.replaceSubrange(
        20..<24, with: be16(numerator) + be16(denominator))
    }
    let animation = try readAnimation(chunks.bytes)
    #expect(animation.delays == [milliseconds, milliseconds, milliseconds])
  }

  @Test(arguments: [0, 1, 999, 65535, 65536, 655_350, 655_351, 100_000_000])
  func writtenDelaysReadBack(_ milliseconds: Int) throws {
    let (numerator, denominator) = apngDelay(milliseconds: milliseconds)
    #expect((0...0xffff).contains(numerator) && (1...0xffff).contains(denominator))
    let exact = numerator * 1000 / denominator
    if milliseconds <= 0xffff { #expect(exact == milliseconds) }
    if milliseconds <= 0xffff * 10 { #expect(abs(exact - milliseconds) <= 5) }
    if milliseconds > 0xffff * 1000 { #expect(exact == 0xffff * 1000) }
  }
}

@Suite struct APNGWriterHeaderTests {
  @Test func markProfileAndSRGBAreWritten() throws {
    let frame = [UInt8](repeating: 90, count: 4 * 4 * 4)
    let source = Animation(width: 4, height: 4, frames: [frame], delays: [100], loopCount: 0)
    let profile = try Fixtures.bytes("icc/DisplayP3.icc")
    let tagged = try Chunks(
      writeAnimationWithRectangles(source, onlyChanges: true, iccProfile: profile).bytes)
    #expect(tagged.list.map(\.type) == ["IHDR", "acTL", "tEXt", "iCCP", "fcTL", "IDAT", "IEND"])
    let read = try withBytesFile(tagged.bytes) { file in
      try APNGFrames(file: file, signatureBytes: 0, maxPixels: 100, maxFrames: 10, memory: nil)
        .metadata
    }
    #expect(read.iccProfile == profile)
    let plain = try Chunks(
      writeAnimationWithRectangles(source, onlyChanges: true, srgb: true).bytes)
    #expect(plain.list.map(\.type).contains("sRGB"))
    #expect(plain.list.first { $0.type == "tEXt" }?.data == Array("Software\0hexmask".utf8))
  }

  /// acTL comes before the pixels: a wrong count is rewritten on a file that can seek, and
  /// refused on one that cannot.
  @Test func frameCountIsRewrittenWhenTheFileCanSeek() throws {
    let frames = [[UInt8](repeating: 10, count: 16), [UInt8](repeating: 20, count: 16)]
    guard let file = tmpfile() else { throw TestFileError(description: "tmpfile failed") }
    defer { fclose(file) }
    let writer = try APNGWriter(file: file, width: 2, height: 2, frameCount: 7, loopCount: 4)
    for frame in frames {
      try frame.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: 40) }
    }
    try writer.finish()
    let size = ftell(file)
    rewind(file)
    var bytes = [UInt8](repeating: 0, count: size)
    #expect(fread(&bytes, 1, size, file) == size)
    let back = try readAnimation(bytes)
    #expect(back.frames == frames && back.declaredFrameCount == 2 && back.loopCount == 4)

    var pipeEnds: [Int32] = [0, 0]
    try #require(pipe(&pipeEnds) == 0)
    defer { close(pipeEnds[0]) }
    let unseekable = try #require(fdopen(pipeEnds[1], "w"))
    defer { fclose(unseekable) }
    let streaming = try APNGWriter(
      file: unseekable, width: 2, height: 2, frameCount: 7, loopCount: 0)
    try frames[0].withUnsafeBufferPointer { try streaming.addFrame($0, delayMilliseconds: 40) }
    #expect(
      throws: ImageError(
        .writeFailed, "wrote 1 frame after declaring 7, on a file that cannot seek")
    ) { try streaming.finish() }
  }
}

// MARK: - Reading and writing whole animations

private struct Animation {
  var width = 0
  var height = 0
  var frames: [[UInt8]] = []
  var delays: [Int] = []
  var loopCount = 0
  var declaredFrameCount: Int?
}

private func readAnimation(
  _ bytes: [UInt8], maxPixels: Int = 1 << 24, maxFrames: Int = 1000, maxTotalPixels: Int = .max
) throws -> Animation {
  try withBytesFile(bytes) { file in
    let source = try APNGFrames(
      file: file, signatureBytes: 0, maxPixels: maxPixels, maxFrames: maxFrames,
      maxTotalPixels: maxTotalPixels, memory: nil)
    var animation = Animation(
      width: source.canvasWidth, height: source.canvasHeight, loopCount: source.loopCount,
      declaredFrameCount: source.declaredFrameCount)
    while let frame = try source.nextFrame() {
      #expect(frame.index == animation.frames.count)
      animation.frames.append(Array(frame.canvas))
      animation.delays.append(frame.delayMilliseconds)
    }
    return animation
  }
}

/// The error reading `bytes` throws, or nil when it reads to the end.
private func hostileError(
  _ bytes: [UInt8], maxPixels: Int = 1 << 24, maxFrames: Int = 1000, maxTotalPixels: Int = .max
) -> ImageError? {
  do {
    _ = try readAnimation(
      bytes, maxPixels: maxPixels, maxFrames: maxFrames, maxTotalPixels: maxTotalPixels)
    return nil
  } catch let error as ImageError {
    return error
  } catch {
    return ImageError(.unreadable, "\(error)")
  }
}

private func writeAnimation(_ animation: Animation, loopCount: Int) throws -> [UInt8] {
  var copy = animation
  copy.loopCount = loopCount
  return try writeAnimationWithRectangles(copy, onlyChanges: true).bytes
}

private func writeAnimationWithRectangles(
  _ animation: Animation, onlyChanges: Bool, iccProfile: [UInt8]? = nil, srgb: Bool = false
) throws
  -> (bytes: [UInt8], rectangles: [(x: Int, y: Int, width: Int, height: Int)])
{
  var buffer: UnsafeMutablePointer<CChar>?
  var size = 0
  guard let file = open_memstream(&buffer, &size) else {
    throw TestFileError(description: "open_memstream failed")
  }
  var rectangles: [(x: Int, y: Int, width: Int, height: Int)] = []
  do {
    let writer = try APNGWriter(
      file: file, width: animation.width, height: animation.height,
      frameCount: animation.frames.count, loopCount: animation.loopCount,
      iccProfile: iccProfile, srgb: srgb, onlyChanges: onlyChanges)
    for (frame, delay) in zip(animation.frames, animation.delays) {
      try frame.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: delay) }
    }
    try writer.finish()
    rectangles = writer.storedRectangles
  } catch {
    fclose(file)
    free(buffer)
    throw error
  }
  fclose(file)
  defer { free(buffer) }
  guard let buffer else { return ([], rectangles) }
  return (Array(UnsafeRawBufferPointer(start: buffer, count: size)), rectangles)
}

/// The largest difference between two RGBA buffers once premultiplied (c × a / 255), and
/// in alpha: how far apart two pictures look, whatever the colour of invisible pixels.
/// Chromium keeps pixels premultiplied, so its straight values of a faint pixel may
/// be several levels off while it shows the same thing.
private func premultipliedDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
  guard a.count == b.count else { return 255 }
  var worst = 0
  for pixel in stride(from: 0, to: a.count, by: 4) {
    let (alphaA, alphaB) = (Int(a[pixel + 3]), Int(b[pixel + 3]))
    worst = max(worst, abs(alphaA - alphaB))
    for channel in 0..<3 {
      let shownA = (Int(a[pixel + channel]) * alphaA + 127) / 255
      let shownB = (Int(b[pixel + channel]) * alphaB + 127) / 255
      worst = max(worst, abs(shownA - shownB))
    }
  }
  return worst
}

private func hexBytes(_ text: String) -> [UInt8] {
  var bytes: [UInt8] = []
  var index = text.startIndex
  while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), next > index {
    bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
    index = next
  }
  return bytes
}

private func pillowAvailable() -> Bool {
  guard let python = try? executableOnPath(named: "python3"),
    let run = try? runProcess(python, ["-c", "import PIL.PngImagePlugin"], timeout: 30)
  else { return false }
  return run.status == 0
}

/// A row of Fixtures/animation/apng-reference.tsv.
private struct ReferenceRow {
  var file: String
  var frame: Int
  var chromiumMilliseconds: Int
  var loop: Int
  var pillowDifference: String

  static func load() throws -> [ReferenceRow] {
    let text = try String(
      contentsOfFile: Fixtures.path("animation/apng-reference.tsv"), encoding: .utf8)
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 7, let frame = Int(fields[1]), let delay = Int(fields[2]),
        let loop = Int(fields[3])
      else { return nil }
      return ReferenceRow(
        file: fields[0], frame: frame, chromiumMilliseconds: delay, loop: loop,
        pillowDifference: fields[6])
    }
  }
}

// MARK: - Editing chunks

/// A PNG as a list of chunks, to damage one and put the file back together with valid CRCs.
private struct Chunks {
  var list: [(type: String, data: [UInt8])] = []

  init() {}

  init(_ bytes: [UInt8]) throws {
    var offset = 8
    while offset + 12 <= bytes.count {
      let length = Int(be32(bytes, offset))
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      guard offset + 12 + length <= bytes.count else { break }
      list.append((type, Array(bytes[offset + 8..<offset + 8 + length])))
      offset += 12 + length
    }
  }

  mutating func append(_ type: String, _ data: [UInt8]) { list.append((type, data)) }

  func indices(of type: String) -> [Int] { list.indices.filter { list[$0].type == type } }

  /// Where chunk `index` starts in `bytes`.
  func offset(of index: Int) -> Int { 8 + list[..<index].reduce(0) { $0 + 12 + $1.data.count } }

  var bytes: [UInt8] {
    var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for chunk in list {
      let body = Array(chunk.type.utf8) + chunk.data
      out += be32(chunk.data.count) + body + be32(Int(crc32(body)))
    }
    return out
  }
}

private func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }

private func be32(_ value: Int) -> [UInt8] {
  [
    UInt8(value >> 24 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff),
    UInt8(value & 0xff),
  ]
}

private func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
  UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
    | UInt32(bytes[offset + 3])
}

/// CRC-32 as PNG computes it (bit by bit: the test files are small).
