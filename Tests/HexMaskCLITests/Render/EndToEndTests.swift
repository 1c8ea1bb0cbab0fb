import Foundation
import TestSupport
import Testing

/// Runs the built executable and checks what a user in a shell sees.
@Suite(.tags(.endToEnd)) struct EndToEndTests {
  @Test(arguments: ["--help", "-h"])
  func helpGoesToStandardOutput(flag: String) throws {
    let run = try runHexMask([flag])
    #expect(run.status == 0)
    #expect(run.standardOutput.hasPrefix("Usage: hexmask [options] INPUT OUTPUT\n"))
    #expect(run.standardOutput.contains("--border-color COLOR"))
    #expect(run.standardError.isEmpty)
  }

  @Test func versionIsPrinted() throws {
    let run = try runHexMask(["--version"])
    let version = try runProcess(packageRoot.appendingPathComponent("scripts/version.sh"), [])
      .standardOutput
    #expect(run.status == 0)
    #expect(run.standardOutput == "hexmask \(version)")
    #expect(run.standardError.isEmpty)
  }

  @Test(arguments: [
    (["--cornr", "5", "in.jpg", "out.png"], "unknown option '--cornr'. Did you mean '--corner'?"),
    (["in.jpg", "out.png", "--sides"], "option '--sides' needs a value"),
    (
      ["--border-color", "blurple", "in.jpg", "out.png"],
      "invalid colour 'blurple' for '--border-color': expected #rgb, #rrggbb, #rrggbbaa or a "
        + "CSS colour name"
    ),
    (["in.jpg"], "expected INPUT and OUTPUT, got 1 argument"),
    ([], "expected INPUT and OUTPUT, got 0 arguments"),
  ])
  func usageErrorsExitWithStatus2(arguments: [String], message: String) throws {
    let run = try runHexMask(arguments)
    #expect(run.status == 2)
    #expect(run.standardOutputData.isEmpty)
    #expect(
      run.standardError == "hexmask: \(message)\nTry 'hexmask --help' for more information.\n")
  }
}
