import HexMask
import Testing

@testable import HexMaskCLI

/// The command warns about options an output does not use and goes on, while the library
/// refuses them: so the command drops exactly those before it renders.
@Suite struct UnusedOptionsTests {
  /// Every format, mask or not, lossless or not, with every droppable option set.
  static var everything: [HexMask.Output] {
    var all: [HexMask.Output] = []
    for format in OutputFormat.allCases {
      for maskOnly in [false, true] {
        for lossless in [nil, false, true] as [Bool?] {
          var output = HexMask.Output()
          output.format = format
          output.maskOnly = maskOnly
          output.lossless = lossless
          output.quality = 77
          output.compression = .small
          output.background = .white
          all.append(output)
        }
      }
    }
    return all
  }

  @Test(arguments: everything)
  func theCommandPassesOnlyWhatTheOutputUses(output: HexMask.Output) {
    let passed = output.withoutUnusedOptions()
    // A mask in JPEG, WebP or AVIF is refused as such, whatever else is set.
    guard !output.maskOnly || output.format == .png else {
      #expect(passed == output)
      return
    }
    #expect(passed.unusedField() == nil, "\(passed)")
    // What the output uses stays.
    let png = output.maskOnly || output.format == .png
    let lossy = !png && (output.format == .jpeg || output.lossless != true)
    #expect((passed.quality == 77) == lossy)
    #expect((passed.compression == .small) == png)
    #expect((passed.background == .white) == !output.maskOnly)
    let canBeLossless = (output.format == .webp || output.format == .avif) && !output.maskOnly
    #expect(passed.lossless == (canBeLossless ? output.lossless : nil))
  }

  /// `--quality` for a PNG is a warning, not the library's error: the file is written.
  @Test func qualityForPNGReachesTheLibraryAsTheDefault() throws {
    var settings = RenderSettings()
    settings.output.quality = 80
    settings.output.lossless = true
    let output = try settings.output(for: "out.png")
    #expect(output.quality == nil && output.lossless == nil && output.format == .png)
    #expect(try settings.output(for: "out.jpg").quality == 80)
  }
}
