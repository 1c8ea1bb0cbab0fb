import Foundation
import HexMask
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// WebPFrames against Chromium's frames of animated WebPs made by gif2webp and img2webp,
/// AnimatedWebPWriter round trips, and hostile files (Fixtures/animation/MANIFEST.txt says
/// how each was made; scripts/webp_references.py made the references).
@Suite struct AnimatedWebPTests {
  static let fixtures = [
    "webp-gif2webp-forever", "webp-gif2webp-lossless", "webp-gif2webp-lossy",
    "webp-gif2webp-mixed", "webp-gif2webp-previous", "webp-img2webp-alpha",
    "webp-img2webp-mixed-loop3", "webp-img2webp-short-delays",
  ]

  @Test(arguments: fixtures)
  func framesAreChromiums(_ name: String) throws {
    let expected = try WebPReferenceRow.load().filter { $0.file == name + ".webp" }
    try #require(!expected.isEmpty)
    let animation = try readWebPAnimation(Fixtures.bytes("animation/\(name).webp"))
    #expect(animation.frames.count == expected.count)
    #expect(animation.declaredFrameCount == expected.count)
    for (index, row) in expected.enumerated() where index < animation.frames.count {
      let reference = try decodeFixture("animation/webp-reference/\(name)-\(index).png")
      #expect(reference.width == animation.width && reference.height == animation.height)
      let difference = visibleDifference(animation.frames[index], reference.pixels)
      #expect(difference == 0, "\(name) frame \(index): \(difference) levels from Chromium")
      // WebCodecs reports the stored delay; <img> plays 10 ms or less as 100 ms.
      #expect(animation.delays[index] == (row.milliseconds <= 10 ? 100 : row.milliseconds))
      #expect(animation.loopCount == row.loop)
    }
  }

  /// The fixtures are worth their name: between them they hold lossy and lossless frames
  /// in one file, frames with and without alpha blending, dispose to background, frames
  /// smaller than the canvas, loops 0 and 3, and delays of 10 ms or less.
  @Test func fixturesExerciseTheCases() throws {
    var frames: [RIFFFrame] = []
    var mixed = false
    for name in Self.fixtures {
      let found = try RIFFFrame.list(Fixtures.bytes("animation/\(name).webp"))
      frames += found
      mixed = mixed || Set(found.map(\.lossless)).count == 2
    }
    #expect(mixed)
    #expect(frames.contains { $0.blend } && frames.contains { !$0.blend })
    #expect(frames.contains { $0.disposeBackground } && frames.contains { !$0.disposeBackground })
    #expect(frames.contains { $0.smallerThanCanvas })
    #expect(frames.contains { $0.hasAlpha })
    let rows = try WebPReferenceRow.load()
    #expect(Set(rows.map(\.loop)).isSuperset(of: [0, 1, 3]))
    #expect(rows.contains { $0.milliseconds <= 10 })
    #expect(rows.allSatisfy { $0.pillowDifference == "0" })
  }

  @Test func shortDelaysPlayAsBrowsersPlayThem() throws {
    let animation = try readWebPAnimation(
      Fixtures.bytes("animation/webp-img2webp-short-delays.webp"))
    #expect(animation.delays == [100, 100, 11])
  }

  @Test func iccProfileIsMetadata() throws {
    let profile = try Fixtures.bytes("icc/DisplayP3.icc")
    let source = try readWebPAnimation(Fixtures.bytes("animation/webp-gif2webp-mixed.webp"))
    let bytes = try writeWebPAnimation(source, lossless: true, iccProfile: profile)
    let read = try withBytesFile(bytes) { file in
      try WebPFrames(
        file: file, maxPixels: 1 << 20, maxFrames: 100, maxTotalPixels: 1 << 24, memory: nil
      )
      .metadata
    }
    #expect(read.iccProfile == profile)
    let chunks = try RIFFFrame.chunkTypes(bytes)
    #expect(chunks.contains("ICCP") && chunks.last == HexMaskMark.webpChunk)
    let plain = try RIFFFrame.chunkTypes(writeWebPAnimation(source, lossless: true, mark: false))
    #expect(!plain.contains("ICCP") && !plain.contains(HexMaskMark.webpChunk))
  }

