import Foundation
import TestSupport
import Testing

@testable import HexMask

/// `Output.colorSpace` and `keepColorProfile` through the whole render: every output carries
/// the input's profile or has sRGB pixels, whatever the mode, format and profile.
@Suite struct ColourSpaceTests {
  /// A real photo with an Adobe RGB (1998) profile.
  static let adobe = "photos/rocket.jpg"

  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name))))
  }

  static func render(
    _ input: [UInt8], _ colorSpace: HexMask.ColorSpace = .keep, strip: Bool = false,
    kind: HexMask.Output.Kind = .png(.init()), line: Double = 0, strict: Bool = false
  ) throws -> HexMask.Rendered {
    var output = HexMask.Output()
    output.size = 64
    output.colorSpace = colorSpace
    output.keepColorProfile = !strip
    output.kind = kind
    var shape = HexMask.Shape()
    shape.line = .pixels(line)
    var options = HexMask.Input()
    options.strict = strict
    return try HexMask.render(input, shape: shape, output: output, input: options)
  }

  /// The transform to sRGB of the fixture `name`'s profile, as the render builds it.
  static func transform(of name: String) throws -> HexMask.ColourTransform {
    let metadata = try withFile(Fixtures.path(name)) {
      try openDecoder(file: $0, maxPixels: 1 << 28).metadata
    }
    return try HexMask.ColourTransform(iccProfile: try #require(metadata.iccProfile))
  }

  @Test func srgbConvertsThePictureAndSaysSRGB() throws {
    let input = try Self.bytes(Self.adobe)
    let kept = try Self.render(input, .keep)
    let converted = try Self.render(input, .srgb)
    #expect(kept.colour == .init(profile: "Adobe RGB (1998)", action: .kept))
    #expect(converted.colour == .init(profile: "Adobe RGB (1998)", action: .converted))
    #expect(chunkTypes(of: converted.bytes).contains("sRGB"))
    #expect(!chunkTypes(of: converted.bytes).contains("iCCP"))
    #expect(chunkTypes(of: kept.bytes).contains("iCCP"))
    // Inside the shape (no border: line 0) each pixel is the kept one converted; the
    // shape's alpha is the same.
    let before = try decodePNG(kept.bytes).image.pixels
    let after = try decodePNG(converted.bytes).image.pixels
    var expected = before
    let transform = try Self.transform(of: Self.adobe)
    expected.withUnsafeMutableBufferPointer { transform.convert($0) }
    var opaque = 0
    var changed = 0
    for pixel in stride(from: 0, to: before.count, by: 4) {
      #expect(after[pixel + 3] == before[pixel + 3])
      guard before[pixel + 3] == 255 else { continue }
      opaque += 1
      #expect(Array(after[pixel..<pixel + 4]) == Array(expected[pixel..<pixel + 4]))
      if after[pixel..<pixel + 3] != before[pixel..<pixel + 3] { changed += 1 }
    }
    #expect(opaque > 2000)
    // Adobe RGB's wider gamut: most pixels move (the check can fail).
    #expect(changed * 2 > opaque)
  }

  @Test func stripConvertsAndSaysNothing() throws {
    let input = try Self.bytes(Self.adobe)
    let stripped = try Self.render(input, strip: true)
    let converted = try Self.render(input, .srgb)
    #expect(Set(chunkTypes(of: stripped.bytes)) == ["IHDR", "tEXt", "IDAT", "IEND"])
    #expect(try decodePNG(stripped.bytes).image == decodePNG(converted.bytes).image)
    #expect(stripped.colour?.action == .converted)
    // `colorSpace` does not matter once stripped.
    #expect(try Self.render(input, .keep, strip: true).bytes == stripped.bytes)
  }

  /// The border's colour is sRGB: it is drawn after the conversion, not converted.
  @Test func theBorderIsNotConverted() throws {
    let converted = try Self.render(try Self.bytes(Self.adobe), .srgb, line: 6)
    let pixels = try decodePNG(converted.bytes).image.pixels
    // The middle of the left edge's border, 64 px canvas: x ≈ 4, y = 32.
    let whites = (0..<64).filter { x in
      let index = (32 * 64 + x) * 4
      return pixels[index..<index + 4] == [255, 255, 255, 255]
    }
    #expect(!whites.isEmpty)
  }

  @Test func anInputWithoutAProfileIsLeftAlone() throws {
    let input = try Self.bytes("attention/coffee-160.png")
    let kept = try Self.render(input, .keep)
    #expect(kept.colour == nil)
    #expect(try Self.render(input, .srgb).bytes == kept.bytes)
    #expect(try Self.render(input, strip: true).bytes == kept.bytes)
  }

  /// An sRGB profile needs no conversion: the pixels stay, the tag is replaced.
  @Test func anSRGBProfileIsOnlyRetagged() throws {
    let input = try Self.bytes("icc/icc_profile.png")
    let kept = try Self.render(input, .keep)
    let retagged = try Self.render(input, .srgb)
    #expect(retagged.colour == .init(profile: "sRGB IEC61966-2.1", action: .srgb))
    #expect(try decodePNG(retagged.bytes).image == decodePNG(kept.bytes).image)
    #expect(chunkTypes(of: retagged.bytes).contains("sRGB"))
    #expect(retagged.bytes.count < kept.bytes.count)
  }

  /// A gray profile cannot describe an RGB output: converted in every mode, gray stays gray.
  @Test(arguments: [HexMask.ColorSpace.keep, .srgb])
  func aGrayProfileIsConvertedAndStaysGray(mode: HexMask.ColorSpace) throws {
    let rendered = try Self.render(try Self.bytes("icc/grayscale-icc.jpg"), mode)
    #expect(rendered.colour?.action == .converted)
    #expect(rendered.warnings.isEmpty)
    #expect(chunkTypes(of: rendered.bytes).contains("sRGB"))
    let pixels = try decodePNG(rendered.bytes).image.pixels
    let colourful = stride(from: 0, to: pixels.count, by: 4).filter { (index: Int) -> Bool in
      pixels[index] != pixels[index + 1] || pixels[index] != pixels[index + 2]
    }
    #expect(colourful.isEmpty)
  }

  /// A JPEG whose APP2 segment holds 200 bytes that are no profile (no `acsp` signature).
  static func jpegWithDamagedProfile() throws -> [UInt8] {
    let photo = try bytes("exif/Landscape_1.jpg")
    var profile = [UInt8](repeating: 0x41, count: 200)
    profile[0..<4] = [0, 0, 0, 200]
    profile[16..<20] = Array("RGB ".utf8)[...]
    let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
    let length = payload.count + 2
    let segment: [UInt8] = [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    return Array(photo[..<2]) + segment + Array(photo[2...])
  }

  /// A profile lcms2 cannot read is left out with a warning in every mode and format, and
  /// strict mode refuses it: whether it passes never depends on where it is written.
  @Test(arguments: [HexMask.OutputFormat.png, .jpeg, .webp, .avif])
  func aProfileLcms2CannotReadIsAWarningAndStrictFails(format: HexMask.OutputFormat) throws {
    let input = try Self.jpegWithDamagedProfile()
    for (mode, strip) in [(HexMask.ColorSpace.keep, false), (.srgb, false), (.keep, true)] {
      let rendered = try Self.render(input, mode, strip: strip, kind: .init(format))
      #expect(rendered.colour?.action == .unusable)
      #expect(rendered.warnings.map(\.kind) == [.profileUnusable])
      let text = String(decoding: rendered.bytes, as: UTF8.self)
      #expect(!text.contains("AAAAAAAAAAAAAAAA"), "the damaged profile was written")
      if format == .png {
        #expect(!chunkTypes(of: rendered.bytes).contains("sRGB"))
      }
      #expect(throws: HexMask.Error.warningInStrictMode(rendered.warnings[0])) {
        try Self.render(input, mode, strip: strip, kind: .init(format), strict: true)
      }
    }
  }

  /// Kept into a profile, the colours hexmask draws are written in its numbers: a viewer
  /// reading the border and background through the profile shows the sRGB colours asked for.
  @Test func theBorderAndBackgroundAreWrittenInTheKeptProfile() throws {
    let input = try Self.bytes(Self.adobe)
    var output = HexMask.Output()
    output.size = 64
    output.kind = .png(.init(background: .init(red: 255, green: 128, blue: 0)))
    var shape = HexMask.Shape()
    shape.line = .pixels(8)
    shape.borderColor = .init(red: 30, green: 144, blue: 255)
    let rendered = try HexMask.render(input, shape: shape, output: output)
    #expect(rendered.colour?.action == .kept)
    var pixels = try decodePNG(rendered.bytes).image.pixels
    let stored = (
      border: Array(pixels[(32 * 64 + 3) * 4..<(32 * 64 + 3) * 4 + 4]),
      background: Array(pixels[0..<4])
    )
    let transform = try Self.transform(of: Self.adobe)
    pixels.withUnsafeMutableBufferPointer { transform.convert($0) }
    let shown = (
      border: Array(pixels[(32 * 64 + 3) * 4..<(32 * 64 + 3) * 4 + 3]),
      background: Array(pixels[0..<3])
    )
    func near(_ a: [UInt8], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs(Int($0) - $1) <= 1 } }
    #expect(near(shown.border, [30, 144, 255]), "\(shown.border)")
    #expect(near(shown.background, [255, 128, 0]), "\(shown.background)")
    // The stored numbers are not the sRGB ones (Adobe RGB's are), or the check proves nothing.
    #expect(!near(stored.border, [30, 144, 255]) || !near(stored.background, [255, 128, 0]))
  }

  /// A CMYK JPEG whose profile is not CMYK (here Adobe RGB): it cannot describe the rows, so
  /// the formula converts them and the profile is neither kept nor used, with a warning.
  @Test func aCMYKJPEGWithAnRGBProfileDropsItWithAWarning() throws {
    let cmyk = try Self.bytes("colour/photo-cmyk-naive.jpg")
    let adobe = try #require(
      try withFile(Fixtures.path(Self.adobe)) {
        try openDecoder(file: $0, maxPixels: 1 << 28).metadata.iccProfile
      })
    let input = replacingICCProfile(of: cmyk, with: adobe)
    let rendered = try Self.render(input, .keep)
    #expect(rendered.warnings.map(\.kind) == [.profileUnusable])
    #expect(!chunkTypes(of: rendered.bytes).contains("iCCP"))
    #expect(rendered.colour == nil)
  }

  /// A profile must be of the pixels' kind, as browsers require: a gray one on colour
  /// pixels, or an RGB one on gray pixels, is left out with a warning, in every mode.
  @Test(arguments: [
    ("exif/Landscape_1.jpg", "icc/DotGain20.icc", "a gray ICC profile on colour pixels"),
    ("icc/grayscale-icc.jpg", "icc/AdobeRGB1998.icc", "an RGB ICC profile on gray pixels"),
  ])
  func aProfileOfAnotherKindThanThePixelsIsLeftOut(picture: String, profile: String, reason: String)
    throws
  {
    let input = replacingICCProfile(of: try Self.bytes(picture), with: try Self.bytes(profile))
    let untagged = try Self.render(jpegWithoutICCProfile(input), .keep)
    for (mode, strip) in [(HexMask.ColorSpace.keep, false), (.srgb, false), (.keep, true)] {
      let rendered = try Self.render(input, mode, strip: strip)
      #expect(rendered.warnings.map(\.kind) == [.profileUnusable])
      #expect(rendered.warnings.first?.description.contains(reason) == true)
      #expect(rendered.colour?.action == .unusable)
      #expect(try decodePNG(rendered.bytes).image == decodePNG(untagged.bytes).image)
    }
  }

  /// An `sRGB` chunk before the `iCCP` (which libpng would take for a second profile and
  /// drop the real one for) is ignored, as any sRGB chunk is: the profile is kept.
  @Test func anSRGBChunkBeforeTheProfileIsIgnored() throws {
    let png = try Self.bytes("icc/p3.png")
    let at =
      try #require(
        (8..<png.count - 4).first { png[$0..<$0 + 4].elementsEqual(Array("iCCP".utf8)) }) - 4
    // Length 1, "sRGB", intent 0, and its CRC.
    let chunk: [UInt8] = [0, 0, 0, 1, 0x73, 0x52, 0x47, 0x42, 0, 0xAE, 0xCE, 0x1C, 0xE9]
    let input = Array(png[..<at]) + chunk + Array(png[at...])
    let rendered = try Self.render(input, .keep)
    #expect(rendered.warnings.isEmpty)
    #expect(rendered.colour?.action == .kept)
  }

  /// `jpeg` with its APP2 ICC segments replaced by one holding `profile`.
  func replacingICCProfile(of jpeg: [UInt8], with profile: [UInt8]) -> [UInt8] {
    var kept: [UInt8] = [0xFF, 0xD8]
    var offset = 2
    // Markers up to the first scan; the ICC ones are left out.
    while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
      let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
      let segment = jpeg[offset..<offset + 2 + length]
      let isICC =
        jpeg[offset + 1] == 0xE2 && segment.dropFirst(4).starts(with: Array("ICC_PROFILE".utf8))
      if !isICC { kept += segment }
      offset += 2 + length
    }
    let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
    let length = payload.count + 2
    return kept + [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
      + jpeg[offset...]
  }

  /// AVIF says sRGB in its `nclx` box: BT.709 primaries, the sRGB transfer, full range.
  @Test(arguments: [false, true]) func avifSaysSRGBInItsNclxBox(lossless: Bool) throws {
    let quality: HexMask.Output.Quality = lossless ? .lossless : .lossy(80)
    let converted = try Self.render(
      try Self.bytes(Self.adobe), .srgb, kind: .avif(.init(quality: quality)))
    let box = try #require(nclx(in: converted.bytes))
    #expect(box.primaries == 1 && box.transfer == 13 && box.fullRange)
    #expect(box.matrix == (lossless ? 0 : 6))
    #expect(!String(decoding: converted.bytes, as: UTF8.self).contains("colrprof"))
  }

  /// The first `colr` box of type `nclx`: primaries, transfer, matrix, full range.
  func nclx(in bytes: [UInt8]) -> (primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)? {
    let tag = Array("colrnclx".utf8)
    guard
      let start = (0...(bytes.count - 15)).first(where: { bytes[$0..<$0 + 8].elementsEqual(tag) })
    else { return nil }
    let at = { (offset: Int) in Int(bytes[start + offset]) << 8 | Int(bytes[start + offset + 1]) }
    return (at(8), at(10), at(12), bytes[start + 14] & 0x80 != 0)
  }

  /// The palette is chosen from the converted pixels, and the file says sRGB.
  @Test func thePaletteIsChosenInSRGB() throws {
    let input = try Self.bytes(Self.adobe)
    let palette = HexMask.Output.Kind.png(.init(palette: .init(colors: 64)))
    let indexed = try Self.render(input, .srgb, kind: palette)
    #expect(chunkTypes(of: indexed.bytes).contains("sRGB"))
    #expect(!chunkTypes(of: indexed.bytes).contains("iCCP"))
    let quantized = try decodePNG(indexed.bytes).image
    let converted = try decodePNG(try Self.render(input, .srgb).bytes).image
    let kept = try decodePNG(try Self.render(input, .keep).bytes).image
    // Nearer the converted picture than the kept one (they differ by about 4 levels).
    #expect(
      quantized.meanSampleDifference(from: converted)
        < quantized.meanSampleDifference(from: kept))
  }

  /// Several sizes from one decode, and the same bytes on every run: the transform is
  /// shared (and cached) but keeps no state between rows.
  @Test func sizesAndRepeatsGiveTheSameBytes() throws {
    let input = try Self.bytes(Self.adobe)
    var output = HexMask.Output()
    output.colorSpace = .srgb
    let together = try HexMask.render(input, sizes: [48, 64], output: output)
    output.size = 64
    #expect(try HexMask.render(input, output: output).bytes == together[1].bytes)
    #expect(try HexMask.render(input, output: output).bytes == together[1].bytes)
  }
}

