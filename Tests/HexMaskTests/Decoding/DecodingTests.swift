import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: PngSuite

/// The size the IHDR chunk of a PNG fixture declares (bytes 16…23 of the file).
func declaredSize(_ name: String) throws -> (width: Int, height: Int) {
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name))))
  func uint32(at offset: Int) -> Int {
    bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
  }
  return (uint32(at: 16), uint32(at: 20))
}

@Test(arguments: Fixtures.pngSuite(corrupt: false))
func validPngSuiteFileDecodes(name: String) throws {
  let image = try decodeFixture("pngsuite/\(name)")
  let declared = try declaredSize("pngsuite/\(name)")
  #expect(image.width == declared.width && image.height == declared.height)
  #expect(image.pixels.count == declared.width * declared.height * 4)
  // The sNN files say their size in their name.
  if name.hasPrefix("s"), let side = Int(name.dropFirst().prefix(2)) {
    #expect(image.width == side && image.height == side)
  }
}

@Test(arguments: Fixtures.pngSuite(corrupt: true))
func corruptPngSuiteFileIsRefused(name: String) throws {
  let error = try decodingError("pngsuite/\(name)")
  #expect(error != nil)
  #expect(error?.reason.isEmpty == false)
  if let reason = error?.reason {
    #expect(reason.first?.isUppercase == false && reason.last != ".")
  }
}

@Test func pngSuiteHasItsFiles() {
  #expect(Fixtures.pngSuite(corrupt: false).count == 161)
  #expect(Fixtures.pngSuite(corrupt: true).count == 14)
}

/// Interlaced files and their non-interlaced siblings hold the same image.
@Test(
  arguments: Fixtures.names(in: "pngsuite") {
    ($0.hasPrefix("basi") || ($0.hasPrefix("s") && $0.dropFirst(3).hasPrefix("i")))
      && $0.hasSuffix(".png")
  })
func interlacedMatchesSibling(name: String) throws {
  // The fourth letter says the interlacing: basi0g01 ↔ basn0g01, s01i3p01 ↔ s01n3p01.
  var sibling = Array(name)
  sibling[3] = "n"
  let interlaced = try decodeFixture("pngsuite/\(name)")
  let plain = try decodeFixture("pngsuite/\(String(sibling))")
  #expect(interlaced.pixels == plain.pixels)
}

@Test func grayRampPassesThrough() throws {
  let image = try decodeFixture("pngsuite/basn0g08.png")
  // The first eight rows count up from 0 by one per pixel.
  for y in 0..<8 {
    for x in 0..<32 {
      let gray = UInt8(y * 32 + x)
      #expect(image.pixel(x, y) == [gray, gray, gray, 255])
    }
  }
  for y in 0..<32 {
    for x in 0..<32 {
      let p = image.pixel(x, y)
      #expect(p[0] == p[1] && p[1] == p[2] && p[3] == 255)
    }
  }
}

/// Reference for 16 → 8 bits: round(v · 255 / 65535), what png_set_scale_16 does.
func scaled(_ value: UInt16) -> UInt8 {
  UInt8((Double(value) * 255 / 65535).rounded())
}

@Test func sixteenBitGrayIsScaledWithRounding() throws {
  // Raw samples of the first row of basn0g16, read from its IDAT with zlib.
  let raw: [UInt16] = [
    0, 2304, 4608, 6912, 9216, 11520, 13824, 16128, 18432, 20736, 23040, 25344, 27648, 29952,
    32256, 34560, 36864, 39168, 41472, 43776, 46080, 48384, 50688, 52992, 55296, 57600, 59904,
    62208, 64512, 61695, 54783, 47871,
  ]
  let image = try decodeFixture("pngsuite/basn0g16.png")
  for (x, value) in raw.enumerated() {
    let gray = scaled(value)
    #expect(image.pixel(x, 0) == [gray, gray, gray, 255], "x = \(x), raw \(value)")
  }
}