  /// The sniffer may already have read the first bytes.
  @Test(arguments: [0, 4, 12, 20])
  func prefixAlreadyRead(_ consumed: Int) throws {
    let bytes = try Fixtures.bytes("animation/webp-gif2webp-lossy.webp")
    let whole = try readWebPAnimation(bytes)
    let frames = try withBytesFile(bytes) { file in
      var skipped = [UInt8](repeating: 0, count: max(consumed, 1))
      #expect(fread(&skipped, 1, consumed, file) == consumed)
      let source = try WebPFrames(
        file: file, prefix: Array(skipped.prefix(consumed)), maxPixels: 1 << 20,
        maxFrames: 100, maxTotalPixels: 1 << 24, memory: nil)
      var frames: [[UInt8]] = []
      while let frame = try source.nextFrame() { frames.append(Array(frame.canvas)) }
      return frames
    }
    #expect(frames == whole.frames && frames.count == 7)
  }

  @Test func stillWebPIsNotAnAnimation() throws {
    let still = try Fixtures.names(in: "webp") { $0.hasSuffix(".webp") }.compactMap {
      try? Fixtures.bytes("webp/\($0)")
    }.first { (try? RIFFFrame.list($0).isEmpty) == true }
    let bytes = try #require(still)
    #expect(hostileWebPError(bytes)?.kind == .unsupported)
  }

  @Test func limitsAreCheckedBeforeDecoding() throws {
    let bytes = try Fixtures.bytes("animation/webp-gif2webp-lossy.webp")
    let frames = hostileWebPError(bytes, maxFrames: 6)
    #expect(frames?.reason == "more frames than the limit of 6")
    #expect(frames?.kind == .tooLarge && frames?.animation == .frames(limit: 6))
    #expect(hostileWebPError(bytes, maxFrames: 7) == nil)
    let canvas = hostileWebPError(bytes, maxPixels: 24 * 20 - 1)
    #expect(canvas?.kind == .tooLarge && canvas?.pixels?.width == 24 && canvas?.animation == nil)
    let total = hostileWebPError(bytes, maxTotalPixels: 24 * 20 * 7 - 1)
    #expect(total?.kind == .tooLarge && total?.animation == .pixelsInAll(limit: 24 * 20 * 7 - 1))
    #expect(
      total?.reason
        == "7 frames of 24×20 are more than the limit of \(24 * 20 * 7 - 1) pixels over all frames")
    #expect(hostileWebPError(bytes, maxTotalPixels: 24 * 20 * 7) == nil)
  }

  @Test func memoryIsTakenFromTheBudget() throws {
    let bytes = try Fixtures.bytes("animation/webp-gif2webp-lossless.webp")
    let budget = HexMask.MemoryBudget(limit: 1 << 20)
    try withBytesFile(bytes) { file in
      let frames = try WebPFrames(
        file: file, maxPixels: 1 << 20, maxFrames: 10, maxTotalPixels: 1 << 24, memory: budget)
      #expect(budget.bytesInUse == bytes.count + 48 * 48 * 12)
      _ = try frames.nextFrame()
    }
    #expect(budget.bytesInUse == 0)
    let small = HexMask.MemoryBudget(limit: bytes.count + 48 * 48 * 12 - 1)
    let error = try withBytesFile(bytes) { file in
      thrownError { () throws(ImageError) in
        _ = try WebPFrames(
          file: file, maxPixels: 1 << 20, maxFrames: 10, maxTotalPixels: 1 << 24, memory: small)
      }
    }
    #expect(error?.memory != nil)
  }
}

@Suite struct AnimatedWebPWriterTests {
  @Test(arguments: ["webp-gif2webp-lossy", "webp-img2webp-mixed-loop3", "webp-gif2webp-mixed"])
  func losslessRoundTripKeepsFramesDelaysAndLoops(_ name: String) throws {
    let source = try readWebPAnimation(Fixtures.bytes("animation/\(name).webp"))
    for loop in [0, 3] {
      var copy = source
      copy.loopCount = loop
      let bytes = try writeWebPAnimation(copy, lossless: true)
      let back = try readWebPAnimation(bytes)
      #expect(back.frames == source.frames)
      #expect(back.delays == source.delays)
      #expect(back.loopCount == loop)
      #expect(back.width == source.width && back.height == source.height)
      #expect(try RIFFFrame.list(bytes).allSatisfy(\.lossless))
    }
  }

