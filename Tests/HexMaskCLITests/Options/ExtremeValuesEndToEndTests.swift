import Foundation
import TestSupport
import Testing

/// One run of the sweep: an option with one value, on a small input.
struct ExtremeValueCase: Sendable, CustomTestStringConvertible {
  /// The fixture read, or nil for `--svg` alone.
  var input: String?
  /// The file written, inside the run's folder.
  var output: String
  /// Options every run of this option needs (`--size 64` for the photo).
  var extra: [String] = []
  var option: String
  var value: String

  var testDescription: String { "\(option) '\(value)'" }

  /// The command line, writing to `output`: the SVG alone when there is no input.
  func arguments(output: String) -> [String] {
    let files = input.map { [Fixtures.path($0), output] } ?? ["--svg", output]
    return files + extra + [option, value]
  }
}

/// Every numeric option with values at the edges of what `Double` and `Int` hold, through the
/// built binary: each run either works, giving a picture with something visible in it, or is
/// a usage error, status 2 with one message line naming the option — never a crash, never a
/// file error, never an empty picture.
@Suite(.tags(.slow, .endToEnd), .outsideTheFastLane) struct ExtremeValuesEndToEndTests {
  /// Numbers at the edges, finite and not, and a few that are no number at all.
  static let numbers = [
    "0", "-0", "1", "-1", "2.5", "1e-320", "4.9e-324", "-4.9e-324", "1e16", "-1e16", "1e308",
    "-1e308", "1.7976931348623157e308", "-1.7976931348623157e308", "1.8e308",
    "99999999999999999999", "-99999999999999999999", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "65500", "65501", "nan", "inf", "-inf",
    "0x1p3", "",
  ]

  static let small = "pngsuite/basn2c08.png"

  static let cases: [ExtremeValueCase] = {
    var cases: [ExtremeValueCase] = []
    func sweep(
      _ option: String, _ values: [String], input: String? = small, output: String = "out.png",
      extra: [String] = []
    ) {
      for value in values {
        cases.append(
          ExtremeValueCase(input: input, output: output, extra: extra, option: option, value: value)
        )
      }
    }
    let lengths = numbers + numbers.map { $0 + "%" }
    sweep("--corner", lengths)
    sweep("--line", lengths)
    sweep("--rotation", numbers)
    sweep("--rotation", numbers, input: nil, output: "out.svg", extra: ["--size", "64"])
    sweep("--sides", numbers)
    sweep("--jobs", numbers)
    sweep("--compression", numbers)
    sweep("--quality", numbers, output: "out.jpg")
    // The 32 × 32 input alone would be refused by a limit under 1024 pixels, a file error
    // (status 1) like any too large input; the 16 px output makes every too small limit a
    // usage error first.
    sweep("--max-pixels", numbers, extra: ["--size", "16"])
    // The photo is not square, so the focus moves the square.
    sweep(
      "--focus", numbers.flatMap { ["\($0),0.5", "0.5,\($0)"] }, input: "photos/rocket.jpg",
      extra: ["--size", "64"])
    sweep("--size", numbers)
    // The SVG alone draws no pixels, so any size is cheap.
    sweep("--size", numbers, input: nil, output: "out.svg")
    return cases
  }()

  @Test(arguments: cases)
  func worksOrIsAUsageError(_ sweep: ExtremeValueCase) throws {
    try withTemporaryFolder { folder in
      let output = folder.appendingPathComponent(sweep.output).path
      let run = try runHexMask(sweep.arguments(output: output), timeout: 60)
      #expect(!run.killedBySignal, "\(run.standardError)")
      #expect(run.status == 0 || run.status == 2, "status \(run.status): \(run.standardError)")
      if sweep.option == "--rotation", sweep.value.allSatisfy({ "0123456789-.e".contains($0) }),
        let degrees = Double(sweep.value), degrees.isFinite
      {
        #expect(run.status == 0, "every finite angle in decimal works: \(run.standardError)")
      }
      let written = try filesIn(folder)
      if run.status == 0 {
        #expect(run.standardError.isEmpty, "\(run.standardError)")
        #expect(written == [sweep.output], "\(written)")
        try expectVisible(output)
      } else {
        let messages = run.standardError.split(separator: "\n").filter {
          $0 != "Try 'hexmask --help' for more information."
        }
        #expect(messages.count == 1, "\(run.standardError)")
        #expect(messages.first?.hasPrefix("hexmask: ") == true, "\(run.standardError)")
        #expect(messages.first?.contains(sweep.option) == true, "\(run.standardError)")
        #expect(written.isEmpty, "a refused run wrote \(written)")
      }
    }
  }

  /// An SVG holds the shape; a picture has at least one pixel that is not transparent.
  private func expectVisible(_ path: String) throws {
    if path.hasSuffix(".svg") {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.contains(#"<path id="hexmask-shape" d="M "#), "\(text)")
      return
    }
    let image = try decodeImage(at: path)
    #expect(image.width > 0 && image.width == image.height)
    let visible = stride(from: 3, to: image.pixels.count, by: 4).contains { image.pixels[$0] > 0 }
    #expect(visible, "every pixel of \(path) is transparent")
  }
}
