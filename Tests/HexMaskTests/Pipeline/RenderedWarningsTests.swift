import TestSupport
import Testing

@testable import HexMask

/// The bytes API hands back the render's warnings with the picture: a damaged input that
/// still decodes must not pass for a good one.
@Suite struct RenderedWarningsTests {
  /// rocket.jpg cut at 60 %: libjpeg decodes the rows it has and fills the rest with gray.
  static func truncatedPhoto() throws -> (whole: [UInt8], cut: [UInt8]) {
    let whole = try Fixtures.bytes("photos/rocket.jpg")
    return (whole, Array(whole.prefix(whole.count * 6 / 10)))
  }

  static let output: HexMask.Output = {
    var output = HexMask.Output()
    output.size = 64
    return output
  }()

  @Test func aTruncatedJPEGGivesItsPictureAndADamagedInputWarning() throws {
    let (whole, cut) = try Self.truncatedPhoto()
    let intact = try HexMask.render(whole, output: Self.output)
    #expect(intact.warnings.isEmpty)

    let rendered = try HexMask.render(cut, output: Self.output)
    #expect(rendered.side == 64)
    #expect(!rendered.warnings.isEmpty, "a truncated JPEG rendered without a warning")
    #expect(rendered.warnings.allSatisfy { $0.kind == .damagedInput }, "\(rendered.warnings)")
    #expect(
      rendered.warnings.contains { $0.description.contains("premature end") },
      "\(rendered.warnings)")
    // The warning is about real damage: the bottom of the hexagon is libjpeg's gray fill.
    let image = try decodePNG(rendered.bytes).image
    let bottom = image.pixel(32, 56)
    #expect(bottom[3] == 255 && bottom[0] == bottom[1] && bottom[1] == bottom[2], "\(bottom)")
    #expect(try decodePNG(intact.bytes).image.pixel(32, 56) != bottom)
  }

  /// Every size of the multi-size call carries the warning of their one decode.
  @Test func everySizeOfATruncatedJPEGCarriesTheWarning() throws {
    let (_, cut) = try Self.truncatedPhoto()
    let rendered = try HexMask.render(cut, sizes: [16, 48])
    #expect(rendered.map(\.side) == [16, 48])
    let alone = try HexMask.render(cut, output: Self.output).warnings
    #expect(!alone.isEmpty)
    for output in rendered {
      #expect(output.warnings == alone, "\(output.side): \(output.warnings)")
    }
  }

  /// Strict mode refuses the same bytes, with the same typed warning.
  @Test func strictModeRefusesWithTheSameWarning() throws {
    let (_, cut) = try Self.truncatedPhoto()
    let warnings = try HexMask.render(cut, output: Self.output).warnings
    var input = HexMask.Input()
    input.strict = true
    #expect(throws: HexMask.Error.warningInStrictMode(try #require(warnings.first))) {
      try HexMask.render(cut, output: Self.output, input: input)
    }
  }

  /// A gray profile cannot describe RGBA pixels: every colour output converts them to sRGB
  /// instead of leaving the profile out (which once came with a warning, and before that
  /// with a palette PNG's warning lost), so there is nothing to warn about, even strictly.
  @Test(
    arguments: [(OutputFormat.png, nil), (.png, 16), (.webp, nil), (.avif, nil), (.jpeg, nil)]
      as [(OutputFormat, Int?)])
  func aGrayProfileIsConvertedWithoutAWarning(format: OutputFormat, colors: Int?) throws {
    let photo = try Fixtures.bytes("icc/grayscale-icc.jpg")
    var output = Self.output
    output.kind = .init(format)
    if let colors { output.kind = .png(.init(palette: .init(colors: colors))) }
    let rendered = try HexMask.render(photo, output: output)
    #expect(rendered.warnings.isEmpty)
    #expect(rendered.colour?.action == .converted)
    var input = HexMask.Input()
    input.strict = true
    #expect(try HexMask.render(photo, output: output, input: input).bytes == rendered.bytes)
  }
}
