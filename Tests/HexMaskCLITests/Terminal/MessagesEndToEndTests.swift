import Foundation
import TestSupport
import Testing

/// One bad command line and exactly what a user sees: the lines on standard error and the
/// exit status.
struct BadInvocation: Sendable, CustomTestStringConvertible {
  var arguments: [String]
  var standardError: String
  var status: Int32

  var testDescription: String { "hexmask " + arguments.joined(separator: " ") }

  /// A wrong command line: the message, a pointer to `--help`, status 2.
  static func usage(_ arguments: [String], _ message: String) -> BadInvocation {
    BadInvocation(
      arguments: arguments,
      standardError: "hexmask: \(message)\nTry 'hexmask --help' for more information.\n",
      status: 2)
  }

  /// A problem with a file (or a value that does not fit the picture): one line, no pointer
  /// to `--help`.
  static func file(_ arguments: [String], _ message: String, status: Int32 = 1) -> BadInvocation {
    BadInvocation(arguments: arguments, standardError: "hexmask: \(message)\n", status: status)
  }
}

/// Every message a user is likely to meet first, run through the built executable in a
/// folder holding `photo.jpg` (the bundled rocket, 640 × 427), `12bit.jpg` (a 12-bit JPEG),
/// `notes.txt` and an empty folder `album`. Change a message and this table shows the new
/// wording for review.
///
/// An unreadable file is a missing file or a folder here: the tests run as root in CI, and
/// root reads a file whatever its permissions.
@Suite(.tags(.endToEnd)) struct MessagesEndToEndTests {
  static let invocations: [BadInvocation] = [
    // Options.
    .usage(
      ["--cornr", "5", "photo.jpg", "out.png"], "unknown option '--cornr'. Did you mean '--corner'?"
    ),
    .usage(["--colour", "red", "photo.jpg", "out.png"], "unknown option '--colour'"),
    .usage(["photo.jpg", "out.png", "--sides"], "option '--sides' needs a value"),
    .usage(["--strict=yes", "photo.jpg", "out.png"], "option '--strict' does not take a value"),
    .usage(
      ["--border-color", "blurple", "photo.jpg", "out.png"],
      "invalid colour 'blurple' for '--border-color': expected #rgb, #rrggbb, #rrggbbaa or a CSS "
        + "colour name"),
    .usage(
      ["--sides", "2", "photo.jpg", "out.png"],
      "invalid value '2' for '--sides': expected a whole number from 3 to 64"),
    .usage(
      ["--sides", "65", "photo.jpg", "out.png"],
      "invalid value '65' for '--sides': expected a whole number from 3 to 64"),
    .usage(
      ["--sides", "3.5", "photo.jpg", "out.png"],
      "invalid value '3.5' for '--sides': expected a whole number from 3 to 64"),
    .usage(
      ["--corner", "nan", "photo.jpg", "out.png"],
      "invalid value 'nan' for '--corner': expected a number of pixels ≥ 0 or a percentage such "
        + "as 8%"),
    .usage(
      ["--layout", "round", "photo.jpg", "out.png"],
      "invalid value 'round' for '--layout': expected centered or seed"),
    .usage(
      ["--format", "gif", "photo.jpg", "out.gif"],
      "invalid value 'gif' for '--format': expected png, jpeg, webp, avif or jxl"),
    // Files on the command line.
    .usage(["photo.jpg"], "expected INPUT and OUTPUT, got 1 argument"),
    .usage(
      ["photo.jpg", "out.png", "extra.png"],
      "too many arguments: 'extra.png'; to write several inputs into a folder, use --out-dir DIR"),
    .usage(
      ["--dry-run", "photo.jpg", "out.png"],
      "option '--dry-run' works only in batch mode, with --out-dir DIR"),
    .usage(
      ["--compression", "max", "photo.jpg", "out.png"],
      "invalid value 'max' for '--compression': expected fast, default, small or a level from 0 "
        + "to 9"),
    // A value that does not fit this picture names the largest that does.
    .file(
      ["--corner", "500", "photo.jpg", "out.png"],
      "photo.jpg: --corner 500 is too large: at most 120.57 fits a 427 px canvas with this line "
        + "and number of sides",
      status: 2),
    // Inputs that cannot be read.
    .file(["missing.jpg", "out.png"], "missing.jpg: cannot open: No such file or directory"),
    .file(["album", "out.png"], "album: is a folder, not an image"),
    .file(
      ["notes.txt", "out.png"],
      "notes.txt: not an image file: hexmask reads PNG, JPEG, GIF, HEIC, AVIF, WebP and JPEG XL"),
    .file(["12bit.jpg", "out.png"], "12bit.jpg: 12-bit JPEG is not supported"),
    // Outputs that cannot be written.
    .file(
      ["photo.jpg", "nowhere/out.png"], "nowhere/out.png: output folder 'nowhere' does not exist"),
    .file(
      ["photo.jpg", "photo.jpg"], "photo.jpg: output is the input file; refusing to overwrite it",
      status: 2),
    .file(
      ["photo.jpg", "./album/../photo.jpg"],
      "./album/../photo.jpg: output is the input file; refusing to overwrite it", status: 2),
  ]

  @Test(arguments: invocations)
  func messageAndStatus(_ invocation: BadInvocation) throws {
    try withTemporaryFolder { directory in
      let fileManager = FileManager.default
      try fileManager.copyItem(
        atPath: Fixtures.path("photos/rocket.jpg"),
        toPath: directory.appendingPathComponent("photo.jpg").path)
      try fileManager.copyItem(
        atPath: Fixtures.path("jpeg/testorig12.jpg"),
        toPath: directory.appendingPathComponent("12bit.jpg").path)
      try Data("not a picture\n".utf8).write(to: directory.appendingPathComponent("notes.txt"))
      try fileManager.createDirectory(
        at: directory.appendingPathComponent("album"), withIntermediateDirectories: false)
      let before = try filesIn(directory)

      let run = try runHexMask(invocation.arguments, in: directory)
      #expect(run.standardError == invocation.standardError)
      #expect(run.status == invocation.status)
      #expect(run.standardOutputData.isEmpty)
      #expect(try filesIn(directory) == before, "a failed run wrote something")
    }
  }
}
