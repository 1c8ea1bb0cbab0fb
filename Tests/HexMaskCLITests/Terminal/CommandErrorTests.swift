import HexMask
import Testing

@testable import HexMaskCLI

@Suite struct CommandErrorTests {
  @Test(arguments: [
    (
      CommandError.unknownOption("--cornr", suggestions: ["--corner"]),
      "unknown option '--cornr'. Did you mean '--corner'?"
    ),
    (.unknownOption("--frobnicate", suggestions: []), "unknown option '--frobnicate'"),
    (
      .unknownOption("--color", suggestions: ["--colors", "--colorspace", "--border-color"]),
      "unknown option '--color'. Did you mean '--colors', '--colorspace' or '--border-color'?"
    ),
    (.missingValue(option: "--sides"), "option '--sides' needs a value"),
    (.unexpectedValue(option: "--help"), "option '--help' does not take a value"),
    (
      .invalidValue("abc", option: "--sides", kind: .wholeNumber(3...64)),
      "invalid value 'abc' for '--sides': expected a whole number from 3 to 64"
    ),
    (
      .invalidValue("nan", option: "--corner", kind: .length),
      "invalid value 'nan' for '--corner': expected a number of pixels ≥ 0 or a percentage such as 8%"
    ),
    (
      .invalidValue("up", option: "--rotation", kind: .degrees),
      "invalid value 'up' for '--rotation': expected a number of degrees"
    ),
    (
      .invalidValue("blurple", option: "--border-color", kind: .color),
      "invalid colour 'blurple' for '--border-color': expected #rgb, #rrggbb, #rrggbbaa or a "
        + "CSS colour name"
    ),
    (
      .invalidValue("x", option: "--layout", kind: .choice(["centered", "seed"])),
      "invalid value 'x' for '--layout': expected centered or seed"
    ),
    (
      .invalidValue("x", option: "--fit", kind: .choice(["a", "b", "c"])),
      "invalid value 'x' for '--fit': expected a, b or c"
    ),
    (.missingFiles(count: 0), "expected INPUT and OUTPUT, got 0 arguments"),
    (.missingFiles(count: 1), "expected INPUT and OUTPUT, got 1 argument"),
    (
      .tooManyArguments(extra: "x"),
      "too many arguments: 'x'; to write several inputs into a folder, use --out-dir DIR"
    ),
  ])
  func usageMessages(error: CommandError, message: String) {
    #expect(error.message == message)
    #expect(error.exitStatus == 2)
    #expect(error.report == "hexmask: \(message)\nTry 'hexmask --help' for more information.\n")
  }

  @Test func renderFailureNamesTheFile() {
    let error = CommandError.renderFailed(
      FileFailure(file: "missing.jpg", reason: "no such file"))
    #expect(error.message == "missing.jpg: no such file")
    #expect(error.report == "hexmask: missing.jpg: no such file\n")
    #expect(error.exitStatus == 1)
  }

  @Test func renderUsageFailureExitsWith2() {
    let error = CommandError.renderFailed(
      FileFailure(
        file: "in.jpg", .image(.shape(.cornerTooLarge(90, maximum: 40.2, canvasSide: 100)))))
    #expect(
      error.report
        == "hexmask: in.jpg: --corner 90 is too large: at most 40.20 fits a 100 px canvas with "
        + "this line and number of sides\n")
    #expect(error.exitStatus == 2)
  }
}