  /// Lossy keeps alpha exactly (alpha_quality 100) and colours close; every frame is lossy.
  @Test func lossyRoundTripKeepsAlphaAndTiming() throws {
    let source = try readWebPAnimation(Fixtures.bytes("animation/webp-img2webp-alpha.webp"))
    let bytes = try writeWebPAnimation(source, lossless: false, quality: 90)
    let back = try readWebPAnimation(bytes)
    #expect(back.frames.count == source.frames.count && back.delays == source.delays)
    for (ours, theirs) in zip(back.frames, source.frames) {
      let alphas = stride(from: 3, to: ours.count, by: 4)
      #expect(alphas.allSatisfy { ours[$0] == theirs[$0] })
      // Tiles of pure colours a few pixels wide lose chroma at their edges (4:2:0): the
      // mean over visible pixels, not the worst one, says the picture is kept (9 measured
      // on the worst frame at quality 90; a wrong channel order or alpha mix gives > 40).
      #expect(meanDifference(ours, theirs) <= 12)
    }
    #expect(try RIFFFrame.list(bytes).allSatisfy { !$0.lossless })
  }

  @Test(arguments: [true, false])
  func sameFramesGiveTheSameBytes(_ lossless: Bool) throws {
    let source = try readWebPAnimation(Fixtures.bytes("animation/webp-gif2webp-lossless.webp"))
    let first = try writeWebPAnimation(source, lossless: lossless)
    let second = try writeWebPAnimation(source, lossless: lossless)
    #expect(first == second)
  }

  /// A frame identical to the one before is kept (one pixel stored), with its own delay.
  @Test(arguments: [true, false])
  func identicalFramesAreKept(lossless: Bool) throws {
    let (a, b) = (
      [UInt8](repeating: 200, count: 8 * 6 * 4), [UInt8](repeating: 90, count: 8 * 6 * 4)
    )
    let source = WebPAnimation(
      width: 8, height: 6, frames: [a, a, b], delays: [50, 70, 40], loopCount: 2)
    let (bytes, stored) = try writeWebPAnimationCounting(source, lossless: lossless)
    let back = try readWebPAnimation(bytes)
    #expect(stored == 3 && back.delays == [50, 70, 40])
    #expect(back.frames[0] == back.frames[1])
    if lossless { #expect(back.frames == [a, a, b]) }
  }

  /// Half-transparent pixels whose colour changes a little from frame to frame keep their
  /// alpha exactly in a lossy animation (libwebp's animation encoder blends such pixels
  /// over themselves, and their alpha grows frame after frame).
  @Test func halfTransparentPixelsKeepTheirAlpha() throws {
    var frames: [[UInt8]] = []
    for index in 0..<6 {
      var frame = [UInt8](repeating: 0, count: 16 * 16 * 4)
      for pixel in 0..<(16 * 16) {
        let (x, y) = (pixel % 16, pixel / 16)
        frame[pixel * 4] = UInt8(100 + index)  // a slow colour change
        frame[pixel * 4 + 1] = UInt8(x * 8)
        frame[pixel * 4 + 2] = UInt8(y * 8)
        frame[pixel * 4 + 3] = UInt8((x + y) * 8)  // 0 … 240, never opaque
      }
      frames.append(frame)
    }
    let source = WebPAnimation(
      width: 16, height: 16, frames: frames, delays: Array(repeating: 40, count: 6), loopCount: 0)
    let back = try readWebPAnimation(try writeWebPAnimation(source, lossless: false))
    #expect(back.frames.count == 6)
    for (written, read) in zip(frames, back.frames) {
      #expect(
        stride(from: 3, to: read.count, by: 4).map { read[$0] }
          == stride(from: 3, to: written.count, by: 4).map { written[$0] })
    }
  }

