import HexMask

/// Everything that can stop `hexmask`, with the one-line message the user reads and the
/// exit status scripts see. All wording and every exit status live here.
///
/// ```swift
/// let error = CommandError.missingValue(option: "--sides")
/// error.message     // "option '--sides' needs a value"
/// error.exitStatus  // 2
/// ```
enum CommandError: Error, Equatable, Sendable {
  /// An argument starts with `-` but names no option; `suggestion` is a close option name.
  case unknownOption(String, suggestion: String?)
  /// An option that takes a value came last.
  case missingValue(option: String)
  /// A flag was written with `=value`.
  case unexpectedValue(option: String)
  /// The value after an option does not fit its kind.
  case invalidValue(String, option: String, kind: ValueKind)
  /// Fewer than two of INPUT and OUTPUT.
  case missingFiles(count: Int)
  /// More than two positional arguments; the first one too many.
  case tooManyArguments(extra: String)
  /// The library could not turn the input into the output.
  case renderFailed(HexMaskError)

  /// 2 for a usage error (the command line is wrong), 1 when a file could not be processed.
  var exitStatus: Int32 {
    switch self {
    case .renderFailed(let error): error.isUsage ? 2 : 1
    default: 2
    }
  }

  /// What went wrong, in one line, without the `hexmask: ` prefix.
  var message: String {
    switch self {
    case .unknownOption(let option, let suggestion?):
      "unknown option '\(option)'. Did you mean '\(suggestion)'?"
    case .unknownOption(let option, nil):
      "unknown option '\(option)'"
    case .missingValue(let option):
      "option '\(option)' needs a value"
    case .unexpectedValue(let option):
      "option '\(option)' does not take a value"
    case .invalidValue(let text, let option, .color):
      "invalid colour '\(text)' for '\(option)': expected \(ValueKind.color.expectation)"
    case .invalidValue(let text, let option, let kind):
      "invalid value '\(text)' for '\(option)': expected \(kind.expectation)"
    case .missingFiles(let count):
      "expected INPUT and OUTPUT, got \(count) argument\(count == 1 ? "" : "s")"
    case .tooManyArguments(let extra):
      "too many arguments: '\(extra)'"
    case .renderFailed(let error):
      "\(error.file): \(error.reason)"
    }
  }

  /// The lines printed on standard error: the message, and for a wrong command line a hint
  /// that points to `--help`.
  var report: String {
    switch self {
    case .renderFailed: "hexmask: \(message)\n"
    default: "hexmask: \(message)\nTry 'hexmask --help' for more information.\n"
    }
  }
}

extension ValueKind {
  /// What a valid value looks like, completing "expected …".
  var expectation: String {
    switch self {
    case .flag: "no value"
    case .wholeNumber(let range) where range.upperBound == Int.max:
      "a whole number ≥ \(range.lowerBound)"
    case .wholeNumber(let range):
      "a whole number from \(range.lowerBound) to \(range.upperBound)"
    case .pixels: "a number of pixels ≥ 0"
    case .degrees: "a number of degrees"
    case .color: "#rgb, #rrggbb, #rrggbbaa or a CSS colour name"
    case .choice(let words):
      words.count < 2
        ? words.joined()
        : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }
  }
}
