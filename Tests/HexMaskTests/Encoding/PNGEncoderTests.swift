import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func randomPixels(width: Int, height: Int, seed: UInt64) -> [UInt8] {
  var generator = SplitMix64(state: seed)
  return (0..<width * height * 4).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

/// Writes `pixels` as a PNG to `path`.
func writePNG(
  _ pixels: [UInt8], width: Int, height: Int, to path: String, compressionLevel: Int = 6
) throws {
  try withFile(path, mode: "wb") { file in
    let writer = try PNGStreamEncoder(
      file: file, width: width, height: height, compression: .level(compressionLevel))
    for y in 0..<height {
      try pixels[y * width * 4..<(y + 1) * width * 4].withUnsafeBufferPointer {
        try writer.writeRow($0)
      }
    }
    try writer.finish()
  }
}

@Test(arguments: [(1, 1, 0), (17, 5, 6), (64, 48, 9), (300, 2, 1)])
func writtenPixelsDecodeBackIdentical(width: Int, height: Int, level: Int) throws {
  let pixels = randomPixels(width: width, height: height, seed: UInt64(width * 1000 + height))
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/out.png"
    try writePNG(pixels, width: width, height: height, to: path, compressionLevel: level)
    let image = try withFile(path) { file in try decode(file: file) }
    #expect(image.width == width && image.height == height)
    #expect(image.pixels == pixels)
    #expect(image.warnings.isEmpty)
  }
}

@Test func sameImageGivesSameBytes() throws {
  let pixels = randomPixels(width: 40, height: 30, seed: 7)
  try withTemporaryFolder { url in
    let directory = url.path
    let first = directory + "/first.png"
    let second = directory + "/second.png"
    try writePNG(pixels, width: 40, height: 30, to: first)
    try writePNG(pixels, width: 40, height: 30, to: second)
    let firstBytes = try Data(contentsOf: URL(fileURLWithPath: first))
    #expect(firstBytes == (try Data(contentsOf: URL(fileURLWithPath: second))))
    // Signature, IHDR, hexmask's mark, IDATs and IEND only: nothing that varies between runs.
    #expect(
      chunkTypes(of: [UInt8](firstBytes)).allSatisfy {
        ["IHDR", "tEXt", "IDAT", "IEND"].contains($0)
      })
  }
}

func chunkTypes(of png: [UInt8]) -> [String] {
  var types: [String] = []
  var offset = 8
  while offset + 8 <= png.count {
    let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    types.append(String(decoding: png[offset + 4..<offset + 8], as: UTF8.self))
    offset += 12 + length
  }
  return types
}

@Test func fullDiskIsAWriteError() throws {
  // /dev/full accepts the open and fails every write with ENOSPC; stdio buffering
  // means the failure may only show at the final flush.
  let error = try withFile("/dev/full", mode: "wb") { file in
    thrownError { () throws(ImageError) in
      let writer = try PNGStreamEncoder(file: file, width: 8, height: 8)
      let row = [UInt8](repeating: 0x80, count: 8 * 4)
      for _ in 0..<8 {
        try row.withUnsafeBufferPointer { (buffer) throws(ImageError) in
          try writer.writeRow(buffer)
        }
      }
      try writer.finish()
    }
  }
  #expect(error == ImageError(.writeFailed, "cannot write PNG: no space left on device"))
}

@Test func finishingEarlyIsAnError() throws {
  try withTemporaryFolder { url in
    let directory = url.path
    try withFile(directory + "/out.png", mode: "wb") { file in
      let writer = try PNGStreamEncoder(file: file, width: 4, height: 3)
      let row = [UInt8](repeating: 0, count: 16)
      try row.withUnsafeBufferPointer { try writer.writeRow($0) }
      #expect(throws: ImageError(.writeFailed, "only 1 of 3 rows were written")) {
        try writer.finish()
      }
    }
  }
}

@Test func badSizesAndLevelsAreRefused() throws {
  try withTemporaryFolder { url in
    let directory = url.path
    try withFile(directory + "/out.png", mode: "wb") { file in
      #expect(throws: ImageError(.writeFailed, "cannot write a 0×3 PNG")) {
        try PNGStreamEncoder(file: file, width: 0, height: 3)
      }
      #expect(throws: ImageError(.writeFailed, "PNG compression level must be 0…9, not 10")) {
        try PNGStreamEncoder(file: file, width: 3, height: 3, compression: .level(10))
      }
    }
  }
}

// MARK: ICC profile

