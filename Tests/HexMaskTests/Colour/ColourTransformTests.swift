import Foundation
import TestSupport
import Testing

@testable import HexMask

/// ColourTransform against Pillow's ImageCms (its own build of Little CMS), whose answers
/// scripts/icc_reference.py wrote to Fixtures/icc/srgb-reference.tsv.
@Suite struct ColourTransformTests {
  typealias Transform = HexMask.ColourTransform

  /// One reference line: a profile, its input pixel (3 samples, or 1 for gray) and sRGB.
  struct Reference {
    var profile: String
    var input: [UInt8]
    var srgb: [UInt8]
  }

  static func references(_ profile: String) throws -> [Reference] {
    let text = try String(
      contentsOfFile: Fixtures.path("icc/srgb-reference.tsv"), encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: "\t")
      guard !line.hasPrefix("#"), fields.count == 3, fields[0] == profile else { return nil }
      let samples = { (field: Substring) in field.split(separator: " ").compactMap { UInt8($0) } }
      return Reference(profile: profile, input: samples(fields[1]), srgb: samples(fields[2]))
    }
  }

  static func transform(_ profile: String) throws -> Transform {
    try Transform(iccProfile: try Fixtures.bytes("icc/\(profile)"))
  }

  /// RGBA rows of the references' inputs, alpha varying so that copying it shows.
  static func rgbaRow(_ references: [Reference]) -> [UInt8] {
    references.enumerated().flatMap { index, reference in
      reference.input + [UInt8(truncatingIfNeeded: index * 37)]
    }
  }

  static func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
  }

  @Test(arguments: ["sRGB.icc", "AdobeRGB1998.icc", "ProPhotoRGB.icc"])
  func rgbProfilesAgreeWithPillowWithinOneLevel(profile: String) throws {
    let references = try Self.references(profile)
    #expect(references.count == 729)
    let transform = try Self.transform(profile)
    #expect(transform.input == .rgb)
    var row = Self.rgbaRow(references)
    row.withUnsafeMutableBufferPointer { transform.convert($0) }
    var worst = 0
    for (index, reference) in references.enumerated() {
      let pixel = Array(row[index * 4..<index * 4 + 3])
      worst = max(worst, Self.largestDifference(pixel, reference.srgb))
      #expect(row[index * 4 + 3] == UInt8(truncatingIfNeeded: index * 37), "alpha is copied")
    }
    #expect(worst <= 1, "\(profile): largest difference from Pillow \(worst) levels")
  }

  @Test func srgbProfileIsTheIdentityWithinOneLevel() throws {
    let references = try Self.references("sRGB.icc")
    let transform = try Self.transform("sRGB.icc")
    var row = Self.rgbaRow(references)
    let before = row
    row.withUnsafeMutableBufferPointer { transform.convert($0) }
    #expect(Self.largestDifference(row, before) <= 1)
  }

  @Test(arguments: [
    ("sRGB.icc", "sRGB", true), ("AdobeRGB1998.icc", "Compatible with Adobe RGB (1998)", false),
    ("ProPhotoRGB.icc", "ProPhoto RGB", false), ("DotGain20.icc", "Dot Gain 20%", false),
    ("NaiveCMYK.icc", "hexmask naive CMYK (test profile)", false),
  ])
  func descriptionAndWhetherTheProfileIsSRGB(profile: String, description: String, srgb: Bool)
    throws
  {
    // The descriptions are Pillow's getProfileDescription, less its trailing newline.
    let transform = try Self.transform(profile)
    #expect(transform.description == description)
    #expect(transform.matchesSRGB == srgb)
  }

  @Test func wideGamutProfilesMoveColours() throws {
    // Guards the agreement test against a transform that does nothing: pure Adobe RGB green
    // is outside sRGB, so it must come out changed.
    for profile in ["AdobeRGB1998.icc", "ProPhotoRGB.icc"] {
      var pixel: [UInt8] = [64, 192, 64, 255]
      try pixel.withUnsafeMutableBufferPointer { try Self.transform(profile).convert($0) }
      #expect(pixel != [64, 192, 64, 255], "\(profile)")
    }
  }

  /// Gray profiles of three kinds: a dot gain curve (Photoshop's), the identity (gamma 1.0:
  /// icc-profiles-free's Gray.icc) and L* (Gray-CIE_L.icc), every level within one of Pillow.
  @Test(arguments: [("DotGain20.icc", 1), ("Gray.icc", 1), ("Gray-CIE_L.icc", -1)])
  func grayProfileStaysGrayAndAgreesWithPillow(profile: String, midGray: Int) throws {
    let references = try Self.references(profile)
    #expect(references.count == 256)
    let transform = try Self.transform(profile)
    #expect(transform.input == .gray)
    var row: [UInt8] = references.flatMap { [$0.input[0], $0.input[0], $0.input[0], 200] }
    row.withUnsafeMutableBufferPointer { transform.convert($0) }
    var samples = references.map { $0.input[0] }
    samples.withUnsafeMutableBufferPointer { transform.convertGray($0) }
    var worst = 0
    for (index, reference) in references.enumerated() {
      let pixel = Array(row[index * 4..<index * 4 + 4])
      #expect(pixel[0] == pixel[1] && pixel[1] == pixel[2], "gray stays gray")
      #expect(pixel[3] == 200, "alpha is untouched")
      #expect(samples[index] == pixel[0], "1-byte rows convert as RGBA rows do")
      worst = max(worst, Self.largestDifference([pixel[0], pixel[0], pixel[0]], reference.srgb))
    }
    #expect(worst <= 1, "largest difference from Pillow \(worst) levels")
    // Dot gain: a 50% dot prints darker than 50%, so sRGB gray comes out lighter than 128;
    // linear light at half is lighter in sRGB's curve too; L* 50 is darker.
    #expect((Int(samples[128]) - 128).signum() == midGray)
  }

  @Test(arguments: [false, true])
  func cmykProfileAgreesWithPillow(inverted: Bool) throws {
    // NaiveCMYK.icc (scripts/make-cmyk-profile.c) and Pillow's CMYK hold ink, 0 = none;
    // Adobe JPEGs hold 255 − ink, which `invertedCMYK` reads.
    let references = try Self.references("NaiveCMYK.icc")
    #expect(references.count == 625)
    let transform = try Transform(
      iccProfile: try Fixtures.bytes("icc/NaiveCMYK.icc"), invertedCMYK: inverted)
    #expect(transform.input == .cmyk)
    var row = references.flatMap { $0.input.map { inverted ? 255 - $0 : $0 } }
    row.withUnsafeMutableBufferPointer { transform.convert($0) }
    var worst = 0
    for (index, reference) in references.enumerated() {
      worst = max(
        worst, Self.largestDifference(Array(row[index * 4..<index * 4 + 3]), reference.srgb))
      #expect(row[index * 4 + 3] == 255, "CMYK comes out opaque")
    }
    #expect(worst <= 1, "largest difference from Pillow \(worst) levels")
  }

  @Test func inPlaceMatchesPillowOnEveryPixelOfAWideRow() throws {
    // A 4096-pixel row of pseudo-random colours: lcms2's optimised paths work on runs of
    // pixels, so a long row checks that converting in place reads no pixel already written.
    var generator = SplitMix64(seed: 31)
    let row = (0..<4096 * 4).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let transform = try Self.transform("AdobeRGB1998.icc")
    var whole = row
    whole.withUnsafeMutableBufferPointer { transform.convert($0) }
    var pixelByPixel = row
    pixelByPixel.withUnsafeMutableBufferPointer { buffer in
      for start in stride(from: 0, to: buffer.count, by: 4) {
        transform.convert(UnsafeMutableBufferPointer(rebasing: buffer[start..<start + 4]))
      }
    }
    #expect(whole == pixelByPixel)
  }

  @Test func damagedProfilesAreTypedErrors() throws {
    let bytes = try Fixtures.bytes("icc/AdobeRGB1998.icc")
    for length in [0, 1, 64, 128, 200, bytes.count / 2, bytes.count - 1] {
      // Cut short: the size in its first 4 bytes says so; without them, a header's 128.
      let reason =
        length == 0
        ? "empty or oversized ICC profile"
        : "truncated ICC profile: \(length) of \(length < 4 ? 128 : bytes.count) bytes"
      #expect(throws: HexMask.ColourProfileError(kind: .unreadable, reason: reason)) {
        _ = try Transform(iccProfile: Array(bytes.prefix(length)))
      }
    }
    var garbage = bytes
    for index in stride(from: 128, to: garbage.count, by: 7) { garbage[index] ^= 0xA5 }
    // lcms2's own words for what it cannot parse: the kind is hexmask's.
    let damaged = #expect(throws: HexMask.ColourProfileError.self) {
      _ = try Transform(iccProfile: garbage)
    }
    #expect(damaged?.kind == .unreadable)
    // Text read as a header declares a size of 0x6E6F7420 ("not "), far past its 13 bytes.
    #expect(
      throws: HexMask.ColourProfileError(
        kind: .unreadable, reason: "truncated ICC profile: 13 of 1852797984 bytes")
    ) {
      _ = try Transform(iccProfile: Array("not a profile".utf8))
    }
  }

  @Test func damagedProfileErrorCarriesLcmsReason() throws {
    // Scrambled tag table: lcms2 refuses it and says why through the context's handler (the
    // message would otherwise go to stderr), so the reason is lcms2's, not the fallback.
    var bytes = try Fixtures.bytes("icc/ProPhotoRGB.icc")
    for index in 128..<140 { bytes[index] = 0xFF }
    do {
      _ = try Transform(iccProfile: bytes)
      Issue.record("a damaged profile made a transform")
    } catch {
      #expect(error.kind == .unreadable)
      #expect(!error.reason.isEmpty && error.reason != "unreadable ICC profile", "\(error.reason)")
    }
  }

  @Test func truncatedProfileIsRefusedEvenWhereLcmsWouldReadIt() throws {
    // lcms2 reads tags lazily, so it would build a transform from this half profile.
    let bytes = try Fixtures.bytes("icc/AdobeRGB1998.icc")
    #expect(
      throws: HexMask.ColourProfileError(
        kind: .unreadable,
        reason: "truncated ICC profile: \(bytes.count - 1) of \(bytes.count) bytes")
    ) {
      _ = try Transform(iccProfile: Array(bytes.dropLast()))
    }
  }

  @Test(arguments: [
    "sRGB.icc", "AdobeRGB1998.icc", "ProPhotoRGB.icc", "DotGain20.icc", "NaiveCMYK.icc",
  ])
  func mangledProfilesNeverTrap(profile: String) throws {
    // Random bytes changed, and profiles cut short with their header's size made to agree, so
    // that lcms2's own parser meets the damage. Each one is a typed error with a reason, or a
    // transform that converts a row the same way twice.
    let original = try Fixtures.bytes("icc/\(profile)")
    var generator = SplitMix64(seed: 31)
    var refused = 0
    for round in 0..<60 {
      var bytes = original
      if round.isMultiple(of: 3) {
        let length = Int.random(in: 128..<bytes.count, using: &generator)
        bytes = Array(bytes.prefix(length))
        for index in 0..<4 { bytes[index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index)) }
      } else {
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = .random(
            in: 0...255, using: &generator)
        }
      }
      do {
        let transform = try Transform(iccProfile: bytes)
        let row = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        var first = row
        var second = row
        first.withUnsafeMutableBufferPointer { transform.convert($0) }
        second.withUnsafeMutableBufferPointer { transform.convert($0) }
        #expect(first == second, "round \(round)")
      } catch {
        refused += 1
        #expect(!error.reason.isEmpty, "round \(round)")
      }
    }
    // Cutting the tag table or the tags must be noticed some of the time.
    #expect(refused > 0)
  }

  @Test func sameBytesOnEveryThread() async throws {
    var generator = SplitMix64(seed: 7)
    let row = (0..<2048 * 4).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let shared = try Self.transform("ProPhotoRGB.icc")
    var expected = row
    expected.withUnsafeMutableBufferPointer { try? Self.transform("ProPhotoRGB.icc").convert($0) }
    let results = await withTaskGroup(of: [UInt8].self) { group in
      for _ in 0..<8 {
        group.addTask {
          var mine = row
          for _ in 0..<20 {
            mine = row
            mine.withUnsafeMutableBufferPointer { shared.convert($0) }
          }
          return mine
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 8)
    for result in results { #expect(result == expected) }
    #expect(expected != row)
  }
}

/// A gray PNG carrying a gray profile, rendered with `colorSpace = .srgb`: its pixels come
/// out as Pillow converts them, and the report says converted (a tryout saw a linear gray
/// profile left unconverted while the report said converted).
@Suite struct GrayProfileRenderTests {
  @Test(arguments: ["Gray.icc", "Gray-CIE_L.icc", "DotGain20.icc"])
  func aGrayPictureIsConvertedAsItsProfileSays(profile: String) throws {
    let bytes = try Fixtures.bytes("icc/\(profile)")
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    let file = try #require(open_memstream(&buffer, &size))
    let side = 16
    let writer = try PNGStreamEncoder(
      file: file, width: side, height: side, channels: 1, iccProfile: bytes, mark: false)
    let row = [UInt8](repeating: 128, count: side)
    for _ in 0..<side { try row.withUnsafeBufferPointer { try writer.writeRow($0) } }
    try writer.finish()
    fclose(file)
    let png = Array(UnsafeRawBufferPointer(start: buffer, count: size))
    free(buffer)
    var output = HexMask.Output()
    output.colorSpace = .srgb
    var shape = HexMask.Shape()
    shape.line = .pixels(0)
    let rendered = try HexMask.render(png, shape: shape, output: output)
    #expect(rendered.colour?.action == .converted)
    let image = try decodePNG(rendered.bytes).image
    let centre = (side / 2 * image.width + side / 2) * 4
    let expected = try #require(
      try ColourTransformTests.references(profile).first { $0.input == [128] }?.srgb)
    for channel in 0..<3 {
      #expect(abs(Int(image.pixels[centre + channel]) - Int(expected[channel])) <= 1)
    }
  }
}
