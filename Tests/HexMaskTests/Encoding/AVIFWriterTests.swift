import Foundation
import TestSupport
import Testing

@testable import HexMask

@discardableResult
private func writeAVIF(
  _ pixels: [UInt8], width: Int, height: Int, to path: String, lossless: Bool,
  quality: Int = 90, effort: Int? = nil, iccProfile: [UInt8]? = nil
) throws -> [String] {
  try writeImage(pixels, width: width, height: height, to: path) { file in
    try AVIFWriter(
      file: file, width: width, height: height, lossless: lossless, quality: quality,
      effort: effort, iccProfile: iccProfile)
  }
}

/// The AVIF at `path` read back through hexmask's own HEIF decoder (libheif), with its
/// metadata and whether the decoder found it opaque.
private func readAVIF(_ path: String) throws -> (
  image: DecodedImage, metadata: ImageMetadata, opaque: Bool
) {
  try HEIFDecodingTests.decodeFile(path)
}

/// AVIF output through libheif and its AV1 encoder, read back by hexmask's HEIF decoder.
@Suite struct AVIFWriterTests {
  @Test(arguments: [(1, 1), (17, 5), (64, 48)])
  func losslessDecodesBackIdentical(width: Int, height: Int) throws {
    let pixels = randomPixels(width: width, height: height, seed: UInt64(width + 100 * height))
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.avif"
      #expect(try writeAVIF(pixels, width: width, height: height, to: path, lossless: true) == [])
      let (image, _, opaque) = try readAVIF(path)
      #expect(image.width == width && image.height == height)
      #expect(!opaque)
      #expect(image.pixels == pixels)
    }
  }

  @Test(arguments: [50, 90])
  func lossyKeepsAlphaAndApproximatesColour(quality: Int) throws {
    let (width, height) = (96, 64)
    let pixels = blockPicture(width: width, height: height)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.avif"
      try writeAVIF(
        pixels, width: width, height: height, to: path, lossless: false, quality: quality)
      let (image, _, opaque) = try readAVIF(path)
      #expect(image.width == width && image.height == height)
      #expect(!opaque)
      var worstAlpha = 0
      var opaqueError = 0
      var opaqueSamples = 0
      for i in 0..<width * height {
        let p = 4 * i
        worstAlpha = max(worstAlpha, abs(Int(image.pixels[p + 3]) - Int(pixels[p + 3])))
        let (x, y) = (i % width, i / width)
        // Opaque block interiors: edges blur in lossy 4:2:0.
        guard pixels[p + 3] == 255, (3..<13).contains(x % 16), (3..<13).contains(y % 16) else {
          continue
        }
        for c in 0..<3 { opaqueError += abs(Int(image.pixels[p + c]) - Int(pixels[p + c])) }
        opaqueSamples += 3
      }
      // Alpha is the auxiliary image, coded at alpha quality 95: within a few levels.
      #expect(worstAlpha <= 4, "largest alpha error \(worstAlpha)")
      let mean = Double(opaqueError) / Double(opaqueSamples)
      #expect(mean <= (quality >= 90 ? 2 : 6), "mean channel error \(mean) where opaque")
    }
  }

  @Test func anOpaquePictureHasNoAlpha() throws {
    var pixels = blockPicture(width: 32, height: 32)
    for alpha in stride(from: 3, to: pixels.count, by: 4) { pixels[alpha] = 255 }
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.avif"
      try writeAVIF(pixels, width: 32, height: 32, to: path, lossless: true)
      let (image, _, opaque) = try readAVIF(path)
      #expect(opaque)
      #expect(image.pixels == pixels)
    }
  }

  @Test(arguments: [false, true])
  func sameImageGivesSameBytes(lossless: Bool) throws {
    let pixels = blockPicture(width: 40, height: 30)
    try withTemporaryFolder { url in
      let directory = url.path
      try writeAVIF(pixels, width: 40, height: 30, to: directory + "/a.avif", lossless: lossless)
      try writeAVIF(pixels, width: 40, height: 30, to: directory + "/b.avif", lossless: lossless)
      let first = try fileBytes(directory + "/a.avif")
      #expect(first == (try fileBytes(directory + "/b.avif")))
      #expect(try readAVIF(directory + "/a.avif").metadata.iccProfile == nil)
    }
  }

  @Test(arguments: [false, true])
  func iccProfileRoundTrips(lossless: Bool) throws {
    let profile = try #require(try metadata("icc/p3.png").iccProfile)
    let pixels = blockPicture(width: 32, height: 32)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.avif"
      #expect(
        try writeAVIF(
          pixels, width: 32, height: 32, to: path, lossless: lossless, iccProfile: profile) == [])
      let (image, metadata, _) = try readAVIF(path)
      #expect(metadata.iccProfile == profile)
      #expect(image.width == 32)
      if lossless { #expect(image.pixels == pixels) }
    }
  }

  @Test func grayProfileIsLeftOutWithAWarning() throws {
    let profile = try #require(try metadata("icc/grayscale-icc.jpg").iccProfile)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.avif"
      let warnings = try writeAVIF(
        randomPixels(width: 4, height: 4, seed: 9), width: 4, height: 4, to: path, lossless: true,
        iccProfile: profile)
      #expect(warnings == ["ICC profile not written: a 'GRAY' profile cannot describe RGB pixels"])
      #expect(try readAVIF(path).metadata.iccProfile == nil)
    }
  }

  @Test func qualityTableIsMonotonicAndInRange() {
    let mapped = HexMask.Output.qualityRange.map(AVIFWriter.encoderQuality)
    #expect(mapped.allSatisfy { (0...100).contains($0) })
    #expect(AVIFWriter.encoderQuality(HexMask.Output.defaultQuality) == 78)
    #expect(AVIFWriter.encoderQuality(100) == 100)
    // The table's measured points are hit exactly, and it covers 1…100.
    for point in AVIFWriter.qualityPoints {
      #expect(AVIFWriter.encoderQuality(point.quality) == point.libheif)
    }
    #expect(AVIFWriter.qualityPoints.first?.quality == HexMask.Output.qualityRange.lowerBound)
    #expect(AVIFWriter.qualityPoints.last?.quality == HexMask.Output.qualityRange.upperBound)
    #expect(zip(mapped, mapped.dropFirst()).allSatisfy { $0 <= $1 })
  }

  /// The effort is libaom's speed turned round, 9 − effort (libvips' and sharp's mapping),
  /// and the default is speed 5 for avatars, 6 above 1024 px.
  @Test func effortIsLibaomSpeedTurnedRound() {
    #expect(HexMask.Output.effortRange == 0...9)
    for side in [1, 256, 1024] {
      #expect(AVIFWriter.encoderSpeed(HexMask.Output.defaultEffort(side: side)) == 5)
    }
    for side in [1025, 4000, AVIFWriter.maximumSide] {
      #expect(AVIFWriter.encoderSpeed(HexMask.Output.defaultEffort(side: side)) == 6)
    }
    #expect(HexMask.Output.effortRange.map(AVIFWriter.encoderSpeed) == Array((0...9).reversed()))
  }

  /// Each effort reaches the encoder: the fastest and the most thorough make different
  /// bytes from the same pixels, both decode to the picture, and lossless stays exact.
  @Test func effortReachesTheEncoder() throws {
    let (width, height) = (96, 64)
    let pixels = blockPicture(width: width, height: height)
    try withTemporaryFolder { url in
      let directory = url.path
      var files: [[UInt8]] = []
      for effort in [0, 9] {
        let path = directory + "/e\(effort).avif"
        try writeAVIF(
          pixels, width: width, height: height, to: path, lossless: false, effort: effort)
        let (image, _, _) = try readAVIF(path)
        // Mean colour error where opaque (what lies under alpha 0 is the encoder's).
        var error = 0
        var samples = 0
        for p in stride(from: 0, to: pixels.count, by: 4) where pixels[p + 3] == 255 {
          for c in 0..<3 { error += abs(Int(image.pixels[p + c]) - Int(pixels[p + c])) }
          samples += 3
        }
        #expect(samples > 0 && error <= 6 * samples)
        files.append(try fileBytes(path))
      }
      #expect(files[0] != files[1])
      let path = directory + "/lossless.avif"
      let random = randomPixels(width: 17, height: 5, seed: 3)
      try writeAVIF(random, width: 17, height: 5, to: path, lossless: true, effort: 0)
      #expect(try readAVIF(path).image.pixels == random)
    }
  }

  @Test func encoderVersionNamesLibheifAndTheEncoder() throws {
    let version = try #require(AVIFWriter.encoderVersion)
    #expect(version.hasPrefix("libheif "))
    #expect(version.contains(", "))
  }

  @Test func sizesRowsQualityAndDiskErrors() throws {
    try withTemporaryFolder { url in
      let directory = url.path
      try withFile(directory + "/out.avif", mode: "wb") { file in
        #expect(
          throws: ImageError(.writeFailed, "cannot write a 65537×3 AVIF (at most 65536 a side)")
        ) { try AVIFWriter(file: file, width: 65537, height: 3) }
        #expect(
          throws: ImageError(.writeFailed, "cannot write a 3×0 AVIF (at most 65536 a side)")
        ) { try AVIFWriter(file: file, width: 3, height: 0) }
        #expect(throws: ImageError(.writeFailed, "AVIF quality must be 1…100, not 0")) {
          try AVIFWriter(file: file, width: 3, height: 3, quality: 0)
        }
        #expect(throws: ImageError(.writeFailed, "AVIF effort must be 0…9, not 10")) {
          try AVIFWriter(file: file, width: 3, height: 3, effort: 10)
        }
        let writer = try AVIFWriter(file: file, width: 4, height: 3)
        let row = [UInt8](repeating: 0, count: 16)
        try row.withUnsafeBufferPointer { try writer.writeRow($0) }
        #expect(throws: ImageError(.writeFailed, "only 1 of 3 rows were written")) {
          try writer.finish()
        }
      }
    }
    let error = try withFile("/dev/full", mode: "wb") { file in
      thrownError { () throws(ImageError) in
        let writer = try AVIFWriter(file: file, width: 8, height: 8, lossless: true)
        let pixels = randomPixels(width: 8, height: 8, seed: 1)
        for y in 0..<8 {
          try pixels[y * 32..<(y + 1) * 32].withUnsafeBufferPointer {
            (row) throws(ImageError) in try writer.writeRow(row)
          }
        }
        try writer.finish()
      }
    }
    #expect(error == ImageError(.writeFailed, "cannot write AVIF: no space left on device"))
  }
}
