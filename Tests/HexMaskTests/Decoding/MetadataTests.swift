import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The metadata of a fixture, read as soon as the decoder is open (no row decoded).
func metadata(_ name: String) throws -> ImageMetadata {
  try withFile(Fixtures.path(name)) { file in
    try openDecoder(file: file, maxPixels: 1 << 28).metadata
  }
}

/// The metadata of `bytes`, and whether every row then decodes.
func metadata(bytes: [UInt8]) throws -> (metadata: ImageMetadata, image: DecodedImage) {
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/input"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let found = try withFile(path) { file in
      try openDecoder(file: file, maxPixels: 1 << 28).metadata
    }
    let image = try withFile(path) { file in try decode(file: file) }
    return (found, image)
  }
}

/// `fixture` with `segments` (marker byte, payload) inserted right after its SOI.
func jpeg(_ fixture: String, inserting segments: [(UInt8, [UInt8])]) throws -> [UInt8] {
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture))))
  var inserted: [UInt8] = []
  for (marker, payload) in segments {
    let length = payload.count + 2
    inserted += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }
  return Array(bytes[..<2]) + inserted + bytes[2...]
}

/// The APP2 payload of ICC segment `number` of `count`.
func iccSegment(_ number: Int, of count: Int, _ bytes: [UInt8]) -> (UInt8, [UInt8]) {
  (0xE2, Array("ICC_PROFILE\0".utf8) + [UInt8(number), UInt8(count)] + bytes)
}

/// A TIFF header, as every EXIF block starts: "MM\0*" or "II*\0".
func startsLikeTIFF(_ exif: [UInt8]?) -> Bool {
  guard let exif, exif.count >= 4 else { return false }
  return exif.prefix(4).elementsEqual([0x4D, 0x4D, 0, 0x2A])
    || exif.prefix(4).elementsEqual([0x49, 0x49, 0x2A, 0])
}

/// An ICC profile's own length field (bytes 0…3) and colour space (bytes 16…19).
func iccHeader(_ profile: [UInt8]) -> (size: Int, space: String) {
  (
    profile.prefix(4).reduce(0) { $0 << 8 | Int($1) },
    String(decoding: profile[16..<20], as: UTF8.self)
  )
}

// MARK: EXIF

@Test func exifFromJpegApp1() throws {
  let found = try metadata("jpeg/pil_sample_cmyk.jpg")
  #expect(found.exif?.count == 2493)
  #expect(startsLikeTIFF(found.exif))
  // Only the EXIF block: this file's XMP APP1 is not in it.
  #expect(found.exif.map { !String(decoding: $0, as: UTF8.self).contains("adobe:ns:meta") } == true)
}

@Test func truncatedExifIsPassedOnAsItIs() throws {
  // The block is cut short in the file; its reader, not the decoder, must cope.
  let found = try metadata("icc/truncated_exif_dpi.jpg")
  #expect(found.exif?.count == 7)
  #expect(startsLikeTIFF(found.exif))
}

@Test func exifFromPngExifChunk() throws {
  let found = try metadata("pngsuite/exif2c08.png")
  #expect(found.exif?.count == 978)
  #expect(startsLikeTIFF(found.exif))
  #expect(found.iccProfile == nil && found.warnings.isEmpty)
}

@Test(arguments: ["jpeg/testorig.jpg", "pngsuite/basn6a08.png", "jpeg/jpg-gray.jpg"])
func noMetadataIsNil(name: String) throws {
  let found = try metadata(name)
  #expect(found.exif == nil && found.iccProfile == nil && found.warnings.isEmpty)
}

@Test func onlyTheFirstExifBlockCounts() throws {
  let first = Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0, 0x2A, 1]
  let second = Array("Exif\0\0".utf8) + [0x49, 0x49, 0x2A, 0, 2]
  let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
  let bytes = try jpeg(
    "jpeg/jpg-size-1x1.jpg", inserting: [(0xE1, xmp), (0xE1, first), (0xE1, second)])
  let found = try metadata(bytes: bytes)
  #expect(found.metadata.exif == [0x4D, 0x4D, 0, 0x2A, 1])
  #expect(found.image.width == 1)
}

/// Every photo of the EXIF set has its block (CI has the shared corpus, `SharedCorpus`;
/// these are 250–350 KB each, too big for Fixtures/).
@Test(.enabled(if: SharedCorpus.has("exif"))) func exifOfTheOrientationSet() throws {
  let folder = SharedCorpus.path("exif")
  let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    .filter { $0.hasSuffix(".jpg") }
  #expect(!names.isEmpty)
  for name in names {
    let found = try withFile(folder + "/" + name) { file in
      try openDecoder(file: file, maxPixels: 1 << 28).metadata
    }
    #expect(startsLikeTIFF(found.exif), "\(name)")
  }
}

// MARK: ICC from JPEG

@Test func iccFromOneJpegSegment() throws {
  let gray = try #require(try metadata("icc/grayscale-icc.jpg").iccProfile)
  #expect(gray.count == 912)
  #expect(iccHeader(gray) == (912, "GRAY"))
  let rgb = try #require(try metadata("icc/truncated_exif_dpi.jpg").iccProfile)
  #expect(iccHeader(rgb) == (1992, "RGB "))
}

