import CWebP
import Foundation
import TestSupport
import Testing

@testable import HexMask

/// WebP decoded only where the outputs look (`PictureNeed`, `DecodeWindow`): unscaled
/// windows give exactly the whole picture's resized pixels, scaled ones nearly, and a
/// tiny file claiming a huge picture fails without taking memory for it.
@Suite struct WebPWindowTests {
  /// Fixtures/photos/rocket.jpg (640 × 427) encoded as WebP, lossless or lossy.
  static func rocketWebP(lossless: Bool) throws -> [UInt8] {
    let photo = try withFile(Fixtures.path("photos/rocket.jpg")) { try decode(file: $0) }
    var output: UnsafeMutablePointer<UInt8>?
    let size = photo.pixels.withUnsafeBufferPointer { pixels in
      lossless
        ? WebPEncodeLosslessRGBA(
          pixels.baseAddress, Int32(photo.width), Int32(photo.height), Int32(photo.width * 4),
          &output)
        : WebPEncodeRGBA(
          pixels.baseAddress, Int32(photo.width), Int32(photo.height), Int32(photo.width * 4),
          90, &output)
    }
    guard let output, size > 0 else { throw TestFileError(description: "WebP encoding failed") }
    defer { WebPFree(output) }
    return Array(UnsafeBufferPointer(start: output, count: size))
  }

