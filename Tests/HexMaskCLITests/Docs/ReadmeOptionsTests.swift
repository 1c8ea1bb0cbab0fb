import Foundation
import TestSupport
import Testing

@testable import HexMaskCLI

/// README's options table under "## Usage" against `optionTable`, both ways, so neither can
/// gain, lose or rename an option or a default without the other.
@Suite struct ReadmeOptionsTests {
  /// One row of README's table: the option names in its first cell (`-r`, `--recursive`),
  /// and its default cell without the backticks of code spans.
  struct Row {
    var names: [String]
    var defaultValue: String
  }

  /// The rows of the table whose header is `| option | default | meaning |`.
  static func readmeRows() throws -> [Row] {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
    let header = try #require(lines.firstIndex(of: "| option | default | meaning |"))
    // The header, the `|---|` line, then rows up to the first line that is not one.
    return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      // `-j`, `--jobs N` → -j, --jobs: the first word of each code span.
      let names = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 1 }
        .compactMap { $0.element.split(separator: " ").first.map(String.init) }
      return Row(names: names, defaultValue: cells[2].replacingOccurrences(of: "`", with: ""))
    }
  }

  @Test func everyRowIsAnOptionOfTheTableWithItsShortNameAndDefault() throws {
    let rows = try Self.readmeRows()
    #expect(rows.count > 30, "README's options table was not found or is cut short")
    for row in rows {
      let long = try #require(row.names.last, "a row without an option")
      guard let option = optionTable.first(where: { $0.longName == long }) else {
        Issue.record("README lists \(long), which hexmask does not have")
        continue
      }
      #expect(row.names == [option.shortName, option.longName].compactMap { $0 }, "\(long)")
      #expect(row.defaultValue == option.defaultValue ?? "", "default of \(long)")
    }
  }

  @Test func everyOptionOfTheTableHasExactlyOneRow() throws {
    let listed = try Self.readmeRows().compactMap(\.names.last)
    for option in optionTable {
      #expect(
        listed.filter { $0 == option.longName }.count == 1,
        "README's options table should list \(option.longName) once")
    }
  }
}
