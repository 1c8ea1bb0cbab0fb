import Foundation
import TestSupport
import Testing

@testable import HexMaskCLI

@Suite(.tags(.endToEnd)) struct ManPageTests {
  let page = manPage()

  /// `docs/hexmask.1` is what `hexmask --man` prints; `make man` rewrites it after a change to
  /// the option table.
  @Test func committedCopyIsUpToDate() throws {
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

  /// No character outside ASCII is left raw: groff warns about some ("invalid input
  /// character"), and a `\[uXXXX]` or named glyph renders everywhere.
  @Test func everyNonASCIICharacterIsEscaped() {
    #expect(page.unicodeScalars.allSatisfy { $0.isASCII })
    #expect(page.contains(#"\(<="#), "the ≤ of --shard")
    #expect(roffUnicodeEscape("²") == #"\[u00B2]"#)
    #expect(roffUnicodeEscape("\u{1F600}") == #"\[u1F600]"#)
  }

  /// `groff -man -ww -z` (every warning, no output) says nothing about the page the binary
  /// prints nor about docs/hexmask.1. groff comes from Debian's groff-base.
  @Test func groffFindsNothingToWarnAbout() throws {
    let printed = try runHexMask(["--man"], in: nil)
    #expect(printed.status == 0)
    try withTemporaryFolder { url in
      let folder = url.path
      let generated = folder + "/hexmask.1"
      try printed.standardOutputData.write(to: URL(fileURLWithPath: generated))
      for page in [generated, packageRoot.appendingPathComponent("docs/hexmask.1").path] {
        let groff = try runGroff(on: page)
        #expect(groff.status == 0, "groff exited with \(groff.status) on \(page)")
        #expect(groff.output == "", "groff -man -ww -z \(page)")
      }
    }
  }

  /// Runs `groff -man -ww -z page` and returns its status and everything it printed.
  private func runGroff(on page: String) throws -> (
    status: Int32, output: String
  ) {
    let groff = ["/usr/bin/groff", "/usr/local/bin/groff", "/opt/homebrew/bin/groff"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    let executable = try #require(
      groff, "groff not found; install it (Debian: apt-get install groff-base)")
    let run = try runProcess(URL(fileURLWithPath: executable), ["-man", "-ww", "-z", page])
    return (run.status, run.combinedOutput)
  }
}
