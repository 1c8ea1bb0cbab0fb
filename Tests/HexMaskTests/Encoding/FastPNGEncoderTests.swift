import CZlib
import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Pixels like a masked photo: a smooth gradient with noise inside an ellipse, fully
/// transparent (0,0,0,0) outside it, so rows have zero runs at both ends.
func maskedPixels(width: Int, height: Int, channels: Int, seed: UInt64) -> [UInt8] {
  var generator = SplitMix64(state: seed)
  var pixels = [UInt8](repeating: 0, count: width * height * channels)
  for y in 0..<height {
    for x in 0..<width {
      let dx = (Double(x) + 0.5) / Double(width) - 0.5
      let dy = (Double(y) + 0.5) / Double(height) - 0.5
      guard dx * dx + dy * dy < 0.2 || width * height < 4 else { continue }
      for c in 0..<channels {
        let smooth = (x * 3 + y * 5 + c * 40) & 0xff
        let noise = Int(generator.next() % 9) - 4
        pixels[(y * width + x) * channels + c] =
          c == 3 ? 255 : UInt8(clamping: smooth + noise)
      }
    }
  }
  return pixels
}

/// Encodes `pixels` with `PNGStreamEncoder` and returns the file's bytes and warnings.
func encodeStream(
  _ pixels: [UInt8], width: Int, height: Int, channels: Int = 4,
  compression: PNGCompression = .default, iccProfile: [UInt8]? = nil, threads: Int = 1,
  bandBytes: Int = PNGStreamEncoder.bandBytes
) throws -> (bytes: [UInt8], warnings: [String]) {
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/out.png"
    let warnings = try withFile(path, mode: "wb") { file in
      let encoder = try PNGStreamEncoder(
        file: file, width: width, height: height, channels: channels, compression: compression,
        iccProfile: iccProfile, threads: threads, bandBytes: bandBytes)
      let rowBytes = width * channels
      for y in 0..<height {
        try pixels[y * rowBytes..<(y + 1) * rowBytes].withUnsafeBufferPointer {
          try encoder.writeRow($0)
        }
      }
      try encoder.finish()
      return encoder.warnings.map(\.description)
    }
    return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), warnings)
  }
}

/// Decodes PNG bytes with the project's decoder (libpng).
func decodePNG(_ bytes: [UInt8]) throws -> (image: DecodedImage, metadata: ImageMetadata) {
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/in.png"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let metadata = try withFile(path) { try openDecoder(file: $0, maxPixels: 1 << 28).metadata }
    return (try withFile(path) { try decode(file: $0) }, metadata)
  }
}

/// RGBA as the decoder gives it: gray v becomes (v, v, v, 255).
func expandedRGBA(_ pixels: [UInt8], channels: Int) -> [UInt8] {
  channels == 4 ? pixels : pixels.flatMap { [$0, $0, $0, 255] }
}

@Suite struct FastPNGEncoderTests {
  @Test(arguments: [(1, 1), (1, 37), (41, 1), (17, 13), (123, 77), (256, 40)], [1, 4])
  func streamDecodesToTheSamePixels(size: (Int, Int), channels: Int) throws {
    let (width, height) = size
    let pixels = maskedPixels(width: width, height: height, channels: channels, seed: 3)
    // Small bands: several per image, the last one partial.
    let (bytes, warnings) = try encodeStream(
      pixels, width: width, height: height, channels: channels, bandBytes: 700)
    #expect(warnings.isEmpty)
    let decoded = try decodePNG(bytes).image
    #expect(decoded.width == width && decoded.height == height)
    #expect(decoded.pixels == expandedRGBA(pixels, channels: channels))
    #expect(decoded.warnings.isEmpty)
    #expect(try parsedStream(bytes).pixels == pixels)
  }

  @Test(arguments: PNGRowFilter.allCases, [1, 4])
  func everyFilterRoundTrips(filter: PNGRowFilter, channels: Int) throws {
    let pixels = maskedPixels(width: 61, height: 45, channels: channels, seed: 5)
    let compression = PNGCompression(filter: filter, level: 6)
    let bytes = try encodeStream(
      pixels, width: 61, height: 45, channels: channels, compression: compression, bandBytes: 900
    ).bytes
    #expect(try decodePNG(bytes).image.pixels == expandedRGBA(pixels, channels: channels))
    let parsed = try parsedStream(bytes)
    #expect(parsed.pixels == pixels)
    if filter != .adaptive {
      let types = [PNGRowFilter.none, .sub, .up, .average, .paeth]
      #expect(parsed.filterTypes.allSatisfy { types[Int($0)] == filter })
    }
  }