@Test func sixteenBitColorIsScaledWithRounding() throws {
  // basn2c16 uses 32 levels: red falls along x, green along y. Four of them
  // (6342, 14798, 50737, 59193) round differently from dropping the low byte.
  let levels: [UInt16] = [
    65535, 63421, 61307, 59193, 57079, 54965, 52851, 50737, 48623, 46509, 44395, 42281, 40167,
    38053, 35939, 33825, 31710, 29596, 27482, 25368, 23254, 21140, 19026, 16912, 14798, 12684,
    10570, 8456, 6342, 4228, 2114, 0,
  ]
  let image = try decodeFixture("pngsuite/basn2c16.png")
  for y in 0..<32 {
    for x in 0..<32 {
      let p = image.pixel(x, y)
      #expect(p[0] == scaled(levels[x]) && p[1] == scaled(levels[y]) && p[3] == 255)
    }
  }
  // Blue rises along the last row.
  for x in 0..<32 {
    #expect(image.pixel(x, 31)[2] == scaled(levels[31 - x]))
  }
}

@Test(arguments: ["tbbn3p08.png", "tp1n3p08.png"])
func paletteTransparencyBecomesAlpha(name: String) throws {
  // Palette index 0 (white) is the one tRNS makes transparent; alpha stays straight.
  let image = try decodeFixture("pngsuite/\(name)")
  #expect(image.pixel(0, 0) == [255, 255, 255, 0])
  #expect(image.pixel(31, 31) == [255, 255, 255, 0])
  #expect(image.pixel(16, 16) == [158, 158, 158, 255])
  #expect(image.pixel(8, 8) == [178, 15, 15, 255])
}

@Test func grayTransparencyBecomesAlpha() throws {
  // 4-bit gray with tRNS gray 15: those 464 pixels become transparent white.
  let image = try decodeFixture("pngsuite/tbbn0g04.png")
  #expect(image.pixel(0, 0) == [255, 255, 255, 0])
  #expect(image.pixel(16, 16) == [153, 153, 153, 255])
  let transparent = stride(from: 3, to: image.pixels.count, by: 4).filter {
    image.pixels[$0] == 0
  }
  #expect(transparent.count == 464)
}

// MARK: Damaged and oversized PNG

@Test func pngDataErrorsAreErrors() throws {
  let adler = try decodingError("corrupt/badadler.png")
  #expect(adler?.kind == .corrupt)
  #expect(adler?.reason == "corrupt PNG: IDAT: incorrect data check")
  let crc = try decodingError("corrupt/badcrc.png")
  #expect(crc?.kind == .corrupt)
  #expect(crc?.reason.contains("CRC error") == true)
}

@Test func truncatedPngIsAnError() throws {
  let error = try decodingError("corrupt/truncated.png")
  #expect(error?.kind == .corrupt)
  #expect(error?.reason == "truncated PNG: unexpected end of file")
}

@Test func pngWarningsAreCollected() throws {
  let image = try decodeFixture("corrupt/empty_ancillary_chunks.png")
  #expect(!image.warnings.isEmpty)
  #expect(image.warnings.allSatisfy { !$0.isEmpty && $0.last != "." })
}

@Test func pngOverPixelLimitIsRefused() throws {
  let error = try decodingError("pngsuite/basn0g08.png", maxPixels: 1000)
  #expect(
    error
      == ImageError(
        .tooLarge, "image is 32×32 = 1024 pixels, more than the limit of 1000",
        pixels: .init(width: 32, height: 32, limit: 1000)))
}

/// A PNG of a signature, an IHDR and the start of an IDAT: enough to reach the size check.
func headerOnlyPNG(width: UInt32, height: UInt32) -> [UInt8] {
  func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
  }
  let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
  return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
    + chunk("IDAT", [0x78, 0x9C])
}

func bigEndian(_ value: UInt32) -> [UInt8] {
  [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
}

/// Decodes `bytes` written to a file in a fresh temporary directory.
func decodingError(bytes: [UInt8], maxPixels: Int) throws -> ImageError? {
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/input"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try withFile(path) { file in
      thrownError { () throws(ImageError) in _ = try decode(file: file, maxPixels: maxPixels) }
    }
  }
}

@Test func decompressionBombIsRefusedFromItsHeader() throws {
  let error = try decodingError(
    bytes: headerOnlyPNG(width: 65536, height: 65536), maxPixels: 268_402_689)
  #expect(
    error
      == ImageError(
        .tooLarge, "image is 65536×65536 = 4294967296 pixels, more than the limit of 268402689",
        pixels: .init(width: 65536, height: 65536, limit: 268_402_689)))
}

