import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// JXLWriter read back through hexmask's own JPEG XL reader (libjxl's decoder): lossless
/// keeps every byte, lossy stays close, animations keep frames, delays and plays, the bytes
/// are the same every time, the mark is where the file guard looks, and bad arguments are
/// errors.
@Suite struct JXLWriterTests {
  /// A `side`² picture of noise and gradients with every alpha, from `seed`.
  static func picture(side: Int, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    var pixels = [UInt8](repeating: 0, count: side * side * 4)
    for y in 0..<side {
      for x in 0..<side {
        let base = (y * side + x) * 4
        pixels[base] = UInt8(truncatingIfNeeded: x * 255 / max(1, side - 1))
        pixels[base + 1] = UInt8(truncatingIfNeeded: y * 255 / max(1, side - 1))
        pixels[base + 2] = UInt8.random(in: 0...255, using: &random)
        pixels[base + 3] = [0, 255, UInt8(truncatingIfNeeded: x * 7 + y)][(x + y) % 3]
      }
    }
    return pixels
  }

  /// What a writer made with `make` writes for these frames (one: a still; more, or a
  /// `loop`: an animation).
  static func write(
    _ frames: [[UInt8]], side: Int, quality: HexMask.Output.Quality = .lossless,
    loop: Int? = nil, delays: [Int]? = nil, profile: [UInt8]? = nil, mark: Bool = true
  ) throws -> [UInt8] {
    try withTemporaryFolder { url in
      let path = url.path + "/o.jxl"
      try withFile(path, mode: "wb") { file in
        let writer = try JXLWriter(
          file: file, width: side, height: side, quality: quality, iccProfile: profile,
          animation: loop, mark: mark)
        if let loop {
          for (index, frame) in frames.enumerated() {
            try frame.withUnsafeBufferPointer {
              try writer.addFrame($0, delayMilliseconds: delays?[index] ?? 100)
            }
          }
          try writer.finish(loopCount: loop)
        } else {
          for row in 0..<side {
            try frames[0][(row * side * 4)..<((row + 1) * side * 4)].withUnsafeBufferPointer {
              try writer.writeRow($0)
            }
          }
          try writer.finish()
        }
      }
      return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }
  }

  /// Pixels equal as they are seen: where alpha is 0, colour is anyone's choice.
  static func sameAsSeen(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    for base in stride(from: 0, to: a.count, by: 4) {
      guard a[base + 3] == b[base + 3] else { return false }
      if a[base + 3] == 0 { continue }
      for channel in 0..<3 where a[base + channel] != b[base + channel] { return false }
    }
    return true
  }