/// An AVIF that says its colours with an `nclx` box instead of an ICC profile.
@Suite struct NCLXColourTests {
  /// chart-p3.png's pixels as a lossless AVIF whose nclx box says `primaries` and
  /// `transfer` (hexmask writes 1 and 13; the bytes are then patched, as no encoder here
  /// writes other code points).
  static func avif(primaries: UInt8, transfer: UInt8) throws -> [UInt8] {
    let png = try ColourSpaceTests.bytes("colour/chart-p3.png")
    var output = HexMask.Output()
    output.kind = .avif(.init(quality: .lossless))
    var shape = HexMask.Shape()
    shape.line = .pixels(0)
    // No profile on the way in: the chart's numbers are written as they are.
    var avif = try HexMask.render(withoutICCP(png), shape: shape, output: output).bytes
    let tag = Array("colrnclx".utf8)
    let start = try #require(
      (0...(avif.count - 15)).first { avif[$0..<$0 + 8].elementsEqual(tag) })
    avif[start + 9] = primaries
    avif[start + 11] = transfer
    return avif
  }

  static func render(_ bytes: [UInt8], _ colorSpace: HexMask.ColorSpace) throws
    -> HexMask.Rendered
  {
    var output = HexMask.Output()
    output.colorSpace = colorSpace
    var shape = HexMask.Shape()
    shape.line = .pixels(0)
    return try HexMask.render(bytes, shape: shape, output: output)
  }

  @Test func displayP3PrimariesAreConvertedLikeTheirICCProfile() throws {
    let p3 = try Self.avif(primaries: 12, transfer: 13)
    let converted = try Self.render(p3, .srgb)
    #expect(
      converted.colour
        == .init(profile: "Display P3 primaries, sRGB transfer (nclx)", action: .converted))
    // The same numbers tagged with an ICC Display P3 profile (Fixtures/icc/DisplayP3.icc):
    let chart = try ColourSpaceTests.bytes("colour/chart-p3.png")
    let tagged = try decodePNG(try Self.render(chart, .srgb).bytes).image
    let fromNCLX = try decodePNG(converted.bytes).image
    #expect(fromNCLX.width == tagged.width)
    // Opaque pixels only: the AVIF was cut once already, so its edge is blended twice.
    let opaque = stride(from: 0, to: tagged.pixels.count, by: 4).filter {
      tagged.pixels[$0 + 3] == 255 && fromNCLX.pixels[$0 + 3] == 255
    }
    #expect(opaque.count > 50_000)
    let far = opaque.filter { pixel in
      (0..<3).contains {
        abs(Int(fromNCLX.pixels[pixel + $0]) - Int(tagged.pixels[pixel + $0])) > 1
      }
    }
    #expect(far.isEmpty, "\(far.count) pixels differ by more than 1")
    // Kept: the profile it means goes into the output.
    let kept = try Self.render(p3, .keep)
    #expect(kept.colour?.action == .kept)
    #expect(chunkTypes(of: kept.bytes).contains("iCCP"))
    // The same bytes every time (lcms2's save time is zeroed).
    #expect(try Self.render(p3, .keep).bytes == kept.bytes)
  }

  @Test func sRGBAndUnspecifiedNeedNoProfile() throws {
    for (primaries, transfer) in [(1, 13), (2, 2), (1, 2)] as [(UInt8, UInt8)] {
      let avif = try Self.avif(primaries: primaries, transfer: transfer)
      let rendered = try Self.render(avif, .srgb)
      #expect(rendered.colour == nil)
      #expect(rendered.warnings.isEmpty)
    }
  }

  @Test func anHDRTransferIsAWarning() throws {
    let pq = try Self.avif(primaries: 9, transfer: 16)
    let rendered = try Self.render(pq, .srgb)
    #expect(rendered.warnings.map(\.kind) == [.profileUnusable])
    #expect(rendered.warnings.first?.description.contains("PQ") == true)
  }

  /// `png` without its iCCP chunk.
  static func withoutICCP(_ png: [UInt8]) -> [UInt8] {
    var kept = Array(png[..<8])
    var offset = 8
    while offset + 12 <= png.count {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let end = min(png.count, offset + 12 + length)
      if !png[offset + 4..<offset + 8].elementsEqual(Array("iCCP".utf8)) {
        kept += png[offset..<end]
      }
      offset = end
    }
    return kept
  }
}
