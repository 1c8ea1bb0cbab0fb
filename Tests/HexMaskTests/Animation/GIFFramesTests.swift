import Foundation
import HexMask
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What GIFFrames made of a whole file.
struct DecodedGIF {
  struct Frame: Equatable {
    var sha: String
    var delay: Int
  }
  var width: Int
  var height: Int
  var loopCount: Int
  var frames: [Frame]
  var warnings: [String]
}

/// Generous limits, unless a test says otherwise.
struct GIFLimits {
  var maxPixels = 1 << 24
  var maxFrames = 1000
  var maxTotalPixels = 1 << 30
}

/// Decodes every frame of `bytes` (through a memory stream, so nothing seeks), the first
/// `prefix` bytes taken off first as the format sniffing does.
func decodeGIF(
  _ bytes: [UInt8], prefix: Int = 0, limits: GIFLimits = GIFLimits(), hashing: Bool = true,
  piped: Bool = false
) throws(ImageError) -> DecodedGIF {
  var result: Result<DecodedGIF, ImageError> = .failure(ImageError(.unreadable, "empty"))
  var copy = bytes.isEmpty ? [0] : bytes
  copy.withUnsafeMutableBytes { buffer in
    guard let file = piped ? pipeHolding(bytes) : fmemopen(buffer.baseAddress, bytes.count, "rb")
    else { return }
    defer { fclose(file) }
    result = Result { () throws(ImageError) in
      var head = [UInt8](repeating: 0, count: prefix)
      let got = fread(&head, 1, prefix, file)
      let frames = try GIFFrames(
        file: file, prefix: Array(head[..<got]), maxPixels: limits.maxPixels,
        maxFrames: limits.maxFrames, maxTotalPixels: limits.maxTotalPixels, memory: nil)
      var decoded = DecodedGIF(
        width: frames.canvasWidth, height: frames.canvasHeight, loopCount: 0, frames: [],
        warnings: [])
      while let frame = try frames.nextFrame() {
        #expect(frame.index == decoded.frames.count)
        #expect(frame.canvas.count == frames.canvasWidth * frames.canvasHeight * 4)
        decoded.frames.append(
          .init(
            sha: hashing ? sha256Hex(canonical(frame.canvas)) : "",
            delay: frame.delayMilliseconds))
      }
      #expect(try frames.nextFrame() == nil)
      decoded.loopCount = frames.loopCount
      decoded.warnings = frames.warnings.map(\.description)
      return decoded
    }
  }
  return try result.get()
}

/// A pipe that holds `bytes` (under 64 KiB, a pipe's buffer) and then ends: a stream that
/// cannot seek.
private func pipeHolding(_ bytes: [UInt8]) -> CFile? {
  var descriptors: [Int32] = [0, 0]
  guard bytes.count < 65536, pipe(&descriptors) == 0 else { return nil }
  let written = write(descriptors[1], bytes, bytes.count)
  close(descriptors[1])
  guard written == bytes.count else {
    close(descriptors[0])
    return nil
  }
  return fdopen(descriptors[0], "rb")
}

/// RGBA with the colour of fully transparent pixels zeroed, as scripts/browser_frames.py
/// hashes it.
private func canonical(_ rgba: UnsafeBufferPointer<UInt8>) -> [UInt8] {
  var pixels = Array(rgba)
  for alpha in stride(from: 3, to: pixels.count, by: 4) where pixels[alpha] == 0 {
    pixels[alpha - 3] = 0
    pixels[alpha - 2] = 0
    pixels[alpha - 1] = 0
  }
  return pixels
}

/// The rows of Fixtures/animation/gif-frames.tsv, by file.
private func referenceRows() throws -> [String: [[String]]] {
  let text = String(decoding: try Fixtures.bytes("animation/gif-frames.tsv"), as: UTF8.self)
  var rows: [String: [[String]]] = [:]
  for line in text.split(separator: "\n").dropFirst() {
    let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    rows[cells[0], default: []].append(cells)
  }
  return rows
}

