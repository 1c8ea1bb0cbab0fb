import HexMask
import Testing

@testable import HexMaskCLI

/// File names holding control characters are printed as GNU `ls` quotes them, and no message
/// line can be split or forged by a name.
@Suite struct DisplayNameTests {
  @Test(arguments: [
    ("photos/a.jpg", "photos/a.jpg"),
    ("it's here.jpg", "it's here.jpg"),
    ("été 😀.png", "été 😀.png"),
    ("a\nb.jpg", #"$'a\nb.jpg'"#),
    ("tab\there", #"$'tab\there'"#),
    ("\r\u{7}\u{8}\u{B}\u{C}", #"$'\r\a\b\v\f'"#),
    ("red\u{1B}[31m", #"$'red\033[31m'"#),
    ("del\u{7F}1", #"$'del\1771'"#),
    ("c1\u{9B}", #"$'c1\302\233'"#),
    ("it's\n\\", #"$'it\'s\n\\'"#),
  ])
  func namesAreQuotedOnlyWhenTheyMustBe(name: String, shown: String) {
    #expect(displayName(name) == shown)
  }

  @Test func quotedNamesKeepTheirQuotesOrBecomeShellQuoted() {
    #expect(quotedName("out dir") == "'out dir'")
    #expect(quotedName("out\ndir") == #"$'out\ndir'"#)
  }

  @Test func theSafetyNetEscapesEveryControlCharacterOfALine() {
    #expect(escapingControlCharacters("plain line") == "plain line")
    #expect(escapingControlCharacters("a\nb\r\u{1B}[K") == #"a\nb\r\033[K"#)
    #expect(escapingControlCharactersInLines("a\u{1}\nb\n") == "a\\001\nb\n")
  }

  @Test func aRenderErrorNamingAForgedLineStaysOneLine() {
    let error = CommandError.renderFailed(
      FileFailure(file: "x\nhexmask: all good.jpg", reason: "cannot open: No such file"))
    #expect(
      error.report == #"hexmask: $'x\nhexmask: all good.jpg': cannot open: No such file"# + "\n")
  }

  @Test func aReasonThatQuotesANameRawIsEscapedByTheSafetyNet() {
    let error = CommandError.renderFailed(
      FileFailure(file: "a/b.png", reason: "output folder 'a\nhexmask: ok' does not exist"))
    #expect(error.report.split(separator: "\n").count == 1)
    #expect(
      error.report == #"hexmask: a/b.png: output folder 'a\nhexmask: ok' does not exist"# + "\n")
  }

  @Test func conflictsQuoteEachName() {
    let error = CommandError.outputConflicts([
      OutputConflict(output: "o/x.png", inputs: ["a/x.jpg", "b/x\n.png"])
    ])
    #expect(
      error.report.hasPrefix(
        #"hexmask: conflict: 'a/x.jpg' and $'b/x\n.png' would both write 'o/x.png'"# + "\n"))
  }

  @Test func theOutputFolderAsAnInputIsAUsageError() {
    let error = CommandError.inputIsOutputFolder("nest/sub")
    #expect(error.exitStatus == 2)
    #expect(
      error.report
        == "hexmask: 'nest/sub' is the output folder, whose files are never read as inputs; "
        + "write into another folder with --out-dir\n"
        + "Try 'hexmask --help' for more information.\n")
  }

  @Test func warningsAndErrorsFromRunAreEscaped() {
    var standardError = ""
    let status = HexMaskCLI.run(
      ["in\u{1B}[2J.jpg", "out.png"],
      render: { _, _, _ in [fakeRendered(side: 1, warnings: ["profile \u{7}dropped"])] },
      standardOutput: { _ in }, standardError: { standardError += $0 })
    #expect(status == 0)
    #expect(standardError == #"hexmask: $'in\033[2J.jpg': warning: profile \adropped"# + "\n")
  }
}
