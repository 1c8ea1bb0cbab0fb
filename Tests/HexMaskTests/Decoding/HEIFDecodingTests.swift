import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// HEIC/HEIF and AVIF through libheif: the fixtures of `scripts/make-heif-fixtures.sh`
/// (`Fixtures/heif/MANIFEST.txt`) and, when present, libheif's own files in
/// the shared corpus (`SharedCorpus`).
@Suite struct HEIFDecodingTests {
  /// Every row of the picture at `path`, opened through `openDecoder` with `targetSide`,
  /// and the decoder's metadata.
  static func decodeFile(
    _ path: String, maxPixels: Int = 1 << 28, targetSide: Int? = nil
  ) throws -> (image: DecodedImage, metadata: ImageMetadata, opaque: Bool) {
    try withFile(path) { file in
      let decoder = try openDecoder(file: file, maxPixels: maxPixels, targetSide: targetSide)
      var pixels = [UInt8](repeating: 0, count: decoder.width * decoder.height * 4)
      try pixels.withUnsafeMutableBufferPointer { (all) throws(ImageError) in
        for y in 0..<decoder.height {
          try decoder.readRow(
            into: UnsafeMutableBufferPointer(
              rebasing: all[y * decoder.width * 4..<(y + 1) * decoder.width * 4]))
        }
      }
      let image = DecodedImage(
        width: decoder.width, height: decoder.height, pixels: pixels,
        warnings: decoder.warnings.map(\.description))
      return (image, decoder.metadata, decoder.isOpaque)
    }
  }

  static func decodeFixture(_ name: String, targetSide: Int? = nil) throws -> (
    image: DecodedImage, metadata: ImageMetadata, opaque: Bool
  ) {
    try decodeFile(Fixtures.path("heif/" + name), targetSide: targetSide)
  }

  @Test(arguments: [
    "rocket.heic", "rocket-alpha.heic", "rocket-10bit.heic", "rocket-icc.heic",
    "rocket-thumbnail.heic", "rocket-exif6.heic", "rocket-alpha.avif", "rocket-10bit.avif",
  ])
  func fixturesDecodeAtTheirSize(name: String) throws {
    let (image, metadata, _) = try Self.decodeFixture(name)
    #expect(image.width == 128 && image.height == 85)
    #expect(image.warnings.isEmpty)
    #expect(metadata.exif == nil)
    // A photo, not a flat or empty buffer.
    #expect(Set(image.pixels).count > 50)
  }

  @Test(arguments: ["rocket-alpha.heic", "rocket-alpha.avif"])
  func alphaIsDecoded(name: String) throws {
    let (image, _, opaque) = try Self.decodeFixture(name)
    #expect(!opaque)
    // Clear corners, an opaque middle (the fixture's ellipse).
    #expect(image.pixel(0, 0)[3] < 16)
    #expect(image.pixel(127, 84)[3] < 16)
    #expect(image.pixel(64, 42)[3] > 240)
  }

  @Test func opaquePicturesSayOpaque() throws {
    let (image, _, opaque) = try Self.decodeFixture("rocket.heic")
    #expect(opaque)
    #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
  }