  /// The `side` × `side` picture the pipeline makes from `decoder`: its chosen square, or
  /// the square `choose` picks, resized.
  static func resized(
    _ decoder: any ImageDecoder, side: Int, choose: (Int, Int) -> CropSquare
  ) throws -> DecodedImage {
    let crop = decoder.chosenSquare ?? choose(decoder.width, decoder.height)
    let picture = ResizedDecoder(decoder, crop: crop, side: side)
    var pixels: [UInt8] = []
    var row = [UInt8](repeating: 0, count: side * 4)
    for _ in 0..<side {
      try row.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
        try picture.readRow(into: buffer)
      }
      pixels += row
    }
    return DecodedImage(width: side, height: side, pixels: pixels, warnings: [])
  }

  static let squares: [(String, @Sendable (Int, Int) -> CropSquare)] = [
    ("east", { CropSquare(imageWidth: $0, imageHeight: $1, gravity: .east) }),
    ("west", { CropSquare(imageWidth: $0, imageHeight: $1, gravity: .west) }),
    ("focus", { CropSquare(imageWidth: $0, imageHeight: $1, focus: (0.63, 0.5)) }),
    ("seed", { CropSquare(left: 0, top: 0, side: min($0, $1)) }),
  ]

  /// Without scaling, the margin around the square holds everything the filter reaches:
  /// every size is byte for byte what the whole picture gives.
  @Test(arguments: [true, false], [[200, 31], [427], [500]])
  func unscaledWindowGivesExactlyTheWholePicturesPixels(lossless: Bool, sizes: [Int]) throws {
    let bytes = try Self.rocketWebP(lossless: lossless)
    for (name, choose) in Self.squares {
      let need = PictureNeed(largestSide: sizes.max(), smallestSide: sizes.min(), square: choose)
      for side in sizes {
        let whole = try openWebP(bytes: bytes, maxPixels: 1 << 28)
        let window = try openWebP(bytes: bytes, maxPixels: 1 << 28, need: need)
        #expect(window.width < 640, "\(name): a window, not the whole picture")
        let expected = try Self.resized(whole, side: side, choose: choose)
        let got = try Self.resized(window, side: side, choose: choose)
        #expect(got == expected, "\(name) at \(side)")
      }
    }
  }

  /// A square at least 4 × the output is scaled by libwebp to 2 × the output, and the
  /// Lanczos filter does the rest: close to the whole picture resized.
  @Test(arguments: [true, false])
  func scaledWindowIsCloseToTheWholePictureResized(lossless: Bool) throws {
    let bytes = try Self.rocketWebP(lossless: lossless)
    for (name, choose) in Self.squares {
      let whole = try openWebP(bytes: bytes, maxPixels: 1 << 28)
      let need = PictureNeed(largestSide: 64, smallestSide: 64, square: choose)
      let window = try openWebP(bytes: bytes, maxPixels: 1 << 28, need: need)
      #expect(window.width == 128 && window.height == 128, "\(name)")
      let expected = try Self.resized(whole, side: 64, choose: choose)
      let got = try Self.resized(window, side: 64, choose: choose)
      let differences = zip(got.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }
      let mean = Double(differences.reduce(0, +)) / Double(differences.count)
      #expect(mean < 2, "\(name): mean difference \(mean)")
      #expect(differences.max() ?? 0 <= 64, "\(name)")
    }
  }

  /// 68 bytes whose header claims 16383 × 16383 and whose data ends at once.
  static func hugeTruncated(lossless: Bool) -> [UInt8] {
    func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    let claimed: UInt32 = 100_000
    var chunk: [UInt8]
    if lossless {
      // Signature, then 14-bit width − 1 and height − 1, no alpha, version 0.
      chunk = Array("VP8L".utf8) + le32(claimed) + [0x2F] + le32(16382 | 16382 << 14)
    } else {
      // A shown key frame with a 1000-byte first partition, the start code, the sides.
      let tag = UInt32(1000 << 5 | 1 << 4)
      chunk =
        Array("VP8 ".utf8) + le32(claimed) + le32(tag).prefix(3) + [0x9D, 0x01, 0x2A]
        + [0xFF, 0x3F, 0xFF, 0x3F]
    }
    let file = Array("RIFF".utf8) + le32(claimed + 12) + Array("WEBP".utf8) + chunk
    return Array((file + [UInt8](repeating: 0, count: 68)).prefix(68))
  }

  @Test(arguments: [true, false])
  func hugeTruncatedFileFailsInOneLine(lossless: Bool) throws {
    let file = Self.hugeTruncated(lossless: lossless)
    #expect(file.count == 68)
    let error = try #require(try WebPDecodingTests.errorDecoding(file))
    #expect(error.kind == .corrupt, "\(error)")
    #expect(error.reason == "truncated WebP: unexpected end of file")
  }

  /// The budget sees what decoding would take: for a 64 px output only the 128 px window
  /// (64 KB) and libwebp's rows (640 KB at 16383 wide), where the whole claimed picture
  /// would be 1 GB.
  @Test func hugeTruncatedLossyFileTakesMemoryOnlyForTheWindow() throws {
    let file = Self.hugeTruncated(lossless: false)
    let budget = MemoryBudget(limit: 1 << 20)
    let need = PictureNeed(largestSide: 64, smallestSide: 64) {
      CropSquare(imageWidth: $0, imageHeight: $1)
    }
    let scaled = thrownError { () throws(ImageError) in
      _ = try openWebP(bytes: file, maxPixels: 1 << 28, need: need, memory: budget)
    }
    #expect(scaled?.reason == "truncated WebP: unexpected end of file")
    #expect(scaled?.memory == nil)
    let whole = thrownError { () throws(ImageError) in
      _ = try openWebP(bytes: file, maxPixels: 1 << 28, memory: budget)
    }
    #expect(
      whole?.memory?.needed == 16383 * 16383 * 4 + 16383 * 40 + file.count,
      "\(String(describing: whole))")
    #expect(budget.bytesInUse == 0)
  }

  @Test func windowsStayInsideThePictureAtEvenOffsets() {
    for (width, height) in [(640, 427), (427, 640), (101, 99), (16383, 3)] {
      for (_, choose) in Self.squares {
        for sizes in [[1], [7, 90], [16383]] {
          let need = PictureNeed(
            largestSide: sizes.max(), smallestSide: sizes.min(), square: choose)
          let window = DecodeWindow(width: width, height: height, need: need)
          let square = choose(width, height)
          #expect(window.left % 2 == 0 && window.top % 2 == 0)
          #expect(window.left >= 0 && window.left + window.width <= width)
          #expect(window.top >= 0 && window.top + window.height <= height)
          guard let chosen = window.square else {
            Issue.record("no square for \(width)×\(height)")
            continue
          }
          if window.scales {
            #expect(chosen.side == 2 * (sizes.max() ?? 0))
          } else {
            #expect(chosen.side == square.side)
            #expect(chosen.left + window.left == square.left)
            #expect(chosen.top + window.top == square.top)
          }
        }
      }
    }
  }
}
