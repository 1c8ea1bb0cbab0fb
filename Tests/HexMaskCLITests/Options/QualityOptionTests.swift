import HexMask
import Testing

@testable import HexMaskCLI

/// `--quality` takes exactly the library's range, which the writers accept.
@Suite struct QualityOptionTests {
  let range = HexMask.Output.qualityRange

  @Test func acceptsTheBoundsOfTheLibrarysRange() throws {
    for quality in [range.lowerBound, range.upperBound] {
      let job = try Job(parsing: ["in.jpg", "out.webp", "--quality", String(quality)])
      #expect(job.options.choices.quality == quality)
    }
  }

  @Test func refusesJustOutsideIt() {
    for quality in [range.lowerBound - 1, range.upperBound + 1] {
      #expect(
        throws: CommandError.invalidValue(
          String(quality), option: "--quality", kind: .wholeNumber(range))
      ) {
        try Job(parsing: ["in.jpg", "out.webp", "--quality", String(quality)])
      }
    }
  }

  @Test func helpNamesTheRange() throws {
    let option = try #require(optionTable.first { $0.long == "quality" })
    #expect(option.help.contains("from \(range.lowerBound) (smallest file) to \(range.upperBound)"))
  }
}
