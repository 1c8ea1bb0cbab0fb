import CWebP
import Foundation
import TestSupport
import Testing

@testable import HexMask

@discardableResult
private func writeWebP(
  _ pixels: [UInt8], width: Int, height: Int, to path: String, lossless: Bool,
  quality: Int = 90, iccProfile: [UInt8]? = nil
) throws -> [String] {
  try writeImage(pixels, width: width, height: height, to: path) { file in
    try WebPWriter(
      file: file, width: width, height: height, lossless: lossless, quality: quality,
      iccProfile: iccProfile)
  }
}

/// Decodes a WebP file with libwebp's own decoder.
private func decodeWebP(_ bytes: [UInt8]) throws -> DecodedImage {
  var width: Int32 = 0
  var height: Int32 = 0
  guard let rgba = WebPDecodeRGBA(bytes, bytes.count, &width, &height) else {
    throw TestFileError(description: "libwebp cannot decode the file")
  }
  defer { WebPFree(rgba) }
  let pixels = Array(UnsafeBufferPointer(start: rgba, count: Int(width * height * 4)))
  return DecodedImage(width: Int(width), height: Int(height), pixels: pixels, warnings: [])
}

/// The payload of the file's ICCP chunk, read with libwebpmux; nil when there is none.
private func iccChunk(_ bytes: [UInt8]) -> [UInt8]? {
  bytes.withUnsafeBufferPointer { buffer in
    var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
    guard let mux = WebPMuxCreate(&data, 0) else { return nil }
    defer { WebPMuxDelete(mux) }
    var chunk = WebPData()
    guard WebPMuxGetChunk(mux, "ICCP", &chunk) == WEBP_MUX_OK, let start = chunk.bytes else {
      return nil
    }
    return Array(UnsafeBufferPointer(start: start, count: chunk.size))
  }
}

@Suite struct WebPWriterTests {
  @Test(arguments: [(1, 1), (17, 5), (64, 48)])
  func losslessDecodesBackIdentical(width: Int, height: Int) throws {
    let pixels = randomPixels(width: width, height: height, seed: UInt64(width + 100 * height))
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.webp"
      #expect(try writeWebP(pixels, width: width, height: height, to: path, lossless: true) == [])
      let image = try decodeWebP(try fileBytes(path))
      #expect(image.width == width && image.height == height)
      #expect(image.pixels == pixels)
    }
  }

  @Test(arguments: [50, 90])
  func lossyKeepsAlphaAndApproximatesColour(quality: Int) throws {
    let (width, height) = (96, 64)
    let pixels = blockPicture(width: width, height: height)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.webp"
      try writeWebP(
        pixels, width: width, height: height, to: path, lossless: false, quality: quality)
      let image = try decodeWebP(try fileBytes(path))
      #expect(image.width == width && image.height == height)
      var worstAlpha = 0
      var worstColour = 0
      for i in 0..<width * height {
        let p = 4 * i
        worstAlpha = max(worstAlpha, abs(Int(image.pixels[p + 3]) - Int(pixels[p + 3])))
        let (x, y) = (i % width, i / width)
        // Opaque block interiors: edges blur in lossy 4:2:0.
        guard pixels[p + 3] == 255, (3..<13).contains(x % 16), (3..<13).contains(y % 16) else {
          continue
        }
        for c in 0..<3 {
          worstColour = max(worstColour, abs(Int(image.pixels[p + c]) - Int(pixels[p + c])))
        }
      }
      // Alpha is compressed losslessly even in lossy files.
      #expect(worstAlpha == 0)
      #expect(worstColour <= (quality >= 90 ? 6 : 20), "largest channel error \(worstColour)")
    }
  }

  @Test(arguments: [false, true])
  func sameImageGivesSameBytes(lossless: Bool) throws {
    let pixels = blockPicture(width: 40, height: 30)
    try withTemporaryFolder { url in
      let directory = url.path
      try writeWebP(pixels, width: 40, height: 30, to: directory + "/a.webp", lossless: lossless)
      try writeWebP(pixels, width: 40, height: 30, to: directory + "/b.webp", lossless: lossless)
      let first = try fileBytes(directory + "/a.webp")
      #expect(first == (try fileBytes(directory + "/b.webp")))
      #expect(iccChunk(first) == nil)
    }
  }

  @Test(arguments: [false, true])
  func iccProfileRoundTrips(lossless: Bool) throws {
    let profile = try #require(try metadata("icc/p3.png").iccProfile)
    let pixels = blockPicture(width: 32, height: 32)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.webp"
      #expect(
        try writeWebP(
          pixels, width: 32, height: 32, to: path, lossless: lossless, iccProfile: profile) == [])
      let bytes = try fileBytes(path)
      #expect(iccChunk(bytes) == profile)
      let image = try decodeWebP(bytes)
      #expect(image.width == 32)
      if lossless { #expect(image.pixels == pixels) }
    }
  }

  @Test func grayProfileIsLeftOutWithAWarning() throws {
    let profile = try #require(try metadata("icc/grayscale-icc.jpg").iccProfile)
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/out.webp"
      let warnings = try writeWebP(
        randomPixels(width: 4, height: 4, seed: 9), width: 4, height: 4, to: path, lossless: true,
        iccProfile: profile)
      #expect(warnings == ["ICC profile not written: a 'GRAY' profile cannot describe RGB pixels"])
      #expect(iccChunk(try fileBytes(path)) == nil)
    }
  }

  @Test func sizesRowsAndDiskErrors() throws {
    try withTemporaryFolder { url in
      let directory = url.path
      try withFile(directory + "/out.webp", mode: "wb") { file in
        #expect(
          throws: ImageError(.writeFailed, "cannot write a 16384×3 WebP (at most 16383 a side)")
        ) { try WebPWriter(file: file, width: 16384, height: 3) }
        #expect(
          throws: ImageError(.writeFailed, "cannot write a 3×0 WebP (at most 16383 a side)")
        ) { try WebPWriter(file: file, width: 3, height: 0) }
        let writer = try WebPWriter(file: file, width: 4, height: 3)
        let row = [UInt8](repeating: 0, count: 16)
        try row.withUnsafeBufferPointer { try writer.writeRow($0) }
        #expect(throws: ImageError(.writeFailed, "only 1 of 3 rows were written")) {
          try writer.finish()
        }
      }
    }
    let error = try withFile("/dev/full", mode: "wb") { file in
      thrownError { () throws(ImageError) in
        try writeRows(
          randomPixels(width: 8, height: 8, seed: 1), width: 8, height: 8,
          to: try WebPWriter(file: file, width: 8, height: 8, lossless: true))
      }
    }
    #expect(error == ImageError(.writeFailed, "cannot write WebP: no space left on device"))
  }
}

/// Writes all rows and finishes, with typed errors.
private func writeRows(_ pixels: [UInt8], width: Int, height: Int, to writer: any ImageWriter)
  throws(ImageError)
{
  for y in 0..<height {
    try pixels[y * width * 4..<(y + 1) * width * 4].withUnsafeBufferPointer {
      (row) throws(ImageError) in try writer.writeRow(row)
    }
  }
  try writer.finish()
}