  @Test(
    arguments: [PNGCompression.fast, .default, .small] + (0...9).map(PNGCompression.level)
      + DeflateStrategy.allCases.map { PNGCompression(filter: .paeth, level: 4, strategy: $0) })
  func everyCompressionRoundTrips(compression: PNGCompression) throws {
    let pixels = maskedPixels(width: 90, height: 70, channels: 4, seed: 9)
    let bytes = try encodeStream(
      pixels, width: 90, height: 70, compression: compression, threads: 2, bandBytes: 5000
    ).bytes
    #expect(try decodePNG(bytes).image.pixels == pixels)
    #expect(try parsedStream(bytes).pixels == pixels)
  }

  @Test(arguments: [PNGCompression.fast, .default, .small, .level(0)], [1, 4])
  func threadCountNeverChangesTheBytes(compression: PNGCompression, channels: Int) throws {
    let pixels = maskedPixels(width: 97, height: 83, channels: channels, seed: 11)
    let encode = { (threads: Int) in
      try encodeStream(
        pixels, width: 97, height: 83, channels: channels, compression: compression,
        threads: threads, bandBytes: 1500
      ).bytes
    }
    let single = try encode(1)
    for threads in [2, 3, 8] { #expect(try encode(threads) == single, "threads: \(threads)") }
  }

  @Test func defaultBandsAreIdenticalAcrossThreadsOnALargeImage() throws {
    let pixels = maskedPixels(width: 700, height: 900, channels: 4, seed: 13)
    let single = try encodeStream(pixels, width: 700, height: 900, threads: 1).bytes
    #expect(try encodeStream(pixels, width: 700, height: 900, threads: 4).bytes == single)
    #expect(try decodePNG(single).image.pixels == pixels)
  }

  @Test func streamHasOnlyTheExpectedChunks() throws {
    let pixels = maskedPixels(width: 300, height: 300, channels: 4, seed: 1)
    let bytes = try encodeStream(pixels, width: 300, height: 300).bytes
    let chunks = try pngChunks(bytes)
    #expect(chunks.first?.type == "IHDR" && chunks.last?.type == "IEND")
    #expect(Set(chunks.map(\.type)) == ["IHDR", "tEXt", "IDAT", "IEND"])
    #expect(chunks[1].type == "tEXt" && chunks[1].data == HexMaskMark.pngText)
    #expect(chunks[0].data == [0, 0, 1, 44, 0, 0, 1, 44, 8, 6, 0, 0, 0])
    #expect(chunks.last?.data.isEmpty == true)
  }

  @Test func grayHeaderSaysGray() throws {
    let bytes = try encodeStream([0, 128, 255, 7], width: 2, height: 2, channels: 1).bytes
    #expect(try pngChunks(bytes)[0].data == [0, 0, 0, 2, 0, 0, 0, 2, 8, 0, 0, 0, 0])
  }

  @Test func photoRoundTrips() throws {
    let photo = try decodeFixture("photos/rocket.jpg")
    let bytes = try encodeStream(
      photo.pixels, width: photo.width, height: photo.height, threads: 2
    ).bytes
    #expect(try decodePNG(bytes).image.pixels == photo.pixels)
  }

  // MARK: ICC profile

  @Test(arguments: [
    "icc/p3.png", "icc/prophoto.png", "icc/icc_profile.png", "icc/truncated_exif_dpi.jpg",
  ])
  func streamIccProfileRoundTrips(name: String) throws {
    let profile = try #require(try metadata(name).iccProfile)
    let pixels = randomPixels(width: 5, height: 3, seed: 11)
    let (bytes, warnings) = try encodeStream(pixels, width: 5, height: 3, iccProfile: profile)
    #expect(warnings.isEmpty)
    let decoded = try decodePNG(bytes)
    #expect(decoded.metadata.iccProfile == profile)
    #expect(decoded.image.pixels == pixels)
    #expect(try pngChunks(bytes).map(\.type) == ["IHDR", "tEXt", "iCCP", "IDAT", "IEND"])
  }

  /// Refusals in libpng's own words.
  @Test(
    arguments: [
      (
        "icc/grayscale-icc.jpg", 4,
        "ICC profile not written: profile 'ICC profile': 'GRAY': Gray color space not permitted on RGB PNG"
      ),
      (
        "icc/icc_chunk_order.jpeg", 4,
        "ICC profile not written: profile 'ICC profile': 1020304h: length does not match profile"
      ),
      (
        "icc/p3.png", 1,
        "ICC profile not written: profile 'ICC profile': 'RGB ': RGB color space not permitted on grayscale PNG"
      ),
    ])
  func streamRefusedIccProfileIsAWarning(name: String, channels: Int, warning: String) throws {
    let profile = try #require(try metadata(name).iccProfile)
    let pixels = maskedPixels(width: 5, height: 3, channels: channels, seed: 2)
    let (bytes, warnings) = try encodeStream(
      pixels, width: 5, height: 3, channels: channels, iccProfile: profile)
    #expect(warnings == [warning])
    #expect(try pngChunks(bytes).map(\.type) == ["IHDR", "tEXt", "IDAT", "IEND"])
    #expect(try decodePNG(bytes).image.pixels == expandedRGBA(pixels, channels: channels))
  }

  @Test func grayIccProfileIsKeptOnGray() throws {
    let profile = try #require(try metadata("icc/grayscale-icc.jpg").iccProfile)
    let pixels = maskedPixels(width: 4, height: 4, channels: 1, seed: 4)
    let (bytes, warnings) = try encodeStream(
      pixels, width: 4, height: 4, channels: 1, iccProfile: profile)
    #expect(warnings.isEmpty)
    #expect(try decodePNG(bytes).metadata.iccProfile == profile)
  }

  // MARK: Failures

  @Test(arguments: [1, 4])
  func streamFullDiskIsAWriteError(threads: Int) throws {
    let pixels = maskedPixels(width: 200, height: 200, channels: 4, seed: 8)
    let error = try withFile("/dev/full", mode: "wb") { file in
      thrownError { () throws(ImageError) in
        let encoder = try PNGStreamEncoder(
          file: file, width: 200, height: 200, channels: 4, compression: .level(0),
          iccProfile: nil, threads: threads, bandBytes: 4000)
        for y in 0..<200 {
          try pixels[y * 800..<(y + 1) * 800].withUnsafeBufferPointer {
            (row) throws(ImageError) in try encoder.writeRow(row)
          }
        }
        try encoder.finish()
      }
    }
    #expect(error == ImageError(.writeFailed, "cannot write PNG: no space left on device"))
  }

  @Test func streamFinishingEarlyOrWritingTooMuchIsAnError() throws {
    try withTemporaryFolder { url in
      let directory = url.path
      try withFile(directory + "/out.png", mode: "wb") { file in
        let encoder = try PNGStreamEncoder(file: file, width: 4, height: 3)
        let row = [UInt8](repeating: 0, count: 16)
        try row.withUnsafeBufferPointer { try encoder.writeRow($0) }
        #expect(throws: ImageError(.writeFailed, "only 1 of 3 rows were written")) {
          try encoder.finish()
        }
      }
      try withFile(directory + "/out2.png", mode: "wb") { file in
        let encoder = try PNGStreamEncoder(file: file, width: 4, height: 1, channels: 1)
        let row = [UInt8](repeating: 9, count: 4)
        try row.withUnsafeBufferPointer { try encoder.writeRow($0) }
        #expect(throws: ImageError(.writeFailed, "more rows written than the image has")) {
          try row.withUnsafeBufferPointer { try encoder.writeRow($0) }
        }
      }
    }
  }

  @Test func streamRefusesBadArguments() throws {
    try withTemporaryFolder { url in
      let directory = url.path
      try withFile(directory + "/out.png", mode: "wb") { file in
        #expect(throws: ImageError(.writeFailed, "cannot write a 0×3 PNG")) {
          try PNGStreamEncoder(file: file, width: 0, height: 3)
        }
        #expect(
          throws: ImageError(
            .writeFailed, "PNG pixels must have 1 (gray) or 4 (RGBA) bytes, not 3")
        ) {
          try PNGStreamEncoder(file: file, width: 3, height: 3, channels: 3)
        }
        #expect(throws: ImageError(.writeFailed, "PNG compression level must be 0…9, not 10")) {
          try PNGStreamEncoder(
            file: file, width: 3, height: 3, compression: PNGCompression(filter: .up, level: 10))
        }
        #expect(throws: ImageError(.writeFailed, "PNG encoding needs at least 1 thread, not 0")) {
          try PNGStreamEncoder(file: file, width: 3, height: 3, threads: 0)
        }
      }
    }
  }

  @Test func wrongRowLengthStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let file = fopen("/dev/null", "wb")
      guard let file else { return }
      let encoder = try PNGStreamEncoder(file: file, width: 4, height: 2)
      let row = [UInt8](repeating: 0, count: 15)
      try row.withUnsafeBufferPointer { try encoder.writeRow($0) }
    }
  }

  @Test func compressionArguments() {
    #expect(PNGCompression(argument: "fast") == .fast)
    #expect(PNGCompression(argument: "default") == .default)
    #expect(PNGCompression(argument: "small") == .small)
    #expect(PNGCompression(argument: "7") == .level(7))
    #expect(PNGCompression(argument: "0")?.level == 0)
    for bad in ["10", "-1", "", "Fast", "x"] { #expect(PNGCompression(argument: bad) == nil) }
  }
}
