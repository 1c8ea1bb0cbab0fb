import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// WebP input through libwebp: stills (lossy, lossless, alpha), the first frame of an
/// animation, the ICC profile, the header pixel limit, damaged files, and hexmask's own
/// WebP output read back. Fixtures: `Fixtures/webp/` (scripts/make-webp-fixtures.sh).
/// The first pixel where `a` and `b` differ, as "(x, y): a vs b"; nil when they are equal.
private func firstDifference(_ a: DecodedImage, _ b: DecodedImage) -> String? {
  guard a.width == b.width, a.height == b.height else {
    return "sizes \(a.width)×\(a.height) vs \(b.width)×\(b.height)"
  }
  for y in 0..<a.height {
    for x in 0..<a.width where a.pixel(x, y) != b.pixel(x, y) {
      return "(\(x), \(y)): \(a.pixel(x, y)) vs \(b.pixel(x, y))"
    }
  }
  return nil
}

@Suite struct WebPDecodingTests {
  /// Runs `body` on a read-only stdio stream over `bytes`.
  static func withStream<R>(_ bytes: [UInt8], _ body: (CFile) throws -> R) throws -> R {
    var copy = bytes
    return try copy.withUnsafeMutableBytes { buffer in
      guard let file = fmemopen(buffer.baseAddress, buffer.count, "rb") else {
        throw TestFileError(description: "fmemopen failed")
      }
      defer { fclose(file) }
      return try body(file)
    }
  }

  /// Every row of the picture in `bytes`, through `openDecoder`.
  static func decodeBytes(_ bytes: [UInt8], maxPixels: Int = 1 << 28) throws -> DecodedImage {
    try withStream(bytes) { file in try decode(file: file, maxPixels: maxPixels) }
  }

  /// The error `openDecoder` and reading every row throw for `bytes`, or nil.
  static func errorDecoding(_ bytes: [UInt8], maxPixels: Int = 1 << 28) throws -> ImageError? {
    try withStream(bytes) { file in
      thrownError { () throws(ImageError) in _ = try decode(file: file, maxPixels: maxPixels) }
    }
  }

  /// `openDecoder` on the fixture `name`, for its metadata and flags.
  static func decoder(_ name: String) throws -> any ImageDecoder {
    try withFile(Fixtures.path(name)) { file in try openDecoder(file: file, maxPixels: 1 << 28) }
  }

  @Test(arguments: [
    ("webp/lossless-alpha.webp", 32, 32, false), ("webp/lossless-rgb.webp", 32, 32, true),
    ("webp/lossy-photo.webp", 96, 65, true), ("webp/lossy-alpha.webp", 32, 32, false),
    ("webp/animated.webp", 32, 32, true), ("webp/icc-p3.webp", 32, 32, true),
    ("webp/exif-orientation-6.webp", 96, 65, true),
  ])
  func sizesAndOpacity(fixture: String, width: Int, height: Int, opaque: Bool) throws {
    let decoder = try Self.decoder(fixture)
    #expect(decoder.width == width && decoder.height == height, "\(fixture)")
    #expect(decoder.isOpaque == opaque, "\(fixture)")
    let image = try decodeFixture(fixture)
    #expect(image.pixels.count == width * height * 4)
    if opaque {
      #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
    }
  }

  @Test(arguments: [
    ("webp/lossless-alpha.webp", "pngsuite/basn6a08.png"),
    ("webp/lossless-rgb.webp", "pngsuite/basn2c08.png"),
  ])
  func losslessDecodesToTheSourcePNGsPixels(webp: String, png: String) throws {
    let decoded = try decodeFixture(webp)
    let source = try decodeFixture(png)
    #expect(decoded.width == source.width && decoded.height == source.height)
    #expect(firstDifference(decoded, source) == nil, "\(webp)")
    #expect(decoded.warnings.isEmpty)
  }

