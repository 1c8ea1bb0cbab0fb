import Foundation
import TestSupport
import Testing

/// The manual page and completion scripts as the built executable prints them for
/// `make install`.
@Suite(.tags(.endToEnd)) struct DocumentsEndToEndTests {
  @Test(arguments: [
    ("bash", "# bash completion for hexmask"), ("zsh", "#compdef hexmask\n"),
    ("fish", "# fish completion for hexmask"),
  ])
  func completionScripts(shell: String, start: String) throws {
    let run = try runHexMask(["--completions", shell])
    #expect(run.status == 0)
    #expect(run.standardOutput.hasPrefix(start))
    #expect(run.standardError.isEmpty)
  }

  @Test func manPageEqualsTheCommittedCopy() throws {
    let run = try runHexMask(["--man"])
    #expect(run.status == 0)
    #expect(run.standardError.isEmpty)
    let committed = try Data(contentsOf: packageRoot.appendingPathComponent("docs/hexmask.1"))
    #expect(run.standardOutputData == committed, "docs/hexmask.1 is out of date: run 'make man'")
  }

  @Test func unknownShellIsAUsageError() throws {
    let run = try runHexMask(["--completions", "tcsh"])
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "hexmask: invalid value 'tcsh' for '--completions': expected bash, zsh or fish\n"
        + "Try 'hexmask --help' for more information.\n")
  }
}
