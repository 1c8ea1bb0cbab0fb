import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rule of which setting applies to which kind (`Output.Choices.kind(for:)`), and an
/// `Output` that asks for what cannot be made, which fails in the output stage, naming the
/// field, before the input is read.
@Suite struct OutputStageTests {
  /// Not a picture: any error other than the output's would be a decoding one.
  static let notAPicture: [UInt8] = Array("not a picture".utf8)

  static func choices(_ change: (inout HexMask.Output.Choices) -> Void)
    -> HexMask.Output.Choices
  {
    var choices = HexMask.Output.Choices()
    change(&choices)
    return choices
  }

  /// What the rule makes of a setting: unused (and left out), or a contradiction of the kind.
  enum Outcome: Equatable, Sendable {
    case unused([HexMask.Output.Field])
    case refused(HexMask.OutputError)
  }

  static let translucent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 128)

  static let rows: [(String, HexMask.Output.Choices, OutputFormat, Outcome)] = [
    ("quality for PNG", choices { $0.quality = 80 }, .png, .unused([.quality])),
    (
      "quality for lossless WebP",
      choices {
        $0.quality = 80
        $0.lossless = true
      }, .webp, .unused([.quality])
    ),
    (
      "quality for lossless AVIF",
      choices {
        $0.quality = 80
        $0.lossless = true
      }, .avif, .unused([.quality])
    ),
    ("effort for WebP", choices { $0.effort = 5 }, .webp, .unused([.effort])),
    ("effort for PNG", choices { $0.effort = 0 }, .png, .unused([.effort])),
    (
      "effort for a mask",
      choices {
        $0.effort = 5
        $0.maskOnly = true
      }, .png, .unused([.effort])
    ),
    ("compression for AVIF", choices { $0.compression = .small }, .avif, .unused([.compression])),
    (
      "quality for a mask",
      choices {
        $0.quality = 80
        $0.maskOnly = true
      }, .png, .unused([.quality])
    ),
    ("lossless for JPEG", choices { $0.lossless = true }, .jpeg, .unused([.lossless])),
    ("lossless for PNG", choices { $0.lossless = true }, .png, .unused([.lossless])),
    ("compression for WebP", choices { $0.compression = .small }, .webp, .unused([.compression])),
    ("compression for JPEG", choices { $0.compression = .fast }, .jpeg, .unused([.compression])),
    (
      "background for a mask",
      choices {
        $0.background = .white
        $0.maskOnly = true
      }, .png, .unused([.background])
    ),
    ("dither without colors", choices { $0.dither = true }, .png, .unused([.dither])),
    (
      "all of them for PNG, in Field's order",
      choices {
        $0.effort = 1
        $0.quality = 2
        $0.lossless = true
        $0.dither = true
      }, .png, .unused([.quality, .lossless, .effort, .dither])
    ),
    (
      "colors for JPEG", choices { $0.colors = 64 }, .jpeg,
      .refused(.unusedField(.colors, format: .jpeg))
    ),
    (
      "colors for WebP", choices { $0.colors = 64 }, .webp,
      .refused(.unusedField(.colors, format: .webp))
    ),
    (
      "colors for AVIF", choices { $0.colors = 64 }, .avif,
      .refused(.unusedField(.colors, format: .avif))
    ),
    ("a mask in JPEG", choices { $0.maskOnly = true }, .jpeg, .refused(.maskMustBePNG(.jpeg))),
    (
      "a translucent background for JPEG", choices { $0.background = translucent }, .jpeg,
      .refused(.backgroundNotOpaque(translucent, format: .jpeg))
    ),
    (
      "a translucent background for WebP", choices { $0.background = translucent }, .webp,
      .unused([])
    ),
    ("an opaque background for JPEG", choices { $0.background = .black }, .jpeg, .unused([])),
  ]

  @Test(arguments: rows)
  func theRuleLeavesOutWhatAKindDoesNotUseAndRefusesWhatContradictsIt(
    name: String, choices: HexMask.Output.Choices, format: OutputFormat, expected: Outcome
  ) {
    let outcome: Outcome
    do throws(HexMask.OutputError) {
      outcome = .unused(try choices.kind(for: format).unused)
    } catch {
      outcome = .refused(error)
    }
    #expect(outcome == expected, "\(name)")
  }

  /// A JPEG on a background that is not opaque is refused, as the command refuses it: it
  /// was once written black.
  @Test func aJPEGOnATranslucentBackgroundIsRefused() throws {
    var output = HexMask.Output()
    for alpha in [0, 1, 254] as [UInt8] {
      let color = RGBAColor(red: 255, green: 255, blue: 255, alpha: alpha)
      output.kind = .jpeg(.init(background: color))
      #expect(throws: HexMask.Error.output(.backgroundNotOpaque(color, format: .jpeg))) {
        try HexMask.render(Self.notAPicture, output: output)
      }
    }
  }

  /// `renderMask` takes a mask, or a PNG's compression and palette; not a background, which
  /// a mask has none of, nor another format.
  @Test func renderMaskRefusesWhatAMaskCannotBe() throws {
    let devNull = open("/dev/null", O_WRONLY)
    try #require(devNull >= 0)
    defer { close(devNull) }
    var output = HexMask.Output()
    output.kind = .png(.init(background: .white))
    #expect(throws: HexMask.Error.output(.unusedField(.background, format: .png))) {
      try HexMask.renderMask(side: 8, to: devNull, output: output)
    }
    output.kind = .init(.jpeg)
    #expect(throws: HexMask.Error.output(.maskMustBePNG(.jpeg))) {
      try HexMask.renderMask(side: 8, to: devNull, output: output)
    }
    output.kind = .png(.init(compression: .fast, palette: .init(colors: 2)))
    #expect(try HexMask.renderMask(side: 8, to: devNull, output: output).side == 8)
  }

  /// Each kind's settings make a picture.
  @Test func everyKindsSettingsWork() throws {
    let photo = try Fixtures.bytes("pngsuite/basn2c08.png")
    let kinds: [HexMask.Output.Kind] = [
      .jpeg(.init(quality: 40)),
      .webp(.init(quality: .lossy(40))),
      .webp(.init(quality: .lossless)),
      .avif(.init(quality: .lossy(40), effort: 9)),
      .avif(.init(quality: .lossless)),
      .png(.init(compression: .small, background: .white)),
      .mask(.init(compression: .fast)),
      .png(.init(palette: .init(colors: 16, dither: true))),
      .mask(.init(palette: .init(colors: 2))),
    ]
    var output = HexMask.Output()
    for kind in kinds {
      output.kind = kind
      #expect(!(try HexMask.render(photo, output: output).bytes.isEmpty), "\(kind)")
    }
    // The default is a value like any other.
    output.kind = .jpeg(.init(quality: HexMask.Output.defaultQuality))
    let chosen = try HexMask.render(photo, output: output)
    output.kind = .init(.jpeg)
    #expect(try HexMask.render(photo, output: output) == chosen)
    output.kind = .jpeg(.init(quality: 40))
    #expect(try HexMask.render(photo, output: output) != chosen)
  }

  /// The calls that take the sides from their own arguments refuse `Output.size`.
  @Test func sizeIsRefusedWhereTheCallTakesItsOwnSides() {
    var sized = HexMask.Output()
    sized.size = 64
    let refused = HexMask.Error.output(.unusedField(.size, format: .png))
    #expect(throws: refused) { try HexMask.render(Self.notAPicture, sizes: [32], output: sized) }
    #expect(throws: refused) { try HexMask.render(from: -1, toEach: [], output: sized) }
    #expect(throws: refused) { try HexMask.renderMask(side: 32, to: -1, output: sized) }
  }

  /// Outputs too large for the pixel limit are the output's, not the shape's.
  @Test func tooLargeOutputsAreOutputErrors() throws {
    let devNull = open("/dev/null", O_WRONLY)
    try #require(devNull >= 0)
    defer { close(devNull) }
    var input = HexMask.Input()
    input.maxPixels = 100
    #expect(throws: HexMask.Error.output(.tooManyPixels(side: 11, limit: 100))) {
      try HexMask.renderMask(side: 11, to: devNull, input: input)
    }
    #expect(try HexMask.renderMask(side: 10, to: devNull, input: input).side == 10)
  }
}