  /// Lossless 10-bit RGB bands of known values: each 8-bit sample is the 10-bit one
  /// rounded, (v × 255 + 511) / 1023, not truncated (3 gives 1, 513 gives 128).
  @Test func tenBitSamplesAreRoundedToEightBits() throws {
    let (image, _, _) = try Self.decodeFixture("bands-10bit.heic")
    #expect(image.width == 64 && image.height == 16)
    let bands = [0, 2, 3, 512, 513, 514, 1021, 1023]
    for (band, value) in bands.enumerated() {
      let expected = UInt8((value * 255 + 511) / 1023)
      for y in [0, 15] {
        #expect(
          image.pixel(band * 8 + 3, y) == [expected, expected, expected, 255],
          "band \(band): 10-bit \(value)")
      }
    }
  }

  @Test(arguments: [("rocket-10bit.heic", "rocket.heic"), ("rocket-10bit.avif", "rocket.heic")])
  func tenBitPhotosMatchTheEightBitOne(deep: String, shallow: String) throws {
    let ten = try Self.decodeFixture(deep).image
    let eight = try Self.decodeFixture(shallow).image
    #expect(ten.meanColorDifference(from: eight) < 4)
  }

  @Test func integerRoundingIsTheNearestValue() {
    // The decoder's rounding against the exact nearest value.
    for bits in [10, 12] {
      let maxValue = (1 << bits) - 1
      for value in 0...maxValue {
        let rounded = eightBits(value, maxValue: maxValue)
        let exact = (Double(value) * 255 / Double(maxValue)).rounded()
        #expect(Double(rounded) == exact, "\(bits)-bit \(value)")
      }
    }
  }

  @Test func premultipliedAlphaIsUndone() {
    var rgba: [UInt8] = [64, 32, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0]
    unpremultiply(&rgba)
    #expect(rgba == [128, 64, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0])
  }

  /// An EXIF orientation tag (6: turn 90°) inside a HEIF file is never applied: the file
  /// comes out as the same file without the tag does, through the decoder and the renderer.
  @Test func exifOrientationInHEIFIsIgnored() throws {
    let tagged = try Self.decodeFixture("rocket-exif6.heic")
    let plain = try Self.decodeFixture("rocket.heic")
    #expect(tagged.image.width == 128 && tagged.image.height == 85)
    #expect(tagged.metadata.exif == nil)
    #expect(tagged.image == plain.image)
    var input = HexMask.Input()
    input.autoOrient = true
    var output = HexMask.Output()
    output.size = 64
    let fromTagged = try HexMask.render(
      try Fixtures.bytes("heif/rocket-exif6.heic"), output: output, input: input
    ).bytes
    let fromPlain = try HexMask.render(
      try Fixtures.bytes("heif/rocket.heic"), output: output, input: input
    ).bytes
    #expect(fromTagged == fromPlain)
  }

  @Test func iccProfileIsKeptByteForByte() throws {
    let (_, metadata, _) = try Self.decodeFixture("rocket-icc.heic")
    #expect(metadata.iccProfile == (try Fixtures.bytes("heif/rocket-icc.icc")))
    #expect(try Self.decodeFixture("rocket.heic").metadata.iccProfile == nil)
  }

  @Test func thumbnailServesSmallSizes() throws {
    // The thumbnail is 64×42: used while 2 × targetSide ≤ 42.
    for side in [1, 16, 21] {
      let image = try Self.decodeFixture("rocket-thumbnail.heic", targetSide: side).image
      #expect(image.width == 64 && image.height == 42, "targetSide \(side)")
    }
    for side in [22, 64, 256] {
      let image = try Self.decodeFixture("rocket-thumbnail.heic", targetSide: side).image
      #expect(image.width == 128 && image.height == 85, "targetSide \(side)")
    }
    #expect(try Self.decodeFixture("rocket-thumbnail.heic").image.width == 128)
    // No thumbnail: the primary whatever the size.
    #expect(try Self.decodeFixture("rocket.heic", targetSide: 1).image.width == 128)
  }

  @Test func pixelLimitRefusesFromTheHeader() throws {
    let limit = 128 * 85 - 1
    let error = thrownError { () throws(ImageError) in
      _ = try openHEIF(
        bytes: try! Fixtures.bytes("heif/rocket.heic"), maxPixels: limit, targetSide: nil)
    }
    #expect(error?.kind == .tooLarge)
    #expect(error?.pixels == ImageError.PixelLimit(width: 128, height: 85, limit: limit))
    #expect(try decodingError("heif/rocket.heic", maxPixels: 128 * 85) == nil)
    // A thumbnail within the limit does not let a primary over it through.
    let thumbnailError = thrownError { () throws(ImageError) in
      _ = try openHEIF(
        bytes: try! Fixtures.bytes("heif/rocket-thumbnail.heic"), maxPixels: 64 * 42, targetSide: 8)
    }
    #expect(thumbnailError?.kind == .tooLarge)
    // Through the bytes API.
    var input = HexMask.Input()
    input.maxPixels = limit
    var output = HexMask.Output()
    output.size = 8
    let result = Result(catching: { () throws(HexMask.Error) -> [UInt8] in
      try HexMask.render(
        try! Fixtures.bytes("heif/rocket-alpha.avif"), output: output, input: input
      )
      .bytes
    })
    guard case .failure(.decoding(let failure)) = result else {
      Issue.record("expected a decoding error, got \(result)")
      return
    }
    #expect(failure.kind == .tooLarge)
    #expect(failure.pixels?.width == 128)
  }

  /// An AVIF sequence holds its frames in a track libheif does not count as pictures;
  /// its brand says it is a sequence, and only the first picture is shown, with a warning.
  @Test func anImageSequenceGivesItsPrimaryPictureWithAWarning() throws {
    let decoder = try openHEIF(
      bytes: try Fixtures.bytes("heif/sequence.avifs"), maxPixels: 1 << 20, targetSide: nil,
      isAVIF: true)
    #expect(decoder.width == 16)
    #expect(decoder.warnings.map(\.kind) == [.otherPicturesIgnored])
    let still = try openHEIF(
      bytes: try Fixtures.bytes("heif/rocket-alpha.avif"), maxPixels: 1 << 20, targetSide: nil,
      isAVIF: true)
    #expect(still.warnings.isEmpty)
  }

  @Test func picturesWithLongSidesWithinTheLimitDecode() throws {
    // libheif's own limit bounds sides; it must not refuse a picture inside maxPixels.
    let bytes = try Fixtures.bytes("heif/bands-10bit.heic")  // 64×16
    let decoder = try openHEIF(bytes: bytes, maxPixels: 64 * 16, targetSide: nil)
    #expect(decoder.width == 64)
  }

  @Test func truncatedAndDamagedFilesGiveOneLineErrors() throws {
    let whole = try Fixtures.bytes("heif/rocket-alpha.heic")
    var refused = 0
    for length in stride(from: 12, to: whole.count, by: 97) {
      let error = thrownError { () throws(ImageError) in
        _ = try openHEIF(bytes: Array(whole.prefix(length)), maxPixels: 1 << 28, targetSide: nil)
      }
      if let error {
        refused += 1
        #expect(!error.reason.isEmpty && !error.reason.contains("\n"), "\(error.reason)")
        #expect([.corrupt, .unsupported, .tooLarge].contains(error.kind), "\(error)")
      }
    }
    #expect(refused > 0)
    // Seeded byte changes: an error or a picture, never a crash.
    var random = SplitMix64(seed: 13)
    for _ in 0..<60 {
      var damaged = whole
      for _ in 0..<4 {
        damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(
          truncatingIfNeeded: random.next())
      }
      let error = thrownError { () throws(ImageError) in
        let decoder = try openHEIF(bytes: damaged, maxPixels: 1 << 20, targetSide: nil)
        var row = [UInt8](repeating: 0, count: decoder.width * 4)
        for _ in 0..<decoder.height {
          try row.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
            try decoder.readRow(into: buffer)
          }
        }
      }
      if let error { #expect(!error.reason.contains("\n")) }
    }
    // Through the bytes API too.
    let result = Result(catching: { () throws(HexMask.Error) -> [UInt8] in
      try HexMask.render(Array(whole.prefix(300))).bytes
    })
    guard case .failure(.decoding(let failure)) = result else {
      Issue.record("expected a decoding error, got \(result)")
      return
    }
    #expect(failure.kind == .corrupt, "\(failure)")
  }

  // MARK: - libheif's files, when the shared corpus is there

  static let corpus = SharedCorpus.url("heif")

  static var hasCorpus: Bool { SharedCorpus.has("heif") }

  @Test(.enabled(if: hasCorpus)) func corpusExampleIsThePrimaryWithAWarning() throws {
    let path = Self.corpus.appendingPathComponent("example.heic").path
    let (image, _, _) = try Self.decodeFile(path)
    #expect(image.width == 1280 && image.height == 854)
    #expect(image.warnings.contains { $0.contains("2 pictures") && $0.contains("primary") })
    // Its 320×212 thumbnail serves an avatar of up to 106 px.
    let small = try Self.decodeFile(path, targetSide: 100).image
    #expect(small.width == 320 && small.height == 212)
    // The limit refuses it from the header, before decoding.
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let error = thrownError { () throws(ImageError) in
      _ = try openHEIF(bytes: bytes, maxPixels: 1_000_000, targetSide: nil)
    }
    #expect(error?.kind == .tooLarge)
    #expect(error?.pixels?.width == 1280)
  }

  @Test(.enabled(if: hasCorpus)) func corpusValidFilesDecode() throws {
    let sizes = [
      "example.avif": (800, 533), "rainbow-451x461.heic": (451, 461), "hevc32.heif": (32, 32),
      "avif32.heif": (32, 32), "colors-with-alpha.heic": (64, 64),
      "colors-with-alpha-thumbnail.heic": (72, 72), "colors-no-alpha-thumbnail.heic": (72, 72),
    ]
    for (name, size) in sizes {
      let (image, metadata, _) = try Self.decodeFile(Self.corpus.appendingPathComponent(name).path)
      #expect(image.width == size.0 && image.height == size.1, "\(name)")
      if name == "rainbow-451x461.heic" { #expect(metadata.iccProfile != nil) }
    }
  }

  /// Each hostile file is first run by the built `hexmask` in a child process with a time
  /// limit: a crash or a hang there fails the test (and the file is not decoded in-process,
  /// where it would take the run down). The others must decode, or be refused with a typed
  /// error and a one-line reason (an unsupported file refused so is a pass).
  @Test(.enabled(if: hasCorpus)) func corpusHostileFilesAreRefusedOrDecoded() throws {
    let folder = Self.corpus.appendingPathComponent("hostile")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names.count > 20)
    let executable = try #require(
      try? hexmaskExecutable(), "the built hexmask is needed to run hostile files safely")
    var refused = 0
    for name in names {
      let path = folder.appendingPathComponent(name).path
      if let failure = Self.crashesOrHangs(executable, path) {
        Issue.record("HEIF hostile file \(name): hexmask \(failure)")
        continue
      }
      do {
        _ = try Self.decodeFile(path, maxPixels: 1 << 26)
      } catch let error as ImageError {
        refused += 1
        #expect(!error.reason.isEmpty && !error.reason.contains("\n"), "\(name): \(error)")
      } catch {
        Issue.record("HEIF hostile file \(name): not an ImageError: \(error)")
      }
    }
    #expect(refused > 20)
  }

  /// How `hexmask path` in a child process crashed or hung (no end after 30 s, far beyond
  /// any real decoding: a guard against hangs, not a speed check), or nil when it ended.
  static func crashesOrHangs(_ executable: URL, _ path: String) -> String? {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("hexmask-heif-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: output) }
    let run: ProcessRun
    do {
      run = try runProcess(executable, [path, output.path, "--size", "16"], timeout: 30)
    } catch {
      return "could not be started: \(error)"
    }
    if run.timedOut { return "hung (no end after 30 s)" }
    if run.killedBySignal { return "crashed with signal \(run.status)" }
    return nil
  }
}
