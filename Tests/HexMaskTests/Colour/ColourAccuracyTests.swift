import Foundation
import TestSupport
import Testing

@testable import HexMask

/// `colorSpace = .srgb` against libvips' `icc_transform` (or lcms2 through Pillow where
/// libvips swaps the profile for its own), sampled into Fixtures/colour/reference.tsv by
/// scripts/colour_accuracy.py, which also measures ΔE2000 over every opaque pixel.
@Suite struct ColourAccuracyTests {
  struct Sample {
    var x: Int
    var y: Int
    var srgb: [Int]
  }

  /// The reference samples, by fixture.
  static let samples: [String: [Sample]] = {
    guard
      let text = try? String(
        contentsOfFile: Fixtures.path("colour/reference.tsv"), encoding: .utf8)
    else { return [:] }
    var samples: [String: [Sample]] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t").map(String.init)
      guard fields.count == 6, let x = Int(fields[1]), let y = Int(fields[2]) else { continue }
      let srgb = fields[4].split(separator: " ").compactMap { Int($0) }
      samples[fields[0], default: []].append(Sample(x: x, y: y, srgb: srgb))
    }
    return samples
  }()

  static let files = [
    "chart-p3.png", "chart-prophoto.png", "photo-adobergb.jpg", "photo-p3.jpg", "photo-p3.png",
    "photo-prophoto.jpg", "photo-gray-dotgain20.jpg", "photo-cmyk-naive.jpg",
    "photo-cmyk-press.jpg",
  ]

  /// The output's pixels at its own size, with no border.
  static func pixels(_ file: String, _ colorSpace: HexMask.ColorSpace) throws -> DecodedImage {
    let bytes = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("colour/\(file)"))))
    var output = HexMask.Output()
    output.colorSpace = colorSpace
    var shape = HexMask.Shape()
    shape.line = .pixels(0)
    return try decodePNG(try HexMask.render(bytes, shape: shape, output: output).bytes).image
  }

  @Test func everyFixtureHasSamples() {
    #expect(Set(Self.samples.keys) == Set(Self.files))
    #expect(Self.samples.values.allSatisfy { $0.count == 9 })
  }

  /// Within 2 levels of the reference at every sample (lcms2's 8-bit transform against
  /// libvips' 16-bit one); the converted picture is opaque there.
  @Test(arguments: files) func srgbMatchesTheReference(file: String) throws {
    let image = try Self.pixels(file, .srgb)
    for sample in try #require(Self.samples[file]) {
      let index = (sample.y * image.width + sample.x) * 4
      let found = image.pixels[index..<index + 3].map(Int.init)
      #expect(image.pixels[index + 3] == 255)
      #expect(
        zip(found, sample.srgb).allSatisfy { abs($0 - $1) <= 2 },
        "\(file) at \(sample.x),\(sample.y): \(found), expected \(sample.srgb)")
    }
  }

  /// The control: a wide-gamut picture left in its own numbers misses the reference by more
  /// than the tolerance somewhere, so the check above can fail.
  @Test(arguments: [
    "chart-p3.png", "chart-prophoto.png", "photo-adobergb.jpg", "photo-p3.jpg",
    "photo-prophoto.jpg",
  ])
  func keptNumbersMissTheReference(file: String) throws {
    let image = try Self.pixels(file, .keep)
    let misses = try #require(Self.samples[file]).filter { sample in
      let index = (sample.y * image.width + sample.x) * 4
      return zip(image.pixels[index..<index + 3], sample.srgb).contains { abs(Int($0) - $1) > 2 }
    }
    #expect(misses.count >= 3)
  }
}