/// A GIF by hand: `GIF89a`, a `width` × `height` screen with a 2-colour global table
/// (black, white), then `body`, then the trailer unless `trailer` is false.
private func handMadeGIF(width: Int = 2, height: Int = 2, body: [UInt8], trailer: Bool = true)
  -> [UInt8]
{
  Array("GIF89a".utf8) + [
    UInt8(width & 255), UInt8(width >> 8), UInt8(height & 255), UInt8(height >> 8), 0x80, 0, 0,
    0, 0, 0, 255, 255, 255,
  ] + body + (trailer ? [0x3B] : [])
}

/// An image descriptor at `left`, `top` of `width` × `height`, no local table.
private func descriptor(left: Int = 0, top: Int = 0, width: Int, height: Int) -> [UInt8] {
  [0x2C] + [left, top, width, height].flatMap { [UInt8($0 & 255), UInt8($0 >> 8)] } + [0]
}

/// Valid LZW data for a frame of 4 pixels of index 0 (minimum code size 2): clear, 0, 0,
/// 0, 0, end, as giflib's own encoder writes it.
private let fourBlackPixels: [UInt8] = [0x02, 0x02, 0x84, 0x51, 0x00]

@Suite struct GIFFramesTests {
  /// Every fixture, every frame: the composited canvas, the delay and the loop count are
  /// Chromium's (WebCodecs' ImageDecoder, stored in gif-frames.tsv by
  /// scripts/gif_references.py), with its "10 ms or less plays as 100 ms" rule applied;
  /// and a file Chromium refuses, hexmask refuses with one line.
  @Test(arguments: Fixtures.names(in: "animation") { $0.hasSuffix(".gif") })
  func framesAreChromiums(name: String) throws {
    let rows = try #require(try referenceRows()[name], "no reference for \(name)")
    let bytes = try Fixtures.bytes("animation/" + name)
    if rows.first?[1] == "error" {
      let error = thrownError { () throws(ImageError) in _ = try decodeGIF(bytes) }
      #expect(error?.kind == .corrupt, "Chromium refuses \(name): \(rows[0][2])")
      #expect(error.map { isOneLine($0.reason) } == true)
      return
    }
    let decoded = try decodeGIF(bytes)
    #expect(decoded.frames.count == rows.count)
    for (frame, row) in zip(decoded.frames, rows) {
      #expect("\(decoded.width)" == row[2] && "\(decoded.height)" == row[3], "frame \(row[1])")
      #expect(frame.sha == row[6], "frame \(row[1]) of \(name)")
      let stored = try #require(Int(row[4]))
      #expect(frame.delay == (stored <= 10 ? 100 : stored), "frame \(row[1]) of \(name)")
    }
    // A still picture's loop count means nothing (WebCodecs says "forever" for one).
    let repetitions = try #require(rows.first?[5])
    #expect(
      rows.count == 1
        || decoded.loopCount == (repetitions == "inf" ? 0 : (Int(repetitions) ?? -9) + 1))
    // Only the files that end early or in junk, as their names say, have a warning.
    #expect(decoded.warnings.isEmpty != (name.contains("trailer") || name.contains("garbage")))
  }

  @Test func everyKindOfFixtureIsThere() throws {
    let rows = try referenceRows()
    #expect(rows.count == Fixtures.names(in: "animation") { $0.hasSuffix(".gif") }.count)
    #expect(rows.values.filter { $0.first?[1] == "error" }.count >= 4)
    #expect(rows.values.map(\.count).reduce(0, +) >= 60)
  }

  /// The reference is not one decoder's opinion: on the files made by ImageMagick and
  /// gifsicle, ImageMagick's -coalesce agrees with Chromium on every frame except those
  /// whose first frame reaches past the screen (ImageMagick clips it; Chromium grows the
  /// canvas). On the hand-made edge cases they differ, and Chromium decides.
  @Test func imageMagickAgreesWithChromiumElsewhere() throws {
    for (name, rows) in try referenceRows() where !name.hasPrefix("edge-") {
      for row in rows {
        if name == "first-frame-outside.gif" {
          #expect(row[7].hasPrefix("size"))
        } else {
          #expect(row[7] == row[6], "\(name) frame \(row[1])")
        }
      }
    }
  }

  /// The bytes the format sniffing took off are read first: the same frames.
  @Test func sniffedBytesAreReadFirst() throws {
    let bytes = try Fixtures.bytes("animation/mixed-disposal.gif")
    let whole = try decodeGIF(bytes)
    for prefix in [1, 6, 8, 13] {
      let sniffed = try decodeGIF(bytes, prefix: prefix)
      #expect(sniffed.frames.map(\.sha) == whole.frames.map(\.sha))
    }
  }

  /// Chromium ignores a GIF's ICC profile (its frames of icc-p3.gif are the same with and
  /// without colour conversion), so hexmask does not hand it on either.
  @Test func colourProfileIsIgnored() throws {
    let bytes = try Fixtures.bytes("animation/icc-p3.gif")
    #expect(bytes.count > 548)  // the profile is in the file
    let metadata = try withFile(Fixtures.path("animation/icc-p3.gif")) { file in
      try GIFFrames(
        file: file, maxPixels: 1 << 20, maxFrames: 10, maxTotalPixels: 1 << 20, memory: nil
      )
      .metadata
    }
    #expect(metadata.iccProfile == nil)
  }

  @Test func interlacedRowsCoverEveryRowOnce() {
    for height in 1...40 {
      let rows = (0..<height).map { interlacedRow($0, height: height) }
      #expect(rows.sorted() == Array(0..<height), "height \(height)")
    }
    #expect((0..<10).map { interlacedRow($0, height: 10) } == [0, 8, 4, 2, 6, 1, 3, 5, 7, 9])
  }

  @Test func delaysAsBrowsersPlayThem() throws {
    // Stored 0, 1 and 2 centiseconds.
    let frame = { (delay: UInt8) -> [UInt8] in
      [0x21, 0xF9, 4, 0, delay, 0, 0, 0] + descriptor(width: 2, height: 2) + fourBlackPixels
    }
    let decoded = try decodeGIF(handMadeGIF(body: frame(0) + frame(1) + frame(2)))
    #expect(decoded.frames.map(\.delay) == [100, 100, 20])
  }

  // MARK: Limits

  /// A 65-byte GIF that claims a 65535 × 65535 screen is refused from its header.
  @Test func hugeScreenIsRefusedFromTheHeader() throws {
    var bytes = handMadeGIF(width: 65535, height: 65535, body: descriptor(width: 2, height: 2))
    bytes += [UInt8](repeating: 0, count: 65 - bytes.count)
    #expect(bytes.count == 65)
    let error = try #require(thrownError { () throws(ImageError) in _ = try decodeGIF(bytes) })
    #expect(error.kind == .tooLarge)
    #expect(error.pixels?.width == 65535 && error.pixels?.height == 65535)
    #expect(error.pixels?.limit == GIFLimits().maxPixels)
  }

  /// A later frame that claims 65535 × 65535 (clipped to nothing on a 2 × 2 canvas, but
  /// seconds of LZW work) is refused before its pixels are read.
  @Test func hugeFrameIsRefused() throws {
    let bytes = handMadeGIF(
      body: descriptor(width: 2, height: 2) + fourBlackPixels
        + descriptor(left: 1, top: 1, width: 65535, height: 65535) + fourBlackPixels)
    let error = try #require(thrownError { () throws(ImageError) in _ = try decodeGIF(bytes) })
    #expect(error.kind == .tooLarge)
    #expect(error.pixels?.width == 65535)
  }

  @Test func frameLimits() throws {
    let bytes = try Fixtures.bytes("animation/mixed-disposal.gif")
    let all = try decodeGIF(bytes).frames.count
    #expect(all == 7)
    var limits = GIFLimits()
    limits.maxFrames = all
    #expect(try decodeGIF(bytes, limits: limits).frames.count == all)
    limits.maxFrames = all - 1
    let tooMany = thrownError { () throws(ImageError) in _ = try decodeGIF(bytes, limits: limits) }
    #expect(tooMany?.kind == .tooLarge)
    #expect(tooMany?.reason == "more frames than the limit of \(all - 1)")
    #expect(tooMany?.animation == .frames(limit: all - 1))
    // Pixels over all frames: 24 × 20 each.
    limits = GIFLimits()
    limits.maxTotalPixels = 24 * 20 * all
    #expect(try decodeGIF(bytes, limits: limits).frames.count == all)
    limits.maxTotalPixels -= 1
    let tooLarge = thrownError { () throws(ImageError) in _ = try decodeGIF(bytes, limits: limits) }
    #expect(tooLarge?.kind == .tooLarge)
    #expect(tooLarge?.animation == .pixelsInAll(limit: 24 * 20 * all - 1))
    #expect(
      tooLarge?.reason
        == "\(all) frames of 24×20 are more than the limit of \(24 * 20 * all - 1) pixels over "
        + "all frames")
    // The frames the file holds are counted first, up to the first over a limit: a limit
    // below one frame is refused at the first, before any is drawn, from memory and from
    // a pipe alike.
    limits.maxTotalPixels = 24 * 20 - 1
    for piped in [false, true] {
      let first = thrownError { () throws(ImageError) in
        _ = try decodeGIF(bytes, limits: limits, piped: piped)
      }
      #expect(
        first?.reason == "1 frame of 24×20 is more than the limit of 479 pixels over all frames")
    }
    limits = GIFLimits()
    limits.maxPixels = 24 * 20 - 1
    let frame = thrownError { () throws(ImageError) in _ = try decodeGIF(bytes, limits: limits) }
    // One frame's pixels are --max-pixels' own limit, not an animation's.
    #expect(frame?.kind == .tooLarge && frame?.pixels != nil && frame?.animation == nil)
  }

  /// Memory follows the canvas, not the frame count: giflib keeps a record of every frame
  /// it reads (with a copy of its local colour table) unless it is dropped, as GIFFrames
  /// does after each frame. 2,000 frames with 256-colour local tables leave none held.
  /// (The resident size is not measured: other suites run in the same process.)
  @Test func giflibHoldsNoFrameRecords() throws {
    let localTable = [UInt8]((0..<768).map { UInt8(truncatingIfNeeded: $0) })
    var frame = descriptor(width: 2, height: 2)
    frame[frame.count - 1] = 0x87  // a local table of 256 colours follows
    // Its pixels, 8-bit indices: clear (256), 1, 1, 1, 1, end (257); 9 bits each.
    frame += localTable + lzw9([256, 1, 1, 1, 1, 257])
    var body: [UInt8] = []
    body.reserveCapacity(frame.count * 2000)
    for _ in 0..<2000 { body.append(contentsOf: frame) }
    var held: [Int] = []
    var result: Result<Int, ImageError> = .success(0)
    var copy = handMadeGIF(width: 64, height: 64, body: body)
    copy.withUnsafeMutableBytes { buffer in
      guard let file = fmemopen(buffer.baseAddress, buffer.count, "rb") else { return }
      defer { fclose(file) }
      result = Result { () throws(ImageError) in
        let frames = try GIFFrames(
          file: file, maxPixels: 1 << 20, maxFrames: 20_000, maxTotalPixels: 1 << 40, memory: nil)
        var count = 0
        while try frames.nextFrame() != nil {
          count += 1
          held.append(frames.heldFrameRecords)
        }
        return count
      }
    }
    #expect(try result.get() == 2000)
    #expect(held.max() == 0)
  }

  /// The canvas and its copy for "restore to previous" (8 bytes a pixel) come from the
  /// memory budget; a budget they can never fit refuses the file from its header.
  @Test func memoryBudget() throws {
    let path = Fixtures.path("animation/mixed-disposal.gif")
    let open = { (limit: Int) throws -> ImageError? in
      try withFile(path) { file in
        thrownError { () throws(ImageError) in
          _ = try GIFFrames(
            file: file, maxPixels: 1 << 20, maxFrames: 10, maxTotalPixels: 1 << 20,
            memory: HexMask.MemoryBudget(limit: limit))
        }
      }
    }
    #expect(try open(24 * 20 * 12) == nil)
    let error = try open(24 * 20 * 12 - 1)
    #expect(error?.kind == .tooLarge)
    #expect(error?.memory?.needed == 24 * 20 * 12)
  }

  /// A read error is told from a file that ends early.
  @Test func readErrorIsUnreadable() throws {
    let error = try withFile(NSTemporaryDirectory()) { file in
      thrownError { () throws(ImageError) in
        _ = try GIFFrames(
          file: file, maxPixels: 1 << 20, maxFrames: 10, maxTotalPixels: 1 << 20, memory: nil)
      }
    }
    #expect(error?.kind == .unreadable)
    #expect(error?.reason.hasPrefix("read error in the header: ") == true)
  }

  // MARK: Hostile files

  /// Cut anywhere, the file is either refused with one line, or (cut exactly between
  /// whole frames) gives those frames, the same as the whole file's, and a warning.
  @Test func truncatedAnywhere() throws {
    let bytes = try Fixtures.bytes("animation/mixed-disposal.gif")
    let whole = try decodeGIF(bytes)
    var refused = 0
    var accepted: [Int] = []
    for length in 0..<bytes.count {
      do {
        let cut = try decodeGIF(Array(bytes[..<length]))
        #expect(cut.frames.count <= whole.frames.count, "length \(length)")
        #expect(cut.frames.count > 0)
        accepted.append(length)
        #expect(cut.frames.map(\.sha) == whole.frames.prefix(cut.frames.count).map(\.sha))
        #expect(cut.warnings == ["the GIF ends without its trailer byte"], "length \(length)")
      } catch {
        refused += 1
        #expect(isOneLine(error.reason), "length \(length): \(error.reason)")
        #expect(error.kind == .corrupt, "length \(length): \(error.reason)")
      }
    }
    // Accepted: the cuts just before each later frame's control extension and just
    // before its descriptor (every frame after the first has both), and the trailer.
    #expect(accepted.count == 2 * (whole.frames.count - 1) + 1, "\(accepted)")
    #expect(accepted.last == bytes.count - 1)
    // Cut inside the last frame's pixels, after six frames decoded: refused whole.
    let error = thrownError { () throws(ImageError) in
      _ = try decodeGIF(Array(bytes[..<(bytes.count - 4)]))
    }
    #expect(error?.reason == "truncated GIF: unexpected end of file in frame 6")
  }

  @Test func badLZWCodeIsRefused() throws {
    // Minimum code size 2: code 7 before the table has 6 entries.
    let bytes = handMadeGIF(body: descriptor(width: 2, height: 2) + [0x02, 0x02, 0xFF, 0xFF, 0x00])
    let error = try #require(thrownError { () throws(ImageError) in _ = try decodeGIF(bytes) })
    #expect(error.kind == .corrupt)
    #expect(isOneLine(error.reason))
  }

  @Test func gifWithoutFramesIsRefused() throws {
    let error = try #require(
      thrownError { () throws(ImageError) in _ = try decodeGIF(handMadeGIF(body: [])) })
    #expect(error == ImageError(.corrupt, "a GIF without frames"))
  }

  /// Chromium clips a later frame to the canvas, even one wholly outside it: such a frame
  /// changes nothing, and is still a frame (with its delay).
  @Test func frameOutsideTheCanvasChangesNothing() throws {
    let bytes = handMadeGIF(
      body: descriptor(width: 2, height: 2) + fourBlackPixels
        + descriptor(left: 40, top: 40, width: 2, height: 2) + fourBlackPixels)
    let decoded = try decodeGIF(bytes)
    #expect(decoded.frames.count == 2)
    #expect(decoded.frames[0].sha == decoded.frames[1].sha)
    #expect(decoded.width == 2 && decoded.height == 2)
  }

  /// A comment of 4000 blocks (1 MB) is skipped block by block; one that runs to the end
  /// of the file is a truncated GIF.
  @Test func hugeExtension() throws {
    let blocks = [UInt8]((0..<4000).flatMap { _ in [255] + [UInt8](repeating: 0x41, count: 255) })
    let comment: [UInt8] = [0x21, 0xFE] + blocks + [0]
    let frame = descriptor(width: 2, height: 2) + fourBlackPixels
    #expect(try decodeGIF(handMadeGIF(body: comment + frame)).frames.count == 1)
    let endless = handMadeGIF(body: frame + [0x21, 0xFE] + blocks, trailer: false)
    let error = thrownError { () throws(ImageError) in _ = try decodeGIF(endless) }
    #expect(error?.reason == "truncated GIF: unexpected end of file after frame 0")
  }

  @Test func shortGraphicControlIsRefused() throws {
    let bytes = handMadeGIF(
      body: [0x21, 0xF9, 2, 0, 0, 0] + descriptor(width: 2, height: 2) + fourBlackPixels)
    let error = thrownError { () throws(ImageError) in _ = try decodeGIF(bytes) }
    #expect(error?.kind == .corrupt)
    #expect(error.map { isOneLine($0.reason) } == true)
  }

  /// Seeded byte mutations of one fixture: every one decodes or is refused with one line;
  /// none traps or hangs.
  @Test func mutationsNeverTrap() throws {
    let original = try Fixtures.bytes("animation/mixed-disposal.gif")
    var random = SplitMix64(seed: 0x6_1F)
    var limits = GIFLimits()
    limits.maxPixels = 1 << 20
    limits.maxFrames = 64
    limits.maxTotalPixels = 1 << 24
    var outcomes = (decoded: 0, refused: 0)
    for _ in 0..<600 {
      var bytes = original
      for _ in 0..<random.int(in: 1...6) {
        let at = random.int(in: 0...(bytes.count - 1))
        switch random.int(in: 0...3) {
        case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
        case 1: bytes[at] ^= UInt8(1 << random.int(in: 0...7))
        case 2: bytes[at] = [0, 255, 0x21, 0x2C, 0x3B][random.int(in: 0...4)]
        default: bytes.removeSubrange(at..<min(bytes.count, at + random.int(in: 1...40)))
        }
        if bytes.count < 2 { break }
      }
      do {
        _ = try decodeGIF(bytes, limits: limits, hashing: false)
        outcomes.decoded += 1
      } catch {
        outcomes.refused += 1
        #expect(isOneLine(error.reason), "\(error.reason)")
      }
    }
    #expect(outcomes.decoded > 0 && outcomes.refused > 0)
  }
}

/// LZW codes of 9 bits packed least significant bit first, as one data block after the
/// minimum code size 8, then the block terminator.
private func lzw9(_ codes: [Int]) -> [UInt8] {
  let packed = ContainerFiles.nineBitCodes(codes)
  return [8, UInt8(packed.count)] + packed + [0]
}

private func isOneLine(_ reason: String) -> Bool {
  !reason.isEmpty && !reason.contains("\n") && reason.first?.isUppercase == false
    && !reason.hasSuffix(".")
}
