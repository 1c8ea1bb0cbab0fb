import Foundation
import HexMask
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The chunk types of a PNG file, in order.
func pngChunkTypes(_ bytes: [UInt8]) -> [String] {
  var types: [String] = []
  var offset = 8
  while offset + 8 <= bytes.count {
    let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
    offset += 12 + length
  }
  return types
}

/// The metadata hexmask's own decoder reads from `path`.
func metadataOf(_ path: String) throws -> ImageMetadata {
  guard let stream = fopen(path, "rb") else {
    throw ProcessRunError(description: "cannot open \(path)")
  }
  defer { fclose(stream) }
  return try openDecoder(file: stream, maxPixels: 1 << 30).metadata
}

/// EXIF orientation, ICC profiles and metadata privacy, through the binary.
@Suite(.tags(.endToEnd)) struct MetadataEndToEndTests {
  /// Renders `input` into `dir` with `options` and decodes the result.
  func rendered(_ input: String, in dir: URL, _ options: [String] = []) throws -> DecodedImage {
    let output = dir.appendingPathComponent(UUID().uuidString + ".png").path
    let run = try runHexMask([input, output] + options)
    #expect(run.status == 0, "\(run.standardError)")
    return try decodeImage(at: output)
  }

  @Test(arguments: ["Landscape", "Portrait"])
  func everyOrientationGivesTheSameUprightPicture(set: String) throws {
    try withTemporaryFolder { (dir: URL) throws in
      let upright = try rendered(Fixtures.path("exif/\(set)_1.jpg"), in: dir)
      for n in [0, 2, 3, 4, 5, 6, 7, 8] {
        let image = try rendered(Fixtures.path("exif/\(set)_\(n).jpg"), in: dir)
        #expect(image.width == upright.width && image.height == upright.height)
        // Same canvas, same shape: the alpha channels agree exactly.
        #expect(
          stride(from: 3, to: image.pixels.count, by: 4).allSatisfy {
            image.pixels[$0] == upright.pixels[$0]
          })
        #expect(image.meanSampleDifference(from: upright) < 4, "\(set)_\(n)")
      }
    }
  }

  @Test func noRotateKeepsTheStoredPixelOrder() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let upright = try rendered(Fixtures.path("exif/Landscape_1.jpg"), in: dir)
      let stored = try rendered(Fixtures.path("exif/Landscape_6.jpg"), in: dir, ["--no-rotate"])
      #expect(stored.meanSampleDifference(from: upright) > 10)
    }
  }

  @Test(arguments: [
    "icc/p3.png", "icc/prophoto.png", "icc/icc_profile.png", "icc/truncated_exif_dpi.jpg",
  ])
  func colourProfileIsCopiedByteForByte(name: String) throws {
    try withTemporaryFolder { (dir: URL) throws in
      let profile = try #require(try metadataOf(Fixtures.path(name)).iccProfile)
      let output = dir.appendingPathComponent("out.png").path
      let run = try runHexMask([Fixtures.path(name), output])
      #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
      #expect(try metadataOf(output).iccProfile == profile)
      let stripped = dir.appendingPathComponent("stripped.png").path
      #expect(try runHexMask([Fixtures.path(name), stripped, "--strip"]).status == 0)
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: stripped)))
      #expect(Set(pngChunkTypes(bytes)) == ["IHDR", "tEXt", "IDAT", "IEND"])  // tEXt: the mark
    }
  }

  @Test func malformedProfileIsDroppedWithAWarningUnlessStrict() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let input = Fixtures.path("icc/icc_missing_chunk.jpeg")
      let output = dir.appendingPathComponent("out.png").path
      let run = try runHexMask([input, output])
      #expect(run.status == 0)
      #expect(
        run.standardError
          == "hexmask: \(input): warning: ICC profile segment 100 of 254 is missing; profile dropped\n"
      )
      #expect(
        !pngChunkTypes(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))).contains("iCCP")
      )
      let strict = try runHexMask([
        input, dir.appendingPathComponent("strict.png").path, "--strict",
      ])
      #expect(strict.status == 1)
      #expect(try filesIn(dir) == ["out.png"])
    }
  }

  /// A JPEG carrying GPS position, a camera serial number, XMP and a comment: none of it
  /// may reach the output.
  @Test func privateMetadataNeverReachesTheOutput() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let photo = try [UInt8](
        Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/rocket.jpg"))))
      let input = dir.appendingPathComponent("gps.jpg")
      try Data(jpegWithPrivateMetadata(photo)).write(to: input)
      #expect(try metadataOf(input.path).exif != nil)  // the test file really carries EXIF
      let output = dir.appendingPathComponent("out.png")
      #expect(try runHexMask([input.path, output.path]).status == 0)
      let bytes = try [UInt8](Data(contentsOf: output))
      #expect(Set(pngChunkTypes(bytes)).isSubset(of: ["IHDR", "tEXt", "iCCP", "IDAT", "IEND"]))
      #expect(pngChunkTypes(bytes).filter { $0 == "tEXt" }.count == 1)  // the mark only
      for secret in ["Exif", "SN-4242-SECRET", "adobe:ns:meta", "private comment"] {
        #expect(!String(decoding: bytes, as: UTF8.self).contains(secret), "\(secret) leaked")
      }
    }
  }

  /// Every photo of the shared corpus with GPS tags, when the corpus is present.
  @Test(.enabled(if: SharedCorpus.has("exif"))) func sharedCorpusPhotosWithGPSLoseAllEXIF() throws {
    let corpus = URL(fileURLWithPath: SharedCorpus.path("exif"))
    let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
    var withGPS = 0
    try withTemporaryFolder { (dir: URL) throws in
      for name in names where name.hasSuffix(".jpg") {
        let input = corpus.appendingPathComponent(name).path
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input)))
        guard String(decoding: original, as: UTF8.self).contains("GPS") else { continue }
        withGPS += 1
        let output = dir.appendingPathComponent("out.png").path
        #expect(try runHexMask([input, output]).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(!pngChunkTypes(bytes).contains("eXIf"))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("Exif"))
      }
    }
    #expect(withGPS > 0, "no photo of \(corpus.path) has GPS tags")
  }
}