  /// A lossy animation sends a half-transparent pixel whose colour changed by less than
  /// libwebp's similarity tolerance (2 levels, where quality 80 lets an opaque pixel move
  /// 4 unsent), and does not send an opaque pixel that moved as little: the ANMF rectangles
  /// say which frames sent what.
  @Test func aHalfTransparentPixelIsSentHoweverLittleItChanges() throws {
    #expect(AnimatedWebPWriter.similarity(quality: 80) > 2)
    func frame(faint: UInt8, opaque: UInt8) -> [UInt8] {
      var pixels = [UInt8](repeating: 0, count: 32 * 32 * 4)
      for pixel in 0..<(32 * 32) {
        pixels.replaceSubrange(pixel * 4..<pixel * 4 + 4, with: [100, 100, 100, 255])
      }
      pixels.replaceSubrange(
        (20 * 32 + 21) * 4..<(20 * 32 + 21) * 4 + 4, with: [faint, 80, 60, 128])
      pixels[(3 * 32 + 4) * 4] = opaque
      return pixels
    }
    let frames = [
      frame(faint: 100, opaque: 100), frame(faint: 102, opaque: 100),
      frame(faint: 102, opaque: 102),
    ]
    let source = WebPAnimation(
      width: 32, height: 32, frames: frames, delays: [40, 40, 40], loopCount: 0)
    let bytes = try writeWebPAnimation(source, lossless: false, quality: 80)
    let rectangles = anmfRectangles(bytes)
    #expect(rectangles.count == 3)
    guard rectangles.count == 3 else { return }
    let faint = rectangles[1]
    #expect(faint.x <= 21 && 21 < faint.x + faint.width, "\(faint)")
    #expect(faint.y <= 20 && 20 < faint.y + faint.height, "\(faint)")
    #expect(faint.width * faint.height < 32 * 32)
    #expect(rectangles[2].width == 1 && rectangles[2].height == 1, "\(rectangles[2])")
    let back = try readWebPAnimation(bytes)
    #expect(back.frames.map { $0[(20 * 32 + 21) * 4 + 3] } == [128, 128, 128])
  }

  @Test func badArgumentsAreRefused() throws {
    guard let file = tmpfile() else { throw TestFileError(description: "tmpfile failed") }
    defer { fclose(file) }
    #expect(throws: ImageError(.writeFailed, "cannot write a 0×4 WebP (at most 16383 a side)")) {
      try AnimatedWebPWriter(file: file, width: 0, height: 4)
    }
    #expect(
      throws: ImageError(.writeFailed, "cannot write a 16384×4 WebP (at most 16383 a side)")
    ) {
      try AnimatedWebPWriter(file: file, width: 16384, height: 4)
    }
    let writer = try AnimatedWebPWriter(file: file, width: 2, height: 2)
    let short = [UInt8](repeating: 0, count: 12)
    let wrongSize = ImageError(.writeFailed, "a WebP frame holds 16 bytes, not 12")
    #expect(throws: wrongSize) {
      try short.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: 10) }
    }
    // The first failure sticks.
    #expect(throws: wrongSize) { try writer.finish(loopCount: 0) }
    let empty = try AnimatedWebPWriter(file: file, width: 2, height: 2)
    #expect(throws: ImageError(.writeFailed, "an animated WebP needs a frame")) {
      try empty.finish(loopCount: 0)
    }
  }

  /// Resident memory while 300 frames of 256² are encoded (HEXMASK_MEASURE_MEMORY=1, run
  /// alone: the process's peak is shared with whatever else runs in it).
  @Test(.enabled(if: ProcessInfo.processInfo.environment["HEXMASK_MEASURE_MEMORY"] != nil))
  func memoryFor300Frames() throws {
    for lossless in [false, true] {
      guard let file = tmpfile() else { return }
      defer { fclose(file) }
      let side = 256
      let writer = try AnimatedWebPWriter(
        file: file, width: side, height: side, lossless: lossless, quality: 80)
      var frame = [UInt8](repeating: 255, count: side * side * 4)
      var random = SplitMix64(seed: 7)
      let before = residentKilobytes()
      var peak = before
      for index in 0..<300 {
        // A moving square over noise that changes a little each frame.
        for _ in 0..<2000 {
          frame[random.int(in: 0...frame.count - 1)] = UInt8(truncatingIfNeeded: random.next())
        }
        for y in 0..<64 {
          for x in 0..<64 {
            let offset = ((y + index % 192) * side + x + index % 192) * 4
            frame[offset] = UInt8(index % 256)
          }
        }
        try frame.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: 40) }
        peak = max(peak, residentKilobytes())
      }
      try writer.finish(loopCount: 0)
      peak = max(peak, residentKilobytes())
      print(
        "AnimatedWebPWriter lossless=\(lossless): \(ftell(file)) bytes, "
          + "resident grew \((peak - before) / 1024) MiB")
      #expect(peak - before < 64 * 1024)
    }
  }
}

