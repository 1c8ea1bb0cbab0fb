import HexMask
import Testing

@testable import HexMaskCLI

/// `run` with a fake renderer and captured streams.
@Suite struct CommandTests {
  /// What one call of `run` printed and returned.
  struct Outcome {
    var status: Int32
    var standardOutput = ""
    var standardError = ""
  }

  func run(
    _ arguments: [String],
    render: (String, String, RenderSettings) throws(FileFailure) -> RenderedFile = { _, _, _ in
      fakeRendered(side: 1, warnings: [])
    }
  ) -> Outcome {
    var outcome = Outcome(status: -1)
    outcome.status = HexMaskCLI.run(
      arguments,
      render: { input, outputs, settings throws(FileFailure) in
        try outputs.map { output throws(FileFailure) in try render(input, output.path, settings) }
      },
      standardOutput: { outcome.standardOutput += $0 },
      standardError: { outcome.standardError += $0 })
    return outcome
  }

  @Test func renderGetsTheParsedJob() {
    var received: (String, String, RenderSettings)?
    let outcome = run(["in.jpg", "out.png", "--sides", "8", "--layout=seed"]) {
      received = ($0, $1, $2)
      return fakeRendered(side: 1, warnings: [])
    }
    #expect(outcome.status == 0)
    #expect(outcome.standardOutput.isEmpty && outcome.standardError.isEmpty)
    #expect(received?.0 == "in.jpg" && received?.1 == "out.png")
    #expect(received?.2.sides == 8 && received?.2.layout == .seed)
  }

  @Test func renderFailureIsReportedWithTheFile() {
    let outcome = run(["nope.jpg", "out.png"]) { input, _, _ throws(FileFailure) in
      throw FileFailure(file: input, reason: "no such file or directory")
    }
    #expect(outcome.status == 1)
    #expect(outcome.standardOutput.isEmpty)
    #expect(outcome.standardError == "hexmask: nope.jpg: no such file or directory\n")
  }

  @Test func renderUsageFailureExitsWith2() {
    let outcome = run(["in.jpg", "out.png", "--corner", "999"]) {
      input, _, _ throws(FileFailure) in
      throw FileFailure(file: input, .image(.shape(.lineTooWide(999, canvasSide: 64))))
    }
    #expect(outcome.status == 2)
    #expect(
      outcome.standardError
        == "hexmask: in.jpg: --line 999 leaves no room for the shape in a 64 px canvas: it "
        + "must be less than 64\n")
  }

  @Test func helpAndVersionDoNotRender() {
    for arguments in [["--help"], ["--version"], ["a", "b", "--version"]] {
      var rendered = false
      let outcome = run(arguments) { _, _, _ in
        rendered = true
        return fakeRendered(side: 1, warnings: [])
      }
      #expect(outcome.status == 0)
      #expect(!rendered)
      #expect(outcome.standardError.isEmpty)
    }
    #expect(run(["--version"]).standardOutput == "hexmask \(hexmaskVersion)\n")
    #expect(run(["--help"]).standardOutput == helpText())
  }

  @Test func warningsAreReportedWithTheInputName() {
    for (input, name) in [("in.jpg", "in.jpg"), ("-", "<stdin>")] {
      let outcome = run([input, "out.png"]) { _, _, _ in
        fakeRendered(side: 8, warnings: ["premature end of JPEG file"])
      }
      #expect(outcome.status == 0)
      #expect(outcome.standardError == "hexmask: \(name): warning: premature end of JPEG file\n")
    }
  }

  @Test func usageErrorDoesNotRender() {
    var rendered = false
    let outcome = run(["--sides", "2", "a", "b"]) { _, _, _ in
      rendered = true
      return fakeRendered(side: 1, warnings: [])
    }
    #expect(!rendered)
    #expect(outcome.status == 2)
    #expect(outcome.standardOutput.isEmpty)
    #expect(
      outcome.standardError == "hexmask: invalid value '2' for '--sides': expected a whole "
        + "number from 3 to 64\nTry 'hexmask --help' for more information.\n")
  }
}