/// `jpeg` with an APP1 EXIF block (IFD0 with a camera serial and a GPS IFD holding a
/// latitude), an APP1 XMP packet and a COM comment inserted after SOI.
func jpegWithPrivateMetadata(_ jpeg: [UInt8]) -> [UInt8] {
  func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let length = payload.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }
  func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
  func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
  // Big-endian TIFF: header, IFD0 (2 entries) at 8, serial text at 38, GPS IFD at 54.
  let serial = Array("SN-4242-SECRET\0".utf8)
  var tiff: [UInt8] = Array("MM".utf8) + u16(42) + u32(8)
  tiff += u16(2)
  tiff += u16(0xA431) + u16(2) + u32(serial.count) + u32(38)  // BodySerialNumber
  tiff += u16(0x8825) + u16(4) + u32(1) + u32(54)  // GPSInfo IFD pointer
  tiff += u32(0)
  tiff += serial + [0]  // pad to 54
  tiff += u16(1) + u16(0x0002) + u16(5) + u32(3) + u32(72) + u32(0)  // GPSLatitude → 72
  tiff += [UInt8](repeating: 0, count: 72 - tiff.count)
  tiff += u32(48) + u32(1) + u32(51) + u32(1) + u32(30) + u32(1)
  let exif = segment(0xE1, Array("Exif\0\0".utf8) + tiff)
  let xmp = segment(
    0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8))
  let comment = segment(0xFE, Array("private comment".utf8))
  return Array(jpeg[0..<2]) + exif + xmp + comment + Array(jpeg[2...])
}
