import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An `Output` that asks for what cannot be made, or sets a field its output never uses,
/// fails in the output stage, naming the field, before the input is read.
@Suite struct OutputStageTests {
  /// Not a picture: any error other than the output's would be a decoding one.
  static let notAPicture: [UInt8] = Array("not a picture".utf8)

  static func output(_ format: OutputFormat, _ change: (inout HexMask.Output) -> Void)
    -> HexMask.Output
  {
    var output = HexMask.Output()
    output.format = format
    change(&output)
    return output
  }

  static let unused: [(String, HexMask.Output, HexMask.OutputError)] = [
    ("quality for PNG", output(.png) { $0.quality = 80 }, .unusedField(.quality, format: .png)),
    (
      "quality for lossless WebP",
      output(.webp) {
        $0.quality = 80
        $0.lossless = true
      },
      .unusedField(.quality, format: .webp)
    ),
    (
      "quality for lossless AVIF",
      output(.avif) {
        $0.quality = 80
        $0.lossless = true
      },
      .unusedField(.quality, format: .avif)
    ),
    ("effort for WebP", output(.webp) { $0.effort = 5 }, .unusedField(.effort, format: .webp)),
    ("effort for PNG", output(.png) { $0.effort = 0 }, .unusedField(.effort, format: .png)),
    (
      "effort for a mask",
      output(.png) {
        $0.effort = 5
        $0.maskOnly = true
      },
      .unusedField(.effort, format: .png)
    ),
    (
      "compression for AVIF", output(.avif) { $0.compression = .small },
      .unusedField(.compression, format: .avif)
    ),
    (
      "quality for a mask",
      output(.png) {
        $0.quality = 80
        $0.maskOnly = true
      },
      .unusedField(.quality, format: .png)
    ),
    (
      "lossless for JPEG", output(.jpeg) { $0.lossless = false },
      .unusedField(.lossless, format: .jpeg)
    ),
    (
      "lossless for PNG", output(.png) { $0.lossless = true }, .unusedField(.lossless, format: .png)
    ),
    (
      "compression for WebP", output(.webp) { $0.compression = .small },
      .unusedField(.compression, format: .webp)
    ),
    (
      "compression for JPEG", output(.jpeg) { $0.compression = .fast },
      .unusedField(.compression, format: .jpeg)
    ),
    (
      "background for a mask",
      output(.png) {
        $0.background = .white
        $0.maskOnly = true
      },
      .unusedField(.background, format: .png)
    ),
    ("colors for JPEG", output(.jpeg) { $0.colors = 64 }, .unusedField(.colors, format: .jpeg)),
    ("colors for WebP", output(.webp) { $0.colors = 64 }, .unusedField(.colors, format: .webp)),
    (
      "dither without colors", output(.png) { $0.dither = true },
      .unusedField(.dither, format: .png)
    ),
    ("a mask in JPEG", output(.jpeg) { $0.maskOnly = true }, .maskMustBePNG(.jpeg)),
  ]

  @Test(arguments: unused)
  func aFieldTheOutputDoesNotUseIsAnOutputError(
    name: String, output: HexMask.Output, expected: HexMask.OutputError
  ) {
    #expect(throws: HexMask.Error.output(expected), "\(name)") {
      try HexMask.render(Self.notAPicture, output: output)
    }
    #expect(
      HexMask.Error.output(expected).description.contains(
        expected == .maskMustBePNG(.jpeg) ? "mask" : "Output."))
  }

  /// The same settings that fail above work where the format uses them.
  @Test func setFieldsWorkWhereTheyMeanSomething() throws {
    let photo = try Fixtures.bytes("pngsuite/basn2c08.png")
    let settings: [HexMask.Output] = [
      Self.output(.jpeg) { $0.quality = 40 },
      Self.output(.webp) {
        $0.quality = 40
        $0.lossless = false
      },
      Self.output(.webp) { $0.lossless = true },
      Self.output(.avif) {
        $0.quality = 40
        $0.lossless = false
      },
      Self.output(.avif) { $0.lossless = true },
      Self.output(.png) {
        $0.compression = .small
        $0.background = .white
      },
      Self.output(.png) {
        $0.compression = .fast
        $0.maskOnly = true
      },
      Self.output(.png) {
        $0.colors = 16
        $0.dither = true
      },
      Self.output(.png) {
        $0.colors = 2
        $0.maskOnly = true
      },
    ]
    for output in settings {
      #expect(!(try HexMask.render(photo, output: output).bytes.isEmpty), "\(output)")
    }
    // nil is the format's default, not a value of its own.
    let chosen = Self.output(.jpeg) { $0.quality = HexMask.Output.defaultQuality }
    #expect(
      try HexMask.render(photo, output: chosen)
        == HexMask.render(photo, output: Self.output(.jpeg) { _ in }))
    #expect(
      try HexMask.render(photo, output: chosen)
        != HexMask.render(photo, output: Self.output(.jpeg) { $0.quality = 40 }))
  }

  /// The calls that take the sides from their own arguments refuse `Output.size`.
  @Test func sizeIsRefusedWhereTheCallTakesItsOwnSides() {
    let sized = Self.output(.png) { $0.size = 64 }
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