/// Damaged and lying files: each is a thrown error or a clean decode, never a trap or hang.
@Suite struct AnimatedWebPHostileTests {
  @Test func everyTruncationIsAnError() throws {
    let bytes = try Fixtures.bytes("animation/webp-gif2webp-lossy.webp")
    for cut in stride(from: 1, to: bytes.count - 1, by: 5) {
      let error = hostileWebPError(Array(bytes[..<cut]))
      #expect(error != nil, "cut at \(cut)")
      #expect(error?.reason.contains("\n") == false)
    }
  }

  /// WebP stores no frame count: a file claims frames through its RIFF size (here 4 GiB in
  /// 60 bytes) and its ANMF chunks. Neither costs more than the bytes really there.
  @Test func hugeClaimsInAFewBytesAreRefused() throws {
    var riff = webPHeader(canvasWidth: 16, canvasHeight: 16)
    riff += chunk("ANMF", [UInt8](repeating: 0, count: 16) + [0xff, 0xff, 0xff, 0])
    var lying = riff
    lying.replaceSubrange(4..<8, with: [0xf6, 0xff, 0xff, 0xff])
    #expect(lying.count <= 80)
    #expect(hostileWebPError(lying)?.kind == .tooLarge)
    // With no limit worth the name: read as far as it goes, then libwebp says truncated.
    #expect(hostileWebPError(lying, maxTotalPixels: .max / 8)?.kind == .corrupt)
    #expect(hostileWebPError(riff) != nil)
  }

  /// 2^31 frames cannot be claimed, but many small ones can: refused before any decoding.
  @Test func manyFramesAreRefusedBeforeDecoding() throws {
    let one = try RIFFFrame.anmfChunks(Fixtures.bytes("animation/webp-gif2webp-forever.webp"))
    let head = try RIFFFrame.chunksBeforeFrames(
      Fixtures.bytes("animation/webp-gif2webp-forever.webp"))
    var body = head
    for _ in 0..<2000 { body += one[1] }
    var file = Array("RIFF".utf8) + le32(body.count + 4) + Array("WEBP".utf8) + body
    let error = hostileWebPError(file, maxFrames: 1000)
    #expect(error?.reason == "more frames than the limit of 1000")
    #expect(error?.animation == .frames(limit: 1000))
    file = Array(file.prefix(2000))
    #expect(hostileWebPError(file) != nil)
  }

  @Test func hugeCanvasIsRefusedBeforeAllocating() throws {
    var riff = webPHeader(canvasWidth: 1 << 24, canvasHeight: 1 << 24)
    riff += chunk("ANMF", [UInt8](repeating: 0, count: 24))
    let error = hostileWebPError(riff, maxPixels: 1 << 24)
    // libwebp's demuxer refuses canvases whose bytes overflow; hexmask refuses the rest.
    #expect(error?.kind == .tooLarge || error?.kind == .corrupt)
    let bytes = try Fixtures.bytes("animation/webp-gif2webp-lossless.webp")
    var big = bytes
    // VP8X canvas width - 1 and height - 1 (24 bits each) at bytes 24...29.
    big.replaceSubrange(24..<30, with: [0xff, 0x3f, 0x00, 0xff, 0x3f, 0x00])
    let canvas = hostileWebPError(big, maxPixels: 1 << 24)
    #expect(canvas?.kind == .tooLarge && canvas?.pixels?.width == 16384)
  }