@Test func sideLongerThanPixelLimitIsRefusedByLibpng() throws {
  let error = try decodingError(bytes: headerOnlyPNG(width: 2000, height: 1), maxPixels: 1000)
  #expect(
    error
      == ImageError(
        .tooLarge, "image is 2000×1 = 2000 pixels, more than the limit of 1000",
        pixels: .init(width: 2000, height: 1, limit: 1000)))
}

@Test func readingPastTheLastRowThrows() throws {
  for name in ["pngsuite/basn0g08.png", "pngsuite/basi0g08.png", "jpeg/jpg-gray.jpg"] {
    try withFile(Fixtures.path(name)) { file in
      let decoder = try openDecoder(file: file, maxPixels: 1 << 20)
      var row = [UInt8](repeating: 0, count: decoder.width * 4)
      try row.withUnsafeMutableBufferPointer { buffer in
        for _ in 0..<decoder.height { try decoder.readRow(into: buffer) }
        let past = "read past the last row (the image has \(decoder.height) rows)"
        #expect(throws: ImageError(.unreadable, past)) { try decoder.readRow(into: buffer) }
      }
    }
  }
}

// MARK: JPEG

@Test(
  arguments: [
    ("testorig.jpg", 227, 149), ("testimgp.jpg", 227, 149), ("testimggray.jpg", 227, 149),
    ("testimgari.jpg", 227, 149), ("jpg-progressive.jpg", 32, 32), ("jpg-gray.jpg", 32, 32),
    ("jpg-size-1x1.jpg", 1, 1), ("jpg-size-15x15.jpg", 15, 15), ("restarts.jpg", 33, 33),
  ])
func jpegDecodes(name: String, width: Int, height: Int) throws {
  let image = try decodeFixture("jpeg/\(name)")
  #expect(image.width == width && image.height == height)
  #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
  #expect(image.warnings.isEmpty)
}

@Test(arguments: ["testimggray.jpg", "jpg-gray.jpg"])
func grayscaleJpegBecomesGrayRGB(name: String) throws {
  let image = try decodeFixture("jpeg/\(name)")
  for index in stride(from: 0, to: image.pixels.count, by: 4) {
    let p = image.pixels[index..<index + 3]
    #expect(p.allSatisfy { $0 == p.first })
  }
}

@Test func baselineAndProgressiveDecodeTheSameImageClosely() throws {
  // testimgp.jpg is the same picture as testorig.jpg, encoded progressive (with its
  // own quantization, so not bit for bit).
  let baseline = try decodeFixture("jpeg/testorig.jpg")
  let progressive = try decodeFixture("jpeg/testimgp.jpg")
  let total = zip(baseline.pixels, progressive.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
  #expect(Double(total) / Double(baseline.pixels.count) < 2)
}

@Test func twelveBitJpegIsUnsupported() throws {
  let error = try decodingError("jpeg/testorig12.jpg")
  #expect(error == ImageError(.unsupported, "12-bit JPEG is not supported"))
}

@Test func losslessJpegIsUnsupported() throws {
  let error = try decodingError("jpeg/testimgl.jpg")
  #expect(error == ImageError(.unsupported, "lossless JPEG is not supported"))
}

@Test func truncatedJpegDecodesWithAWarning() throws {
  let image = try decodeFixture("jpeg/truncated_jpeg.jpg")
  #expect(image.width == 100 && image.height == 100)
  #expect(image.warnings.contains("premature end of JPEG file"))
}

@Test func jpegWithoutImageIsCorrupt() throws {
  let error = try decodingError("jpeg/corrupt-header.jpg")
  #expect(error?.kind == .corrupt)
  #expect(error?.reason.isEmpty == false)
}

@Test func jpegOverPixelLimitIsRefused() throws {
  let error = try decodingError("jpeg/testorig.jpg", maxPixels: 10_000)
  #expect(
    error
      == ImageError(
        .tooLarge, "image is 227×149 = 33823 pixels, more than the limit of 10000",
        pixels: .init(width: 227, height: 149, limit: 10000)))
}

// MARK: Sniffing

@Test func emptyFileIsUnreadable() throws {
  #expect(try decodingError(bytes: [], maxPixels: 1000) == ImageError(.unreadable, "empty file"))
}

