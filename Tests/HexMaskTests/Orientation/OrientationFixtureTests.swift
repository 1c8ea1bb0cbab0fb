import Foundation
import TestSupport
import Testing

@testable import HexMask

/// The TIFF block of the first APP1 "Exif" segment of a JPEG, found by walking the
/// markers from SOI to the first scan; nil when there is none.
///
/// Test-only: the decoders will hand out metadata themselves.
func exifBlock(inJPEG jpeg: [UInt8]) -> [UInt8]? {
  guard jpeg.starts(with: [0xFF, 0xD8]) else { return nil }
  let header = Array("Exif\0\0".utf8)
  var offset = 2
  while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
    let marker = jpeg[offset + 1]
    // Fill bytes before a marker, and markers without a length (TEM, RSTn).
    if marker == 0xFF || marker == 0x01 || (0xD0...0xD7).contains(marker) {
      offset += marker == 0xFF ? 1 : 2
      continue
    }
    if marker == 0xDA || marker == 0xD9 { return nil }
    let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
    guard length >= 2 else { return nil }
    let payload = jpeg[min(offset + 4, jpeg.count)..<min(offset + 2 + length, jpeg.count)]
    if marker == 0xE1 && payload.starts(with: header) {
      return Array(payload.dropFirst(header.count))
    }
    offset += 2 + length
  }
  return nil
}

/// A fixture of `Fixtures/exif/`, its orientation parsed from its EXIF, upright.
func decodeUpright(_ name: String) throws -> (orientation: Orientation, image: DecodedImage) {
  let path = Fixtures.path("exif/\(name)")
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  let tiff = try #require(exifBlock(inJPEG: bytes), "\(name) has an Exif APP1")
  let orientation = Orientation.fromExif(tiff)
  let image = try withFile(path) { file in
    let decoder = OrientedDecoder(
      try openDecoder(file: file, maxPixels: 1 << 28), orientation: orientation)
    let pixels = try readMatrix(decoder).flatMap { $0.flatMap { $0 } }
    return DecodedImage(
      width: decoder.width, height: decoder.height, pixels: pixels,
      warnings: decoder.warnings.map(\.description))
  }
  return (orientation, image)
}

/// The mean absolute difference of each channel R, G, B, A between two same-size images.

let exifSets = ["Landscape", "Portrait"]

@Test(arguments: exifSets, 0...8)
func fixtureDeclaresTheOrientationInItsName(set: String, value: Int) throws {
  let (orientation, _) = try decodeUpright("\(set)_\(value).jpg")
  // _0 carries the tag with the invalid value 0, which counts as 1.
  #expect(orientation.rawValue == max(value, 1))
}

@Test(arguments: exifSets, 0...8)
func everyOrientationGivesTheSameUprightPicture(set: String, value: Int) throws {
  let reference = try decodeUpright("\(set)_1.jpg").image
  let image = try decodeUpright("\(set)_\(value).jpg").image
  let landscape = set == "Landscape"
  #expect(reference.width == (landscape ? 225 : 150) && reference.height == (landscape ? 150 : 225))
  try #require(image.width == reference.width && image.height == reference.height)
  let difference = image.meanChannelDifferences(from: reference)
  #expect(difference.allSatisfy { $0 < 4 }, "mean difference per channel \(difference)")
}

/// The comparison above would notice a wrong turn: stored pixels shown as they are differ a lot.
@Test(arguments: exifSets, 2...4)
func ignoringTheOrientationIsNoticed(set: String, value: Int) throws {
  let reference = try decodeUpright("\(set)_1.jpg").image
  let stored = try withFile(Fixtures.path("exif/\(set)_\(value).jpg")) { try decode(file: $0) }
  let difference = stored.meanChannelDifferences(from: reference)
  #expect(difference.contains { $0 > 20 }, "mean difference per channel \(difference)")
}

@Test func scannerSkipsSegmentsBeforeExif() {
  let app0: [UInt8] = [0xFF, 0xE0, 0, 4, 1, 2]
  let xmp: [UInt8] = [0xFF, 0xE1, 0, 6] + Array("http".utf8)
  let exif: [UInt8] = [0xFF, 0xE1, 0, 9] + Array("Exif\0\0".utf8) + [7]
  #expect(exifBlock(inJPEG: [0xFF, 0xD8] + app0 + xmp + exif + [0xFF, 0xDA]) == [7])
  #expect(exifBlock(inJPEG: [0xFF, 0xD8] + app0 + [0xFF, 0xDA] + exif) == nil)
  #expect(exifBlock(inJPEG: [0xFF, 0xD8, 0xFF, 0xE1, 0, 0]) == nil)
}