  /// Garbage in the ANMF headers (offsets, sizes, durations, flags) and in the frames'
  /// data: every file decodes or throws one line.
  @Test(arguments: ["webp-gif2webp-lossy", "webp-img2webp-mixed-loop3", "webp-gif2webp-mixed"])
  func damagedChunksNeverTrap(_ name: String) throws {
    let original = try Fixtures.bytes("animation/\(name).webp")
    let frames = RIFFFrame.anmfOffsets(original)
    try #require(!frames.isEmpty)
    var random = SplitMix64(seed: 32)
    var refused = 0
    for round in 0..<300 {
      var bytes = original
      for _ in 0..<random.int(in: 1...3) {
        // Half the rounds hit the ANMF headers, half anywhere.
        let at =
          round % 2 == 0
          ? frames[random.int(in: 0...frames.count - 1)] + random.int(in: 0...23)
          : random.int(in: 0...bytes.count - 1)
        bytes[min(at, bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
      }
      if let error = hostileWebPError(bytes) {
        #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
        refused += 1
      }
    }
    #expect(refused > 30)
  }
}

// MARK: - Reading and writing whole animations

private struct WebPAnimation {
  var width = 0
  var height = 0
  var frames: [[UInt8]] = []
  var delays: [Int] = []
  var loopCount = 0
  var declaredFrameCount: Int?
}

private func readWebPAnimation(
  _ bytes: [UInt8], maxPixels: Int = 1 << 24, maxFrames: Int = 1000,
  maxTotalPixels: Int = 1 << 30
) throws -> WebPAnimation {
  try withBytesFile(bytes) { file in
    let source = try WebPFrames(
      file: file, maxPixels: maxPixels, maxFrames: maxFrames, maxTotalPixels: maxTotalPixels,
      memory: nil)
    var animation = WebPAnimation(
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

private func hostileWebPError(
  _ bytes: [UInt8], maxPixels: Int = 1 << 24, maxFrames: Int = 1000,
  maxTotalPixels: Int = 1 << 26
) -> ImageError? {
  do {
    _ = try readWebPAnimation(
      bytes, maxPixels: maxPixels, maxFrames: maxFrames, maxTotalPixels: maxTotalPixels)
    return nil
  } catch let error as ImageError {
    return error
  } catch {
    return ImageError(.unreadable, "\(error)")
  }
}

private func writeWebPAnimation(
  _ animation: WebPAnimation, lossless: Bool, quality: Int = 80, iccProfile: [UInt8]? = nil,
  mark: Bool = true
) throws -> [UInt8] {
  try writeWebPAnimationCounting(
    animation, lossless: lossless, quality: quality, iccProfile: iccProfile, mark: mark
  ).bytes
}

private func writeWebPAnimationCounting(
  _ animation: WebPAnimation, lossless: Bool, quality: Int = 80, iccProfile: [UInt8]? = nil,
  mark: Bool = true
) throws -> (bytes: [UInt8], stored: Int) {
  guard let file = tmpfile() else { throw TestFileError(description: "tmpfile failed") }
  defer { fclose(file) }
  let writer = try AnimatedWebPWriter(
    file: file, width: animation.width, height: animation.height, lossless: lossless,
    quality: quality, iccProfile: iccProfile, mark: mark)
  for (frame, delay) in zip(animation.frames, animation.delays) {
    try frame.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: delay) }
  }
  try writer.finish(loopCount: animation.loopCount)
  let size = ftell(file)
  rewind(file)
  var bytes = [UInt8](repeating: 0, count: size)
  guard fread(&bytes, 1, size, file) == size else {
    throw TestFileError(description: "cannot read back")
  }
  return (bytes, writer.storedFrameCount)
}

/// The largest channel difference where either pixel is visible (the colour of fully
/// transparent pixels is nobody's business).
private func visibleDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
  guard a.count == b.count else { return 255 }
  var worst = 0
  for pixel in stride(from: 0, to: a.count, by: 4) where a[pixel + 3] != 0 || b[pixel + 3] != 0 {
    for channel in 0..<4 {
      worst = max(worst, abs(Int(a[pixel + channel]) - Int(b[pixel + channel])))
    }
  }
  return worst
}

/// The mean absolute difference per channel of the pixels visible in either (lossy
/// WebP does not keep the colour under alpha 0).
private func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
  guard a.count == b.count else { return 255 }
  var (total, count) = (0, 0)
  for pixel in stride(from: 0, to: a.count, by: 4) where a[pixel + 3] != 0 || b[pixel + 3] != 0 {
    for channel in 0..<4 { total += abs(Int(a[pixel + channel]) - Int(b[pixel + channel])) }
    count += 4
  }
  return count == 0 ? 0 : Double(total) / Double(count)
}

private func residentKilobytes() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
  return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
}

// MARK: - RIFF chunks, read and written by hand

