import Foundation
import Testing

@testable import HexMaskCLI

@Suite struct ManPageTests {
  let page = manPage()

  /// `docs/hexmask.1` is what `hexmask --man` prints; `make man` rewrites it after a change to
  /// the option table.
  @Test func committedCopyIsUpToDate() throws {
    let packageRoot = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let committed = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/hexmask.1"), encoding: .utf8)
    #expect(committed == page, "docs/hexmask.1 is out of date: run 'make man'")
  }

  @Test func hasTheSectionsInOrder() throws {
    let sections = [
      ".TH HEXMASK 1", ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS",
      ".SH EXIT STATUS", ".SH EXAMPLES", ".SH SEE ALSO",
    ]
    let positions = try sections.map { try #require(page.range(of: "\n\($0)")).lowerBound }
    #expect(positions == positions.sorted())
  }

  @Test func synopsisHasBothForms() {
    #expect(page.contains(#"\fBhexmask\fR [\fIoptions\fR] \fIINPUT\fR \fIOUTPUT\fR"#))
    #expect(
      page.contains(
        #"\fBhexmask\fR [\fIoptions\fR] \fIINPUT...\fR \fB\-\-out\-dir\fR \fIDIR\fR"#))
  }

  @Test(arguments: optionTable.map(\.long))
  func everyOptionHasAnEntryUnderItsGroup(long: String) throws {
    let option = try #require(optionTable.first { $0.long == long })
    let name = #"\fB\-\-"# + option.long.replacingOccurrences(of: "-", with: #"\-"#) + #"\fR"#
    let entry = try #require(
      page.range(of: ".TP\n" + (option.short.map { #"\fB\-\#($0)\fR, "# } ?? "") + name))
    let heading = try #require(page.range(of: ".SS \"\(option.group.rawValue) options\"\n"))
    #expect(heading.upperBound <= entry.lowerBound)
  }

  @Test(arguments: CommandError.exitStatuses.map(\.status))
  func listsEveryExitStatus(status: Int32) {
    #expect(page.contains(".TP\n\\fB\(status)\\fR\n"))
  }

  @Test func noLineStartsLikeARequestByAccident() {
    for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
      let request = line.dropFirst().prefix { $0 != " " }
      #expect(
        ["\\\"", "TH", "nh", "ad", "SH", "SS", "TP", "PP", "br"].contains(String(request)),
        "\(line)")
    }
  }

  @Test func escapesMinusesAndBackslashes() {
    // A plain '-' may be typeset as a hyphen, which a shell does not accept when copied.
    for line in page.split(separator: "\n") where !line.hasPrefix(".") {
      #expect(!line.replacingOccurrences(of: #"\-"#, with: "").contains("-"), "\(line)")
    }
  }
}