/// Writes a small image with `iccProfile` to `path` and returns the writer's warnings.
func writePNG(iccProfile: [UInt8]?, to path: String) throws -> [String] {
  try withFile(path, mode: "wb") { file in
    let writer = try PNGStreamEncoder(file: file, width: 5, height: 3, iccProfile: iccProfile)
    let pixels = randomPixels(width: 5, height: 3, seed: 11)
    for y in 0..<3 {
      try pixels[y * 20..<(y + 1) * 20].withUnsafeBufferPointer { try writer.writeRow($0) }
    }
    try writer.finish()
    return writer.warnings.map(\.description)
  }
}

/// Profiles from PNG iCCP and from JPEG APP2 (one segment, and reassembled from 7 in
/// the corpus's icc_profile_big.jpg when present) come back byte for byte.
@Test(arguments: [
  "icc/p3.png", "icc/prophoto.png", "icc/icc_profile.png", "icc/truncated_exif_dpi.jpg",
])
func iccProfileRoundTrips(name: String) throws {
  let profile = try #require(try metadata(name).iccProfile)
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/out.png"
    #expect(try writePNG(iccProfile: profile, to: path) == [])
    let written = try withFile(path) { file in try openDecoder(file: file, maxPixels: 100).metadata
    }
    #expect(written.iccProfile == profile)
    #expect(written.exif == nil)
    // The mark, iCCP and nothing else: the known sRGB profile (icc_profile.png) adds no
    // gAMA/cHRM/sRGB.
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(chunkTypes(of: bytes) == ["IHDR", "tEXt", "iCCP", "IDAT", "IEND"])
  }
}

@Test(.enabled(if: SharedCorpus.has("icc/icc_profile_big.jpg")))
func bigIccProfileRoundTrips() throws {
  let source = SharedCorpus.path("icc/icc_profile_big.jpg")
  let profile = try #require(
    try withFile(source) { try openDecoder(file: $0, maxPixels: 1 << 28).metadata.iccProfile })
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/out.png"
    #expect(try writePNG(iccProfile: profile, to: path) == [])
    let written = try withFile(path) { file in try openDecoder(file: file, maxPixels: 100).metadata
    }
    #expect(written.iccProfile == profile)
  }
}

/// A profile libpng refuses costs the profile, never the image.
@Test(
  arguments: [
    (
      "icc/grayscale-icc.jpg",
      "ICC profile not written: profile 'ICC profile': 'GRAY': Gray color space not permitted on RGB PNG"
    ),
    (
      "icc/icc_chunk_order.jpeg",
      "ICC profile not written: profile 'ICC profile': 1020304h: length does not match profile"
    ),
  ])
func refusedIccProfileIsAWarning(name: String, warning: String) throws {
  let profile = try #require(try metadata(name).iccProfile)
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/out.png"
    #expect(try writePNG(iccProfile: profile, to: path) == [warning])
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(chunkTypes(of: bytes) == ["IHDR", "tEXt", "IDAT", "IEND"])
    let image = try withFile(path) { file in try decode(file: file) }
    #expect(image.pixels == randomPixels(width: 5, height: 3, seed: 11))
  }
}

@Test func sameProfileSameBytes() throws {
  let profile = try #require(try metadata("icc/p3.png").iccProfile)
  try withTemporaryFolder { url in
    let directory = url.path
    _ = try writePNG(iccProfile: profile, to: directory + "/a.png")
    _ = try writePNG(iccProfile: profile, to: directory + "/b.png")
    let first = try Data(contentsOf: URL(fileURLWithPath: directory + "/a.png"))
    #expect(first == (try Data(contentsOf: URL(fileURLWithPath: directory + "/b.png"))))
  }
}

/// Metadata never travels on its own: decoding a file full of it and writing its pixels
/// gives no EXIF, text or time chunk, whatever the input had: one text chunk, hexmask's mark.
@Test(arguments: [
  "pngsuite/exif2c08.png", "pngsuite/ct1n0g04.png", "pngsuite/cm7n0g04.png",
  "jpeg/pil_sample_cmyk.jpg",
])
func outputCarriesNoOtherMetadata(name: String) throws {
  let image = try decodeFixture(name)
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/out.png"
    try writePNG(image.pixels, width: image.width, height: image.height, to: path)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let types = chunkTypes(of: bytes)
    #expect(types.allSatisfy { ["IHDR", "tEXt", "IDAT", "IEND"].contains($0) })
    #expect(Set(types).isDisjoint(with: ["eXIf", "tIME", "zTXt", "iTXt"]))
    #expect(types.filter { $0 == "tEXt" }.count == 1)
    #expect(Array(bytes[41..<57]) == HexMaskMark.pngText)
  }
}
