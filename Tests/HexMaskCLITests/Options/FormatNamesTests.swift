import HexMask
import Testing

@testable import HexMaskCLI

/// Format names come from one list, `ImageFormat.displayName`.
@Suite struct FormatNamesTests {
  @Test func everyFormatHasItsUsualName() {
    #expect(
      ImageFormat.allCases.map(\.displayName)
        == ["PNG", "JPEG", "HEIC/HEIF", "AVIF", "WebP", "GIF", "JPEG XL"])
    #expect(ImageFormat.readableNames == "PNG, JPEG, HEIC/HEIF, AVIF, WebP, GIF or JPEG XL")
  }

  @Test(arguments: OutputFormat.allCases)
  func anOutputFormatIsNamedAsTheSameFormatRead(format: OutputFormat) {
    #expect(format.displayName == format.imageFormat.displayName)
    #expect(format.imageFormat.rawValue == format.rawValue)
  }

  @Test func helpAndMessagesUseTheList() {
    #expect(
      filesSummary.hasPrefix("INPUT is a PNG, JPEG, HEIC/HEIF, AVIF, WebP, GIF or JPEG XL file,"))
    #expect(filesSummary.contains("extension (.png, .jpg, .webp, .avif, .jxl) or --format"))
    let tooLarge = OutputError.tooLargeForFormat(side: 70_000, format: .jpeg, maximumSide: 65_500)
    #expect(tooLarge.words == "a JPEG can be at most 65500 pixels a side, not 70000")
    #expect(OutputError.maskMustBePNG(.webp).words == "--mask-only writes a gray PNG, not WebP")
  }
}