@Test func otherFilesAreUnsupported() throws {
  let text = Array("hexmask: not an image\n".utf8)
  #expect(
    try decodingError(bytes: text, maxPixels: 1000)
      == ImageError(
        .unsupported,
        "not an image file: hexmask reads PNG, JPEG, GIF, HEIC, AVIF, WebP and JPEG XL")
  )
  #expect(try decodingError(bytes: [0x47], maxPixels: 1000)?.kind == .unsupported)
}

@Test func damagedPngSignaturesAreCorrupt() throws {
  #expect(try decodingError("pngsuite/xcrn0g04.png")?.kind == .corrupt)
  #expect(try decodingError("pngsuite/xs7n0g01.png")?.kind == .corrupt)
  let start = try decodingError(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D], maxPixels: 1000)
  #expect(start == ImageError(.corrupt, "truncated PNG: unexpected end of file"))
}

/// What `ImageFormat` refuses although it starts with JPEG's start-of-image marker.
@Test func damagedJpegStartsAreCorrupt() throws {
  #expect(
    try decodingError(bytes: [0xFF, 0xD8], maxPixels: 1000)
      == ImageError(.corrupt, "truncated JPEG: unexpected end of file"))
  let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/testorig.jpg"))))
  // libjpeg would skip the two bytes with a warning; they are not allowed there.
  let garbage = Array(jpeg[..<2]) + [0x00, 0x11] + Array(jpeg[2...])
  #expect(
    try decodingError(bytes: garbage, maxPixels: 1 << 20)
      == ImageError(.corrupt, "corrupt JPEG: no marker after the start of image"))
  // Fill bytes before the first marker are allowed.
  let filled = Array(jpeg[..<2]) + [0xFF, 0xFF] + Array(jpeg[2...])
  #expect(try decodingError(bytes: filled, maxPixels: 1 << 20) == nil)
}

@Test func theNameDoesNotMatter() throws {
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/photo.png"
    try FileManager.default.copyItem(atPath: Fixtures.path("jpeg/jpg-gray.jpg"), toPath: path)
    let image = try withFile(path) { file in try decode(file: file) }
    #expect(image.width == 32)
  }
}

/// Decoders never seek: the sniffed bytes are handed on, so pipes work.
@Test(arguments: ["pngsuite/basn6a08.png", "pngsuite/basi3p02.png", "jpeg/testorig.jpg"])
func decodesFromAPipe(name: String) throws {
  guard let pipe = popen("cat '\(Fixtures.path(name))'", "r") else {
    throw TestFileError(description: "popen failed")
  }
  defer { pclose(pipe) }
  let piped = try decode(file: pipe)
  #expect(piped == (try decodeFixture(name)))
}

// MARK: Whole corpus

@Test(.enabled(if: SharedCorpus.has())) func everyCorpusFileDecodesOrGivesAReason() throws {
  let folders = ((try? FileManager.default.contentsOfDirectory(atPath: SharedCorpus.path())) ?? [])
    .filter { !$0.contains(".") }.sorted()
  #expect(!folders.isEmpty)
  for folder in folders {
    let directory = SharedCorpus.path(folder)
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
      .filter { !$0.hasSuffix(".txt") && !$0.hasSuffix(".LICENSE") && !$0.hasSuffix(".README") }
    for name in names.sorted() {
      let error = try withFile(directory + "/" + name) { file in
        thrownError { () throws(ImageError) in _ = try decode(file: file, maxPixels: 268_402_689) }
      }
      if let error {
        #expect(!error.reason.isEmpty && error.reason.last != ".", "\(folder)/\(name)")
      }
    }
  }
}

@Test func damagedChunkLengthsAreRefusedBeforeAllocating() throws {
  // The IHDR of a 1×1 image, then an iTXt chunk claiming 1 GiB.
  let header: [UInt8] = Array(headerOnlyPNG(width: 1, height: 1)[..<33])
  let png: [UInt8] = header + [0x3F, 0xFF, 0xFF, 0xFF] + Array("iTXt".utf8) + [0, 0, 0, 0]
  let error = try decodingError(bytes: png, maxPixels: 1000)
  #expect(error == ImageError(.corrupt, "corrupt PNG: iTXt: chunk data is too large"))
}