private func le32(_ value: Int) -> [UInt8] {
  (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

private func le24(_ value: Int) -> [UInt8] {
  (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
  Array(type.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
}

/// RIFF, VP8X (animation and alpha flags) and ANIM (loop 0), with the RIFF size of what
/// follows to be fixed by whoever appends.
private func webPHeader(canvasWidth: Int, canvasHeight: Int) -> [UInt8] {
  let vp8x = chunk("VP8X", [0x12, 0, 0, 0] + le24(canvasWidth - 1) + le24(canvasHeight - 1))
  let anim = chunk("ANIM", [0, 0, 0, 0, 0, 0])
  let body = Array("WEBP".utf8) + vp8x + anim
  return Array("RIFF".utf8) + le32(body.count + 100) + body
}

/// One ANMF frame's header as the file stores it.
private struct RIFFFrame {
  var lossless: Bool
  var hasAlpha: Bool
  var blend: Bool
  var disposeBackground: Bool
  var smallerThanCanvas: Bool

  /// The top-level chunks after "WEBP": (type, offset of the chunk, data).
  static func chunks(_ bytes: [UInt8]) -> [(type: String, offset: Int, data: ArraySlice<UInt8>)] {
    var found: [(String, Int, ArraySlice<UInt8>)] = []
    var at = 12
    while at + 8 <= bytes.count {
      let type = String(decoding: bytes[at..<at + 4], as: UTF8.self)
      let size = bytes[at + 4..<at + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
      guard at + 8 + size <= bytes.count else { break }
      found.append((type, at, bytes[at + 8..<at + 8 + size]))
      at += 8 + size + size % 2
    }
    return found
  }

  static func chunkTypes(_ bytes: [UInt8]) throws -> [String] { chunks(bytes).map(\.type) }

  static func anmfOffsets(_ bytes: [UInt8]) -> [Int] {
    chunks(bytes).filter { $0.type == "ANMF" }.map { $0.offset + 8 }
  }

  static func anmfChunks(_ bytes: [UInt8]) throws -> [[UInt8]] {
    chunks(bytes).filter { $0.type == "ANMF" }.map { entry in
      Array(bytes[entry.offset..<entry.offset + 8 + entry.data.count + entry.data.count % 2])
    }
  }

  static func chunksBeforeFrames(_ bytes: [UInt8]) throws -> [UInt8] {
    let first = chunks(bytes).first { $0.type == "ANMF" }?.offset ?? bytes.count
    return Array(bytes[12..<first])
  }

  static func list(_ bytes: [UInt8]) throws -> [RIFFFrame] {
    let all = chunks(bytes)
    guard let vp8x = all.first(where: { $0.type == "VP8X" })?.data, vp8x.count >= 10 else {
      return []
    }
    let base = vp8x.startIndex
    let canvasWidth = vp8x[base + 4..<base + 7].reversed().reduce(0) { $0 << 8 | Int($1) } + 1
    return all.filter { $0.type == "ANMF" }.map { entry in
      let data = Array(entry.data)
      let width = data[6..<9].reversed().reduce(0) { $0 << 8 | Int($1) } + 1
      let flags = data[15]
      let inner = String(decoding: data[16..<20], as: UTF8.self)
      return RIFFFrame(
        lossless: inner == "VP8L", hasAlpha: inner == "ALPH" || inner == "VP8L",
        blend: flags & 2 == 0, disposeBackground: flags & 1 == 1,
        smallerThanCanvas: width < canvasWidth)
    }
  }
}

/// A row of Fixtures/animation/webp-reference.tsv.
private struct WebPReferenceRow {
  var file: String
  var frame: Int
  var milliseconds: Int
  var loop: Int
  var pillowDifference: String

  static func load() throws -> [WebPReferenceRow] {
    let text = String(decoding: try Fixtures.bytes("animation/webp-reference.tsv"), as: UTF8.self)
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard cells.count >= 7, let frame = Int(cells[1]), let milliseconds = Int(cells[4]),
        let loop = Int(cells[5])
      else { return nil }
      return WebPReferenceRow(
        file: cells[0], frame: frame, milliseconds: milliseconds, loop: loop,
        pillowDifference: cells[6])
    }
  }
}

/// Each ANMF chunk's rectangle (x, y, width, height) in the order stored.
private func anmfRectangles(_ bytes: [UInt8]) -> [(x: Int, y: Int, width: Int, height: Int)] {
  func le24(_ at: Int) -> Int {
    Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
  }
  var rectangles: [(x: Int, y: Int, width: Int, height: Int)] = []
  var offset = 12
  while offset + 8 <= bytes.count {
    let size =
      Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
      | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
    if Array(bytes[offset..<offset + 4]) == Array("ANMF".utf8), offset + 20 <= bytes.count {
      let body = offset + 8
      rectangles.append(
        (le24(body) * 2, le24(body + 3) * 2, le24(body + 6) + 1, le24(body + 9) + 1))
    }
    offset += 8 + size + size % 2
  }
  return rectangles
}
