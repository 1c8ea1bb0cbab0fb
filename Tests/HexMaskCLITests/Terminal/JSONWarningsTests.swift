import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

/// `--json` lines say what a file written with warnings lacks.
@Suite struct JSONWarningsTests {
  /// The keys added since (`crop`, `faces`) come after `warnings`, which was the last.
  @Test func warningsFollowTheOlderKeysAsAListOfStrings() throws {
    let result = BatchResult(
      item: BatchItem(input: "cut.jpg", output: "o/cut.png"), status: .written,
      report: fakeRendered(side: 4, warnings: ["premature end", "profile \"x\" dropped"]),
      milliseconds: 3)
    let line = jsonLine(result, status: "written")
    #expect(
      line.hasSuffix(
        #","warnings":["premature end","profile \"x\" dropped"],"crop":null}"# + "\n"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["warnings"] as? [String] == ["premature end", "profile \"x\" dropped"])
  }

  @Test func aFileWithoutAReportHasNoWarnings() {
    let failed = BatchResult(
      item: BatchItem(input: "bad.jpg", output: "o/bad.png"), status: .failed,
      error: FileFailure(file: "bad.jpg", reason: "not a PNG or JPEG file"))
    #expect(jsonLine(failed, status: "failed").hasSuffix(#","warnings":[],"crop":null}"# + "\n"))
  }

  /// The library's warnings stay typed until printed: every size of a truncated JPEG gets the
  /// decoder's `damagedInput`, and the sizes' warnings are one value, said once.
  @Test func aDamagedInputsWarningKeepsItsKindForEverySize() throws {
    try withTemporaryFolder { folder in
      var settings = RenderSettings()
      settings.sizes = [16, 32]
      let outputs = [16, 32].map {
        SizedFile(path: folder.appendingPathComponent("out\($0).png").path, size: $0)
      }
      let rendered = try renderFile(
        input: Fixtures.path("jpeg/truncated_jpeg.jpg"), outputs: outputs, settings: settings)
      #expect(rendered.count == 2)
      for file in rendered {
        #expect(
          file.warnings.contains {
            if case .render(let warning) = $0 { warning.kind == .damagedInput } else { false }
          })
      }
      #expect(Set(rendered.flatMap(\.warnings)).count == rendered[0].warnings.count)
    }
  }
}
