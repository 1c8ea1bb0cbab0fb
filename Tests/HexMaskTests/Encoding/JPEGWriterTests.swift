import Foundation
import TestSupport
import Testing

@testable import HexMask

@discardableResult
private func writeJPEG(
  _ pixels: [UInt8], width: Int, height: Int, to path: String, quality: Int = 90,
  background: RGBAColor = .white, iccProfile: [UInt8]? = nil
) throws -> [String] {
  try writeImage(pixels, width: width, height: height, to: path) { file in
    try JPEGWriter(
      file: file, width: width, height: height, quality: quality, background: background,
      iccProfile: iccProfile)
  }
}

/// The marker codes of a JPEG up to its first scan, e.g. [0xD8, 0xE0, 0xE2, 0xDB, …].
private func markers(of jpeg: [UInt8]) -> [UInt8] {
  var found: [UInt8] = [jpeg[1]]
  var offset = 2
  while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
    let marker = jpeg[offset + 1]
    found.append(marker)
    if marker == 0xDA { break }
    offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
  }
  return found
}

@Suite struct JPEGWriterTests {
  @Test func decodesOpaqueWithTheBackgroundWhereTransparent() throws {
    let (width, height) = (96, 64)
    let pixels = blockPicture(width: width, height: height)
    let background = RGBAColor(red: 30, green: 160, blue: 90)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.jpg"
      #expect(
        try writeJPEG(pixels, width: width, height: height, to: path, background: background)
          == [])
      let image = try withFile(path) { file in try decode(file: file) }
      #expect(image.width == width && image.height == height)
      var worst = 0
      for y in 0..<height {
        for x in 0..<width {
          let decoded = image.pixel(x, y)
          #expect(decoded[3] == 255)
          // Away from block edges, where 4:2:0 chroma and the DCT blur the step.
          guard (2..<14).contains(x % 16), (2..<14).contains(y % 16) else { continue }
          let p = 4 * (y * width + x)
          let a = Double(pixels[p + 3]) / 255
          let expected = [background.red, background.green, background.blue].enumerated().map {
            Double(pixels[p + $0.offset]) * a + Double($0.element) * (1 - a)
          }
          for c in 0..<3 { worst = max(worst, Int(abs(Double(decoded[c]) - expected[c]))) }
        }
      }
      #expect(worst <= 6, "largest channel error \(worst)")
    }
  }

  @Test func transparentImageIsWhiteByDefaultNeverBlack() throws {
    let pixels = [UInt8](repeating: 0, count: 24 * 24 * 4)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.jpg"
      try writeJPEG(pixels, width: 24, height: 24, to: path)
      let image = try withFile(path) { file in try decode(file: file) }
      #expect(image.pixels.allSatisfy { $0 >= 254 })
    }
  }

  @Test func flatteningIsExactlyRounded() {
    let background = RGBAColor(red: 255, green: 7, blue: 128)
    var row: [UInt8] = []
    for alpha in 0...255 {
      for value in [0, 1, 100, 127, 128, 254, 255] { row += [UInt8(value), 3, 250, UInt8(alpha)] }
    }
    var rgb = [UInt8](repeating: 0, count: row.count / 4 * 3)
    var rgba = [UInt8](repeating: 0, count: row.count)
    row.withUnsafeBufferPointer { source in
      rgb.withUnsafeMutableBufferPointer { flatten(source, onto: background, into: $0) }
      rgba.withUnsafeMutableBufferPointer { flatten(source, onto: background, into: $0) }
    }
    let under = [background.red, background.green, background.blue]
    for i in 0..<row.count / 4 {
      let a = Double(row[4 * i + 3]) / 255
      for c in 0..<3 {
        let exact = Double(row[4 * i + c]) * a + Double(under[c]) * (1 - a)
        #expect(rgb[3 * i + c] == UInt8(exact.rounded()))
        #expect(rgba[4 * i + c] == rgb[3 * i + c])
      }
      #expect(rgba[4 * i + 3] == 255)
    }
  }

  @Test func sameImageGivesSameBytes() throws {
    let pixels = randomPixels(width: 50, height: 33, seed: 5)
    try withTemporaryFolder { url in
      let directory = url.path
      try writeJPEG(pixels, width: 50, height: 33, to: directory + "/a.jpg")
      try writeJPEG(pixels, width: 50, height: 33, to: directory + "/b.jpg")
      let first = try fileBytes(directory + "/a.jpg")
      #expect(first == (try fileBytes(directory + "/b.jpg")))
      // SOI, JFIF, hexmask's mark (COM), then tables and a baseline frame (SOF0): no EXIF
      // (APP1) or other comment.
      let found = markers(of: first)
      #expect(found.prefix(3) == [0xD8, 0xE0, 0xFE])
      #expect(!found.contains(0xE1) && found.filter { $0 == 0xFE }.count == 1)
      #expect(!found.contains(0xE2))
      #expect(found.contains(0xC0) && !found.contains(0xC2))
    }
  }

  @Test func iccProfileRoundTrips() throws {
    let profile = try #require(try metadata("icc/p3.png").iccProfile)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.jpg"
      #expect(
        try writeJPEG(
          randomPixels(width: 9, height: 7, seed: 1), width: 9, height: 7, to: path,
          iccProfile: profile) == [])
      let written = try withFile(path) { try openDecoder(file: $0, maxPixels: 100).metadata }
      #expect(written.iccProfile == profile)
    }
  }

  /// A profile larger than one marker is split into numbered APP2 segments of 65519 bytes.
  @Test func largeIccProfileIsSplitAndReassembled() throws {
    var generator = SplitMix64(state: 3)
    var profile = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    profile.replaceSubrange(16..<20, with: Array("RGB ".utf8))
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.jpg"
      #expect(
        try writeJPEG(
          randomPixels(width: 8, height: 8, seed: 2), width: 8, height: 8, to: path,
          iccProfile: profile) == [])
      let found = markers(of: try fileBytes(path))
      #expect(found.filter { $0 == 0xE2 }.count == 4)  // ⌈200000 / 65519⌉
      let written = try withFile(path) { try openDecoder(file: $0, maxPixels: 100).metadata }
      #expect(written.iccProfile == profile)
    }
  }

  @Test func grayProfileIsLeftOutWithAWarning() throws {
    let profile = try #require(try metadata("icc/grayscale-icc.jpg").iccProfile)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.jpg"
      let warnings = try writeJPEG(
        randomPixels(width: 4, height: 4, seed: 9), width: 4, height: 4, to: path,
        iccProfile: profile)
      #expect(warnings == ["ICC profile not written: a 'GRAY' profile cannot describe RGB pixels"])
      #expect(!markers(of: try fileBytes(path)).contains(0xE2))
    }
  }

  @Test func fullDiskIsAWriteError() throws {
    let error = try withFile("/dev/full", mode: "wb") { file in
      thrownError { () throws(ImageError) in
        let writer = try JPEGWriter(file: file, width: 64, height: 64)
        let row = randomPixels(width: 64, height: 1, seed: 4)
        for _ in 0..<64 {
          try row.withUnsafeBufferPointer { (buffer) throws(ImageError) in
            try writer.writeRow(buffer)
          }
        }
        try writer.finish()
      }
    }
    #expect(error == ImageError(.writeFailed, "cannot write JPEG: no space left on device"))
  }

  @Test func finishingEarlyAndBadSettingsAreErrors() throws {
    try withTemporaryFolder { url in
      let directory = url.path
      try withFile(directory + "/out.jpg", mode: "wb") { file in
        let writer = try JPEGWriter(file: file, width: 4, height: 3)
        let row = [UInt8](repeating: 0, count: 16)
        try row.withUnsafeBufferPointer { try writer.writeRow($0) }
        #expect(throws: ImageError(.writeFailed, "only 1 of 3 rows were written")) {
          try writer.finish()
        }
        #expect(
          throws: ImageError(.writeFailed, "cannot write a 0×3 JPEG (at most 65500 a side)")
        ) { try JPEGWriter(file: file, width: 0, height: 3) }
        #expect(throws: ImageError(.writeFailed, "JPEG quality must be 1…100, not 101")) {
          try JPEGWriter(file: file, width: 3, height: 3, quality: 101)
        }
      }
    }
  }
}
