import Foundation
import TestSupport
import Testing

@testable import HexMask

// Decoded pixels against independent decoders: pypng for PngSuite, libjpeg-turbo's
// djpeg for the JPEG fixtures. `scripts/make-references.py` wrote their digests into
// Fixtures/; these tests never run it.

/// One line of a reference listing: the size and the SHA-256 of the decoded pixels.
struct Reference: Sendable, Equatable {
  var width: Int
  var height: Int
  var sha256: String
}

/// Reads `path<TAB>width<TAB>height<TAB>sha256` lines, skipping `#` comments.
func references(_ listing: String) -> [String: Reference] {
  guard let text = try? String(contentsOfFile: Fixtures.path(listing), encoding: .utf8) else {
    return [:]
  }
  var result: [String: Reference] = [:]
  for line in text.split(separator: "\n") where !line.hasPrefix("#") {
    let fields = line.split(separator: "\t")
    guard fields.count == 4, let width = Int(fields[1]), let height = Int(fields[2]) else {
      continue
    }
    result[String(fields[0])] = Reference(width: width, height: height, sha256: String(fields[3]))
  }
  return result
}

let pngSuiteReferences = references("pngsuite/reference-rgba.txt")
let jpegReferences = references("jpeg/reference-rgb.txt")

/// Every JPEG under Fixtures/, as a path relative to it ("jpeg/testorig.jpg").
let jpegFixtures: [String] = {
  let enumerator = FileManager.default.enumerator(atPath: Fixtures.root.path)
  let paths = (enumerator?.allObjects as? [String]) ?? []
  // Not memory/: files claiming pictures of up to 768 MB to decode, which MemoryBombTests
  // run under a memory limit.
  return paths.filter {
    ($0.hasSuffix(".jpg") || $0.hasSuffix(".jpeg")) && !$0.hasPrefix("memory/")
  }.sorted()
}()

/// The RGB bytes of an opaque RGBA image.
func rgb(_ image: DecodedImage) -> [UInt8] {
  image.pixels.enumerated().compactMap { $0.offset % 4 == 3 ? nil : $0.element }
}

@Test func sha256MatchesTheStandardExamples() {
  #expect(sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  #expect(
    sha256Hex(Array("abc".utf8))
      == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  #expect(
    sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
      == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
}

@Test func referencesCoverEveryFixture() {
  #expect(
    Set(pngSuiteReferences.keys) == Set(Fixtures.pngSuite(corrupt: false).map { "pngsuite/" + $0 }))
  #expect(Set(jpegReferences.keys).isSubset(of: Set(jpegFixtures)))
  #expect(jpegReferences.count >= 30)
}

@Test(arguments: Fixtures.pngSuite(corrupt: false))
func pngSuiteMatchesPypng(name: String) throws {
  let reference = try #require(pngSuiteReferences["pngsuite/\(name)"])
  let image = try decodeFixture("pngsuite/\(name)")
  #expect(image.width == reference.width && image.height == reference.height)
  #expect(sha256Hex(image.pixels) == reference.sha256)
}

/// Every JPEG djpeg decodes gives djpeg's pixels exactly (same library, same default
/// IDCT and upsampling); every one it refuses, hexmask refuses too.
@Test(arguments: jpegFixtures)
func jpegMatchesDjpeg(name: String) throws {
  guard let reference = jpegReferences[name] else {
    let error = try decodingError(name)
    #expect(error?.kind == .unsupported || error?.kind == .corrupt)
    return
  }
  var image = try decodeFixture(name)
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name))))
  let metadata = try withFile(Fixtures.path(name)) {
    try openDecoder(file: $0, maxPixels: 1 << 28).metadata
  }
  if metadata.convertedToSRGB {
    // A CMYK file converted through its ICC profile (ColourAccuracyTests checks those
    // colours); djpeg knows only the formula, which hexmask uses without the profile.
    #expect(sha256Hex(rgb(image)) != reference.sha256)
    image = try decodeBytes(jpegWithoutICCProfile(bytes))
  }
  #expect(image.width == reference.width && image.height == reference.height)
  #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
  #expect(sha256Hex(rgb(image)) == reference.sha256)
}

/// `jpeg` with its APP2 ICC profile segments left out.
func jpegWithoutICCProfile(_ jpeg: [UInt8]) -> [UInt8] {
  var kept: [UInt8] = Array(jpeg.prefix(2))
  var offset = 2
  // The markers before the first scan (SOS, FFDA); the scan and the rest are copied whole.
  while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
    let end = min(jpeg.count, offset + 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])))
    let isICC =
      jpeg[offset + 1] == 0xE2 && jpeg[offset + 4..<end].starts(with: Array("ICC_PROFILE".utf8))
    if !isICC { kept += jpeg[offset..<end] }
    offset = end
  }
  return kept + jpeg[offset...]
}

/// The pixels of the picture in `bytes`, as hexmask's decoder gives them.
func decodeBytes(_ bytes: [UInt8]) throws -> DecodedImage {
  try withTemporaryFolder { url in
    let path = url.path + "/input"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try withFile(path) { try decode(file: $0) }
  }
}

/// The counts for the record: how much of each suite decodes, and agrees.
@Test func decodeCounts() throws {
  var pngValid = 0
  var pngAgree = 0
  var pngRefused = 0
  for name in Fixtures.pngSuite(corrupt: false) + Fixtures.pngSuite(corrupt: true) {
    guard let image = try? decodeFixture("pngsuite/\(name)") else {
      pngRefused += 1
      continue
    }
    pngValid += 1
    if sha256Hex(image.pixels) == pngSuiteReferences["pngsuite/\(name)"]?.sha256 { pngAgree += 1 }
  }
  var jpegDecoded = 0
  var jpegAgree = 0
  var jpegThroughProfile = 0
  var jpegRefused = 0
  for name in jpegFixtures {
    guard let image = try? decodeFixture(name) else {
      jpegRefused += 1
      continue
    }
    jpegDecoded += 1
    if sha256Hex(rgb(image)) == jpegReferences[name]?.sha256 {
      jpegAgree += 1
    } else if let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name)))),
      let formula = try? decodeBytes(jpegWithoutICCProfile(bytes)),
      sha256Hex(rgb(formula)) == jpegReferences[name]?.sha256
    {
      // A CMYK file converted through its profile; without it, djpeg's pixels.
      jpegThroughProfile += 1
    }
  }
  print(
    "PngSuite: \(pngValid) valid (\(pngAgree) identical to pypng), \(pngRefused) refused; "
      + "JPEG fixtures: \(jpegDecoded) decoded (\(jpegAgree) identical to djpeg, "
      + "\(jpegThroughProfile) CMYK through their profile), \(jpegRefused) refused")
  #expect(pngValid == 161 && pngAgree == 161 && pngRefused == 14)
  #expect(jpegDecoded == jpegReferences.count && jpegAgree + jpegThroughProfile == jpegDecoded)
  #expect(jpegThroughProfile == 2)
  #expect(jpegRefused == 3)
}
