import Foundation
import TestSupport
import Testing

@testable import HexMask

/// `HexMask.render(_ bytes:).bytes` keeps the file API's protections: the pixel limit is checked
/// from the header before any pixel memory, and anything that is not a picture is a typed
/// error with a one-line reason.
@Suite struct BytesInputTests {
  /// `bytes` rendered with `maxPixels`, as a result.
  static func render(
    _ bytes: [UInt8], maxPixels: Int = HexMask.Input.defaultMaxPixels, strict: Bool = false
  ) -> Result<[UInt8], HexMask.Error> {
    var input = HexMask.Input()
    input.maxPixels = maxPixels
    input.strict = strict
    var output = HexMask.Output()
    output.size = 8  // within every limit used here: the limit bounds the output too
    return Result(catching: { () throws(HexMask.Error) -> [UInt8] in
      try HexMask.render(bytes, output: output, input: input).bytes
    })
  }

  /// The `ImageError` of a failed decoding, nil for a success or another stage.
  static func decodingError(_ result: Result<[UInt8], HexMask.Error>) -> ImageError? {
    if case .failure(.decoding(let error)) = result { error } else { nil }
  }

  @Test(arguments: [
    ("pngsuite/basn2c08.png", 32 * 32), ("pngsuite/basi0g08.png", 32 * 32),
    ("jpeg/testorig.jpg", 227 * 149), ("jpeg/jpg-progressive.jpg", 0),
  ])
  func pixelLimitIsCheckedThroughBytes(fixture: String, knownPixels: Int) throws {
    let bytes = try Fixtures.bytes(fixture)
    let decoder = try withFile(Fixtures.path(fixture)) { file in
      try openDecoder(file: file, maxPixels: 1 << 28)
    }
    let pixels = decoder.width * decoder.height
    if knownPixels > 0 { #expect(pixels == knownPixels) }

    // One pixel over the limit: refused as too large.
    let refused = Self.render(bytes, maxPixels: pixels - 1)
    let error = try #require(Self.decodingError(refused), "\(fixture): \(refused)")
    #expect(error.kind == .tooLarge, "\(fixture): \(error)")
    #expect(!error.reason.isEmpty && !error.reason.contains("\n"))

    // Exactly at the limit: rendered.
    let accepted = Self.render(bytes, maxPixels: pixels)
    #expect((try? accepted.get())?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
  }

  /// Headers over no pixel data at all, two claiming billions of pixels: refused from the
  /// header (as too large, not as truncated or corrupt), before memory for them is asked for.
  @Test func giantHeadersAreRefusedBeforeDecoding() throws {
    let jpeg = try jpegHeaderOnly(try Fixtures.bytes("jpeg/testorig.jpg"))
    let cases: [(String, [UInt8], Int)] = [
      ("PNG 100000²", headerOnlyPNG(width: 100_000, height: 100_000), Int(1e10)),
      ("PNG 65536 × 1 under a 1000 limit", headerOnlyPNG(width: 65536, height: 1), 65536),
      ("JPEG 227 × 149 under a 1000 limit", jpeg.bytes, 227 * 149),
      ("JPEG 60000²", jpeg.resized(width: 60000, height: 60000), 3_600_000_000),
    ]
    for (name, bytes, pixels) in cases {
      let limit = pixels > HexMask.Input.defaultMaxPixels ? HexMask.Input.defaultMaxPixels : 1000
      let refused = Self.render(bytes, maxPixels: limit)
      #expect(
        Self.decodingError(refused)?.kind == .tooLarge, "\(name): \(refused)")
    }
    // Under a higher limit the same header-only JPEG gets as far as its missing data (a
    // warning, refused in strict mode): the refusals above came before any pixel was read.
    let truncated = Self.render(jpeg.bytes, maxPixels: 1 << 28, strict: true)
    guard case .failure(.warningInStrictMode(let warning)) = truncated else {
      Issue.record("the header-only JPEG gave \(truncated)")
      return
    }
    #expect(warning.kind == .damagedInput)
    #expect(!warning.description.isEmpty && !warning.description.contains("\n"))
  }

  @Test func emptyBytesGiveATypedError() {
    let empty = Self.render([])
    #expect(Self.decodingError(empty)?.kind == .unreadable, "\(empty)")
  }

  /// Bytes that are no picture, or only the start of one: a decoding error, one line each.
  @Test(
    arguments: [
      [0x00], [0x89], [0x89, 0x50, 0x4E, 0x47], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
      [0xFF, 0xD8], [0xFF, 0xD8, 0xFF], Array("GIF89a".utf8), Array("<svg/>\n".utf8),
      [UInt8](repeating: 0, count: 4096),
    ] as [[UInt8]])
  func nonPicturesGiveTypedErrors(bytes: [UInt8]) {
    let rendered = Self.render(bytes)
    let error = Self.decodingError(rendered)
    #expect(error != nil, "\(bytes.prefix(8)): \(rendered)")
    #expect(error.map { !$0.reason.isEmpty && !$0.reason.contains("\n") } == true)
  }
}

/// A JPEG cut right after its start-of-scan header (no entropy-coded data), whose frame size
/// can be rewritten.
struct HeaderOnlyJPEG {
  var bytes: [UInt8]
  /// Offset of the SOF segment's height (two bytes, then two of width).
  var sizeOffset: Int

  func resized(width: Int, height: Int) -> [UInt8] {
    var copy = bytes
    copy[sizeOffset] = UInt8(height >> 8)
    copy[sizeOffset + 1] = UInt8(height & 0xFF)
    copy[sizeOffset + 2] = UInt8(width >> 8)
    copy[sizeOffset + 3] = UInt8(width & 0xFF)
    return copy
  }
}

/// `jpeg` up to the end of its SOS segment, with where its SOF keeps the size.
func jpegHeaderOnly(_ jpeg: [UInt8]) throws -> HeaderOnlyJPEG {
  var offset = 2
  var sizeOffset: Int?
  while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
    let marker = jpeg[offset + 1]
    let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
    if (0xC0...0xC2).contains(marker) { sizeOffset = offset + 5 }
    if marker == 0xDA, let sizeOffset {
      return HeaderOnlyJPEG(bytes: Array(jpeg[..<(offset + 2 + length)]), sizeOffset: sizeOffset)
    }
    offset += 2 + length
  }
  throw TestFileError(description: "no SOF and SOS segments found")
}