@Test func iccSplitOverSegmentsOutOfOrder() throws {
  let profile = try #require(try metadata("icc/p3.png").iccProfile)
  let pieces = [profile[..<200], profile[200..<201], profile[201...]].map(Array.init)
  let bytes = try jpeg(
    "jpeg/jpg-size-1x1.jpg",
    inserting: [
      iccSegment(3, of: 3, pieces[2]), iccSegment(1, of: 3, pieces[0]),
      iccSegment(2, of: 3, pieces[1]),
    ])
  let found = try metadata(bytes: bytes)
  #expect(found.metadata.iccProfile == profile)
  #expect(found.metadata.warnings.isEmpty)
}

@Test func iccAfterTheFrameHeaderIsFound() throws {
  // The segment appears twice, before and after SOF, with the same bytes.
  let found = try metadata("icc/icc-after-SOF.jpg")
  #expect(found.iccProfile == Array("profile".utf8))
  #expect(found.warnings.isEmpty)
}

@Test func iccSegmentsOutOfOrderAreReassembled() throws {
  // 254 one-byte segments in shuffled order; segment n holds the byte n.
  let found = try metadata("icc/icc_chunk_order.jpeg")
  #expect(found.iccProfile == (1...254).map { UInt8($0) })
  #expect(found.warnings.isEmpty)
}

@Test(
  arguments: [
    (
      "icc/icc_chunk_count_mismatch.jpeg",
      "ICC profile segment number 254 is outside 1…250; profile dropped"
    ),
    ("icc/icc_chunk_double_seq_no.jpeg", "ICC profile segment 100 appears twice; profile dropped"),
    (
      "icc/icc_chunk_seq_no_0.jpeg",
      "ICC profile segment number 0 is outside 1…254; profile dropped"
    ),
    ("icc/icc_missing_chunk.jpeg", "ICC profile segment 100 of 254 is missing; profile dropped"),
  ])
func malformedIccSequenceIsDroppedWithAWarning(name: String, warning: String) throws {
  let found = try metadata(name)
  #expect(found.iccProfile == nil)
  #expect(found.warnings == [Warning(.metadataDropped, warning)])
  // The image itself is still there.
  let image = try decodeFixture(name)
  #expect(image.width == 1 && image.height == 1 && image.warnings.isEmpty)
}

@Test func tooManyIccSegmentsAreDroppedWithoutKeepingThemAll() throws {
  let segments = (0..<300).map { _ in iccSegment(1, of: 1, [7]) }
  let found = try metadata(bytes: try jpeg("jpeg/jpg-size-1x1.jpg", inserting: segments))
  #expect(found.metadata.iccProfile == nil)
  #expect(
    found.metadata.warnings.map(\.description) == [
      "ICC profile is split into more than 255 segments; profile dropped"
    ]
  )
  #expect(found.image.width == 1)
}

@Test func iccReassemblyRules() {
  let none = reassembleICCProfile([])
  #expect(none.profile == nil && none.warning == nil)
  let two = reassembleICCProfile([[2, 2, 3, 4], [1, 2, 1, 2]])
  #expect(two.profile == [1, 2, 3, 4] && two.warning == nil)
  let copy = reassembleICCProfile([[1, 1, 9], [1, 1, 9]])
  #expect(copy.profile == [9] && copy.warning == nil)
  #expect(
    reassembleICCProfile([[1, 2, 9], [2, 3, 9]]).warning
      == "ICC profile segments disagree on their count; profile dropped")
  #expect(
    reassembleICCProfile([[1]]).warning
      == "ICC profile segment is too short to hold its number; profile dropped")
  #expect(
    reassembleICCProfile([[1, 0, 5]]).warning
      == "ICC profile segment number 1 is outside 1…0; profile dropped")
  #expect(reassembleICCProfile([[1, 1]]).warning == "ICC profile is empty; profile dropped")
  #expect(reassembleICCProfile([[1, 2, 9]]).profile == nil)
}

/// icc_profile_big.jpg (in the shared corpus only, 500 KB) spreads a 400 KB profile over 7 segments.
@Test(.enabled(if: SharedCorpus.has("icc/icc_profile_big.jpg")))
func bigIccProfileFromTheCorpus() throws {
  let path = SharedCorpus.path("icc/icc_profile_big.jpg")
  let found = try withFile(path) { file in try openDecoder(file: file, maxPixels: 1 << 28).metadata
  }
  let profile = try #require(found.iccProfile)
  #expect(iccHeader(profile) == (399_788, "RGB "))
}

// MARK: ICC from PNG

@Test(arguments: [("icc/p3.png", 548), ("icc/prophoto.png", 940), ("icc/icc_profile.png", 3144)])
func iccFromPngIccpChunk(name: String, size: Int) throws {
  let found = try metadata(name)
  let profile = try #require(found.iccProfile)
  #expect(iccHeader(profile) == (size, "RGB "))
  // libpng grumbles about prophoto's PCS illuminant, but keeps the profile: no warning.
  #expect(found.warnings.isEmpty)
  #expect(found.exif == nil)
}

/// Files cut inside their metadata decode or fail with a reason; lengths that run past
/// the end of the data are never trusted.
@Test(arguments: [
  "icc/icc_chunk_order.jpeg", "icc/truncated_exif_dpi.jpg", "pngsuite/exif2c08.png", "icc/p3.png",
])
func cutInsideMetadata(name: String) throws {
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name))))
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/cut"
    for end in stride(from: 3, to: min(bytes.count, 3000), by: 37) {
      try Data(bytes[..<end]).write(to: URL(fileURLWithPath: path))
      let error = try withFile(path) { file in
        thrownError { () throws(ImageError) in _ = try decode(file: file) }
      }
      if let error { #expect(!error.reason.isEmpty, "\(name) cut at \(end)") }
    }
  }
}