  /// 1 to 400 a side: the last is noise of about 600 kB, past the first reads of the file
  /// (a reader that stopped at the last frame's header said "truncated" past 256 KiB).
  @Test(arguments: [1, 7, 64, 129, 400])
  func losslessKeepsEveryVisibleByte(side: Int) throws {
    var pixels = Self.picture(side: side, seed: UInt64(side))
    if side == 400 {  // noise in every sample: about 600 kB
      var random = SplitMix64(seed: 400)
      for index in pixels.indices where index % 4 != 3 {
        pixels[index] = UInt8.random(in: 0...255, using: &random)
      }
    }
    let bytes = try Self.write([pixels], side: side)
    if side == 400 { #expect(bytes.count > 300_000) }
    let image = try WebPDecodingTests.decodeBytes(bytes)
    #expect(image.width == side && image.height == side)
    #expect(Self.sameAsSeen(image.pixels, pixels))
  }

  @Test func lossyStaysCloseAndKeepsAlpha() throws {
    let side = 96
    let pixels = Self.picture(side: side, seed: 5)
    for quality in [30, 90, 100] {
      let bytes = try Self.write([pixels], side: side, quality: .lossy(quality))
      let image = try WebPDecodingTests.decodeBytes(bytes)
      let difference = JXLDecodingTests.meanDifference(
        DecodedImage(width: side, height: side, pixels: pixels), image)
      #expect(difference < (quality >= 90 ? 7 : 20), "quality \(quality): \(difference)")
      let alphaOff = stride(from: 3, to: pixels.count, by: 4).map {
        abs(Int(pixels[$0]) - Int(image.pixels[$0]))
      }.max()
      // libjxl 0.7 codes lossy alpha at the colour's distance (it has no distance of its
      // own for it): on this noise, within 16 levels at 90 (an avatar's edge: 10).
      #expect((alphaOff ?? 99) <= (quality >= 90 ? 16 : 80), "quality \(quality)")
    }
  }

  /// Fewer bytes for a lower quality, and the distance libjxl gets is cjxl's for its -q.
  @Test func qualityIsCjxlsScale() throws {
    #expect(JXLWriter.distance(quality: 90) == 1)
    #expect(JXLWriter.distance(quality: 100) == 0)
    #expect(abs(JXLWriter.distance(quality: 99) - 0.19) < 1e-6)
    #expect(abs(JXLWriter.distance(quality: 30) - 6.4) < 1e-5)
    // Quality 100 is lossless, as cjxl's -q 100.
    let pixels100 = Self.picture(side: 33, seed: 12)
    let hundred = try Self.write([pixels100], side: 33, quality: .lossy(100))
    #expect(Self.sameAsSeen(try WebPDecodingTests.decodeBytes(hundred).pixels, pixels100))
    // Strictly finer from 5 up; 1…4 are all libjxl's coarsest distance, 25.
    let distances = (5...100).map(JXLWriter.distance(quality:))
    #expect(zip(distances, distances.dropFirst()).allSatisfy { $0 > $1 })
    #expect((1...4).allSatisfy { JXLWriter.distance(quality: $0) == 25 })
    let pixels = Self.picture(side: 64, seed: 9)
    let sizes = try [40, 70, 95].map {
      try Self.write([pixels], side: 64, quality: .lossy($0)).count
    }
    #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2], "\(sizes)")
  }

  /// Frames, delays and plays come back as written, in any number and with any loop.
  @Test(arguments: [(2, 0), (5, 3), (1, 1)])
  func animationKeepsFramesDelaysAndPlays(count: Int, loop: Int) throws {
    let side = 40
    let frames = (0..<count).map { Self.picture(side: side, seed: UInt64(100 + $0)) }
    let delays = (0..<count).map { 20 + $0 * 30 }
    let bytes = try Self.write(frames, side: side, loop: loop, delays: delays)
    let read = try JXLAnimationTests.frames(bytes)
    #expect(read.frames.count == count)
    for (index, (a, b)) in zip(read.frames, frames).enumerated() {
      #expect(Self.sameAsSeen(a, b), "frame \(index)")
    }
    #expect(read.delays == delays)
    #expect(read.loop == loop)
  }

  /// A JPEG XL may play 2^32 − 1 times; an APNG holds at most 2^31 − 1 plays, a WebP 65535:
  /// each writes its most, with a warning, instead of failing.
  @Test func morePlaysThanTheOutputHoldsAreItsMost() throws {
    let frames = [Self.picture(side: 16, seed: 20), Self.picture(side: 16, seed: 21)]
    let bytes = try Self.write(frames, side: 16, loop: 0xFFFF_FFFF)
    #expect(try JXLAnimationTests.frames(bytes).loop == 0xFFFF_FFFF)
    for (format, most) in [(HexMask.OutputFormat.png, 0x7FFF_FFFF), (.webp, 0xFFFF)] {
      var output = HexMask.Output()
      output.kind = .init(format)
      let rendered = try HexMask.render(bytes, output: output)
      #expect(rendered.warnings.map(\.kind) == [.fewerPlays], "\(format)")
      #expect(try JXLAnimationTests.frames(rendered.bytes).loop == most, "\(format)")
    }
  }

  @Test func theSameInputGivesTheSameBytes() throws {
    let pixels = Self.picture(side: 48, seed: 2)
    for quality in [HexMask.Output.Quality.lossless, .lossy(85)] {
      let first = try Self.write([pixels], side: 48, quality: quality)
      #expect(try Self.write([pixels], side: 48, quality: quality) == first)
    }
    let frames = [pixels, Self.picture(side: 48, seed: 3)]
    let animation = try Self.write(frames, side: 48, quality: .lossy(80), loop: 0)
    #expect(try Self.write(frames, side: 48, quality: .lossy(80), loop: 0) == animation)
  }

  /// The mark is a `free` box of the container, where the file guard looks; without it
  /// the file is a bare codestream that libjxl reads the same.
  @Test func theMarkIsAContainerBox() throws {
    let pixels = Self.picture(side: 16, seed: 4)
    let marked = try Self.write([pixels], side: 16)
    let bare = try Self.write([pixels], side: 16, mark: false)
    #expect(HexMaskMark.isPresent(in: marked))
    #expect(!HexMaskMark.isPresent(in: bare))
    #expect(marked.starts(with: ImageFormat.jxlContainerSignature))
    #expect(bare.starts(with: ImageFormat.jxlCodestreamSignature))
    let a = try WebPDecodingTests.decodeBytes(marked)
    let b = try WebPDecodingTests.decodeBytes(bare)
    #expect(a.pixels == b.pixels)
    // The box appended to another tool's file (cjxl's container) is no mark: hexmask's is
    // right after `ftyp`.
    let text = HexMaskMark.text
    let appended =
      try Fixtures.bytes("jxl/recompressed.jxl") + [0, 0, 0, UInt8(8 + text.count)]
      + Array("free".utf8) + text
    #expect(!HexMaskMark.isPresent(in: appended))
    // The word elsewhere (a box of another type) is no mark.
    var other = marked
    if let at = other.firstRange(of: Array("free".utf8)) {
      other.replaceSubrange(at, with: Array("skip".utf8))
    }
    #expect(!HexMaskMark.isPresent(in: other))
  }

  /// An RGB profile is written and read back; a gray one is left out with a warning.
  @Test func theProfileIsKept() throws {
    let profile = try Fixtures.bytes("icc/DisplayP3.icc")
    let pixels = Self.picture(side: 16, seed: 6)
    let bytes = try Self.write([pixels], side: 16, profile: profile)
    let decoder = try withBytesFile(bytes) { file in try openDecoder(file: file, maxPixels: 1 << 20)
    }
    #expect(decoder.metadata.iccProfile == profile)
    let gray = try Fixtures.bytes("icc/Gray-CIE_L.icc")
    try withTemporaryFolder { url in
      try withFile(url.path + "/g.jxl", mode: "wb") { file in
        let writer = try JXLWriter(file: file, width: 1, height: 1, iccProfile: gray)
        #expect(writer.warnings.map(\.kind) == [.profileNotWritten])
      }
    }
  }

  @Test func badArgumentsAreRefused() throws {
    try withTemporaryFolder { url in
      try withFile(url.path + "/x.jxl", mode: "wb") { file in
        for (width, quality, effort) in [
          (0, HexMask.Output.Quality.lossless, 7), (JXLWriter.maximumSide + 1, .lossless, 7),
          (8, .lossy(0), 7), (8, .lossy(101), 7), (8, .lossless, 10), (8, .lossless, -1),
        ] {
          let error = thrownError { () throws(ImageError) in
            _ = try JXLWriter(
              file: file, width: width, height: 8, quality: quality, effort: effort)
          }
          #expect(error?.kind == .writeFailed, "\(width) \(quality) \(effort)")
        }
        let still = try JXLWriter(file: file, width: 2, height: 2)
        let error = thrownError { () throws(ImageError) in try still.finish() }
        #expect(error?.reason == "only 0 of 2 rows were written")
        let animation = try JXLWriter(file: file, width: 2, height: 2, animation: 0)
        let empty = thrownError { () throws(ImageError) in try animation.finish(loopCount: 0) }
        #expect(empty?.kind == .writeFailed)
        let fifteen = [UInt8](repeating: 0, count: 15)
        let short = thrownError { () throws(ImageError) in
          try fifteen.withUnsafeBufferPointer { buffer throws(ImageError) in
            try animation.addFrame(buffer, delayMilliseconds: 10)
          }
        }
        #expect(short?.kind == .writeFailed)
      }
    }
  }

  /// A full disk is an error, not a short file called written.
  @Test func aFullDiskIsAnError() throws {
    let pixels = Self.picture(side: 64, seed: 8)
    let error = try withFile("/dev/full", mode: "wb") { file in
      thrownError { () throws(ImageError) in
        let writer = try JXLWriter(file: file, width: 64, height: 64)
        for row in 0..<64 {
          try pixels[(row * 256)..<((row + 1) * 256)].withUnsafeBufferPointer {
            buffer throws(ImageError) in try writer.writeRow(buffer)
          }
        }
        try writer.finish()
      }
    }
    #expect(error?.kind == .writeFailed)
  }
}