  @Test func lossyAlphaKeepsTheAlphaChannel() throws {
    let decoded = try decodeFixture("webp/lossy-alpha.webp")
    let source = try decodeFixture("pngsuite/basn6a08.png")
    var worstAlpha = 0
    for index in stride(from: 3, to: source.pixels.count, by: 4) {
      worstAlpha = max(worstAlpha, abs(Int(decoded.pixels[index]) - Int(source.pixels[index])))
    }
    // -alpha_q 100 stores alpha losslessly.
    #expect(worstAlpha == 0)
    #expect(
      Set(stride(from: 3, to: decoded.pixels.count, by: 4).map { decoded.pixels[$0] }).count > 2)
  }

  @Test func animatedOpensAsItsFirstFrame() throws {
    let decoder = try Self.decoder("webp/animated.webp")
    #expect(decoder.metadata.isAnimated)
    let decoded = try decodeFixture("webp/animated.webp")
    let firstFrame = try decodeFixture("pngsuite/basn2c08.png")
    #expect(firstDifference(decoded, firstFrame) == nil)
    #expect(decoded.warnings.isEmpty)

    // Through the library: a PNG of it moves, and strict input has nothing to refuse.
    var input = HexMask.Input()
    input.strict = true
    let png = try HexMask.render(try Fixtures.bytes("webp/animated.webp"), input: input)
    #expect((png.animation?.frames ?? 0) > 1)
    #expect(try Self.decodeBytes(png.bytes).width == 32)
  }

  @Test func iccProfileIsKeptByteForByte() throws {
    let profile = try Fixtures.bytes("webp/icc-p3.icc")
    #expect(profile.count == 548)
    #expect(try Self.decoder("webp/icc-p3.webp").metadata.iccProfile == profile)
    #expect(try Self.decoder("webp/lossy-photo.webp").metadata.iccProfile == nil)

    // And forwarded into the output, as for PNG and JPEG input.
    let png = try HexMask.render(try Fixtures.bytes("webp/icc-p3.webp")).bytes
    let forwarded = try Self.withStream(png) { file in
      try openDecoder(file: file, maxPixels: 1 << 28).metadata.iccProfile
    }
    #expect(forwarded == profile)
  }

  /// Browsers show WebP as stored, whatever an EXIF orientation says; so does hexmask.
  @Test func exifOrientationIsNotApplied() throws {
    let decoder = try Self.decoder("webp/exif-orientation-6.webp")
    #expect(decoder.metadata.exif == nil)
    #expect(
      try decodeFixture("webp/exif-orientation-6.webp") == decodeFixture("webp/lossy-photo.webp"))
    var output = HexMask.Output()
    output.size = nil
    let png = try HexMask.render(try Fixtures.bytes("webp/exif-orientation-6.webp"), output: output)
      .bytes
    #expect(try Self.decodeBytes(png).width == 65)
  }

  @Test(arguments: ["webp/lossy-photo.webp", "webp/lossless-alpha.webp", "webp/animated.webp"])
  func pixelLimitRefusesFromTheHeader(fixture: String) throws {
    let decoder = try Self.decoder(fixture)
    let pixels = decoder.width * decoder.height
    let error = try #require(try decodingError(fixture, maxPixels: pixels - 1))
    #expect(error.kind == .tooLarge)
    #expect(
      error.pixels
        == ImageError.PixelLimit(width: decoder.width, height: decoder.height, limit: pixels - 1))
    #expect(try decodingError(fixture, maxPixels: pixels) == nil)

    var input = HexMask.Input()
    input.maxPixels = pixels - 1
    var output = HexMask.Output()
    output.size = 8
    let bytes = try Fixtures.bytes(fixture)
    #expect(
      throws: HexMask.Error.decoding(
        .tooManyPixels(width: decoder.width, height: decoder.height, maxPixels: pixels - 1))
    ) {
      try HexMask.render(bytes, output: output, input: input).bytes
    }
    do {
      _ = try HexMask.render(bytes, output: output, input: input).bytes
    } catch {
      guard case .decoding(let error) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(error.kind == .tooLarge)
    }
  }

  /// A VP8X header claiming a 16384 × 16384 canvas, with no picture after it.
  @Test func hugeCanvasIsRefusedBeforeAnyPixelMemory() throws {
    var vp8x: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
    vp8x += [0xFF, 0x3F, 0x00, 0xFF, 0x3F, 0x00]  // width − 1, height − 1: 16383, 24 bits each
    let riffSize = UInt32(4 + vp8x.count)
    let file =
      Array("RIFF".utf8) + withUnsafeBytes(of: riffSize.littleEndian, Array.init)
      + Array("WEBP".utf8) + vp8x
    let error = try #require(try Self.errorDecoding(file, maxPixels: 268_402_689))
    #expect(error.kind == .tooLarge, "\(error)")
    #expect(error.pixels?.width == 16384 && error.pixels?.height == 16384)
  }

  @Test(arguments: [
    "webp/lossy-photo.webp", "webp/lossless-alpha.webp", "webp/lossy-alpha.webp",
    "webp/animated.webp", "webp/icc-p3.webp",
  ])
  func truncatedFilesAreTypedErrors(fixture: String) throws {
    let bytes = try Fixtures.bytes(fixture)
    for cut in [12, 20, 30, bytes.count / 2, bytes.count - 1] {
      let error = try #require(
        try Self.errorDecoding(Array(bytes.prefix(cut))), "\(fixture) cut at \(cut)")
      #expect(
        error.kind == .corrupt || error.kind == .unsupported, "\(fixture) at \(cut): \(error)")
      #expect(error.reason.contains("WebP") || error.reason.contains("image file"), "\(error)")
      #expect(!error.reason.contains("\n"))
    }
  }

  /// Flipped bytes past the header: decoded (lossy data may not notice) or refused in one
  /// line, never a crash.
  @Test(arguments: ["webp/lossy-photo.webp", "webp/lossless-alpha.webp", "webp/animated.webp"])
  func damagedFilesDecodeOrFailInOneLine(fixture: String) throws {
    let bytes = try Fixtures.bytes(fixture)
    var random = SplitMix64(seed: UInt64(bytes.count))
    var failures = 0
    for _ in 0..<40 {
      var damaged = bytes
      for _ in 0..<4 {
        let index = 12 + Int(random.next() % UInt64(bytes.count - 12))
        damaged[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
      }
      if let error = try Self.errorDecoding(damaged) {
        failures += 1
        #expect(!error.reason.isEmpty && !error.reason.contains("\n"), "\(error)")
        #expect(error.kind != .unreadable && error.kind != .writeFailed, "\(error)")
      }
    }
    #expect(failures > 0, "\(fixture): no damage was noticed")
  }

  /// hexmask writes WebP; it reads its own output back.
  @Test(arguments: [true, false])
  func ownWebPOutputReadsBack(lossless: Bool) throws {
    var output = HexMask.Output()
    output.kind = .webp(
      .init(quality: lossless ? .lossless : .lossy(HexMask.Output.defaultQuality)))
    let webp = try HexMask.render(try Fixtures.bytes("pngsuite/basn2c08.png"), output: output).bytes
    #expect(ImageFormat(sniffing: webp.prefix(ImageFormat.sniffLength)) == .webp)
    let decoded = try Self.decodeBytes(webp)
    #expect(decoded.width == 32 && decoded.height == 32)
    #expect(decoded.pixel(0, 0)[3] == 0)  // outside the shape
    #expect(decoded.pixel(16, 16)[3] == 255)  // inside it

    let png = try HexMask.render(webp).bytes
    #expect(png.starts(with: ImageFormat.pngSignature))
    let again = try Self.decodeBytes(png)
    #expect(again.width == 32 && again.height == 32)
    #expect(again.pixel(0, 0)[3] == 0)
    #expect(again.pixel(16, 16)[3] == 255)
    if lossless {
      let source = try decodeFixture("pngsuite/basn2c08.png")
      #expect(Array(decoded.pixel(16, 16).prefix(3)) == Array(source.pixel(16, 16).prefix(3)))
    }
  }

  static let otherHeads: [(head: [UInt8], name: String)] = [
    ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0], "TIFF"),
    ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], "TIFF"),
    (Array("BM".utf8) + [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], "BMP"),
  ]

  @Test(arguments: 0..<3)
  func otherFormatsAreNamed(index: Int) throws {
    let (head, name) = Self.otherHeads[index]
    let error = try #require(try Self.errorDecoding(head))
    #expect(error.kind == .unsupported)
    #expect(
      error.reason == "a \(name) file: hexmask reads PNG, JPEG, GIF, HEIC, AVIF, WebP and JPEG XL")
  }

  /// A GIF's header cut short is a GIF that cannot be read, not another format.
  @Test func truncatedGIFHeadsAreGIFs() throws {
    for head in [
      Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0], Array("GIF87a".utf8) + [1, 0, 1, 0],
    ] {
      let error = try #require(try Self.errorDecoding(head))
      #expect(error.reason.contains("GIF"), "\(error)")
      #expect(!error.reason.contains("hexmask reads"))
    }
  }

  /// A RIFF file that is not WebP (a WAV head) is not taken for one.
  @Test func riffThatIsNotWebPIsNotAWebP() throws {
    let wav = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0]
    let error = try #require(try Self.errorDecoding(wav))
    #expect(error.kind == .unsupported)
    #expect(!error.reason.contains("WebP:"))
  }
}
