import Foundation
import HexMask
import Testing

@testable import HexMaskCLI

/// Batch mode on the command line: what `--out-dir` turns on and what it refuses.
@Suite struct BatchParsingTests {
  @Test func outDirMakesEveryFileAnInput() throws {
    let job = try Job(parsing: [
      "a.jpg", "photos", "b.png", "--out-dir", "out", "-r", "-j", "3", "--name",
      "{name}-{ext}.png", "--force", "--json", "--files-from", "-", "-0", "--follow-symlinks",
    ])
    #expect(job.action == .renderBatch)
    #expect(job.inputs == ["a.jpg", "photos", "b.png"])
    #expect(job.batch.outputFolder == "out")
    #expect(job.batch.recursive && job.batch.followSymlinks && job.batch.overwrite)
    #expect(job.batch.json && job.batch.nulSeparated && !job.batch.dryRun)
    #expect(job.batch.jobs == 3)
    #expect(job.batch.listFile == "-")
    #expect(job.batch.nameTemplate?.text == "{name}-{ext}.png")
  }

  @Test func twoFilesWithoutOutDirStayInputAndOutput() throws {
    let job = try Job(parsing: ["a.jpg", "b.png"])
    #expect(job.action == .render && job.input == "a.jpg" && job.output == "b.png")
    #expect(job.batch == BatchSettings())
  }

  @Test func theLastVerbosityWins() throws {
    #expect(try Job(parsing: ["a", "--out-dir", "o", "--verbose", "-q"]).batch.verbosity == .quiet)
    #expect(
      try Job(parsing: ["a", "--out-dir", "o", "-q", "--verbose"]).batch.verbosity == .verbose)
  }

  @Test func aListAloneIsEnough() throws {
    let job = try Job(parsing: ["--files-from", "list.txt", "--out-dir", "o"])
    #expect(job.action == .renderBatch && job.inputs.isEmpty)
  }

  static let errors: [([String], CommandError)] = [
    (["a", "b", "-r"], .needsOutputFolder(option: "-r")),
    (["a", "b", "--dry-run"], .needsOutputFolder(option: "--dry-run")),
    (["--files-from", "l", "x"], .needsOutputFolder(option: "--files-from")),
    (["--out-dir", "o"], .missingInputs),
    (["-", "--out-dir", "o"], .standardInputInBatch),
    (["a", "--out-dir", ""], .invalidValue("", option: "--out-dir", kind: .path)),
    (
      ["a", "--out-dir", "o", "-j", "0"],
      .invalidValue("0", option: "-j", kind: .wholeNumber(1...1024))
    ),
    (
      ["a", "--out-dir", "o", "--name", "{x}.png"],
      .invalidTemplate(
        "{x}.png", option: "--name",
        reason: "unknown placeholder '{x}' (use {name}, {ext}, {dir} or {size})")
    ),
  ]

  @Test func jobsOfOneFileDeflateItsBands() throws {
    #expect(try Job(parsing: ["a", "b", "-j", "3"]).options.output.threads == 3)
    #expect(try Job(parsing: ["a", "b"]).options.output.threads == availableCores)
    // In batch mode the threads go to files; each file's PNG gets one.
    #expect(try Job(parsing: ["a", "--out-dir", "o", "-j", "3"]).options.output.threads == 1)
  }

  @Test(arguments: errors)
  func usageErrors(arguments: [String], error: CommandError) {
    #expect(throws: error) { try Job(parsing: arguments) }
    #expect(error.exitStatus == 2)
  }

  @Test func batchExitStatuses() {
    #expect(CommandError.someFilesFailed(count: 2).exitStatus == 1)
    #expect(CommandError.someFilesFailed(count: 2).report.isEmpty)
    #expect(CommandError.interrupted(signal: SIGINT).exitStatus == 130)
    #expect(CommandError.interrupted(signal: SIGTERM, quiet: true).exitStatus == 143)
    #expect(CommandError.interrupted(signal: SIGTERM, quiet: true).report.isEmpty)
    #expect(CommandError.interrupted(signal: SIGTERM).exitStatus == 143)
    #expect(
      CommandError.interrupted(signal: SIGTERM).report
        == "hexmask: stopped by SIGTERM; run the same command again to finish the rest\n")
    let list = CommandError.unreadableList(FileFailure(file: "l", reason: "cannot open"))
    #expect(list.exitStatus == 1)
  }

  @Test func conflictsNameEveryInput() {
    let error = CommandError.outputConflicts([
      OutputConflict(output: "o/x.png", inputs: ["a/x.jpg", "b/x.png"]),
      OutputConflict(output: "o/y.png", inputs: ["a/y.jpg", "b/y.png", "c/y.jpg"]),
      OutputConflict(output: "o/z.png", inputs: ["o/z.jpg"], overwritesInput: true),
    ])
    #expect(error.exitStatus == 2)
    #expect(
      error.report == """
        hexmask: conflict: 'a/x.jpg' and 'b/x.png' would both write 'o/x.png'
        hexmask: conflict: 'a/y.jpg', 'b/y.png' and 'c/y.jpg' would all write 'o/y.png'
        hexmask: conflict: 'o/z.jpg' would write 'o/z.png', which is an input file
        hexmask: 3 outputs would be written twice or replace an input; nothing was written
        Tell the outputs apart with --name (e.g. '{name}-{ext}.png'), or mirror folders with -r.

        """)
  }

  /// The example name keeps the outputs' extension, so following it under `--format avif`
  /// is no new usage error.
  @Test func theConflictHintKeepsTheOutputsExtension() {
    let error = CommandError.outputConflicts(
      [OutputConflict(output: "o/x.avif", inputs: ["a/x.jpg", "b/x.png"])], recursive: true)
    #expect(
      error.report.hasSuffix("Tell the outputs apart with --name (e.g. '{name}-{ext}.avif').\n"))
  }

  @Test func jsonStringsEscapeWhatJSONNeeds() throws {
    let text = "a \"b\" \\ c\nd\te\u{1}é😀"
    let literal = jsonString(text)
    #expect(literal == #""a \"b\" \\ c\nd\te\u0001é😀""#)
    let parsed =
      try JSONSerialization.jsonObject(
        with: Data("[\(literal)]".utf8)) as? [String]
    #expect(parsed == [text])
  }

  @Test func jsonLinesKeepTheirKeyOrder() {
    let result = BatchResult(
      item: BatchItem(input: "in.jpg", output: "o/in.png"), status: .written,
      report: fakeRendered(side: 12), milliseconds: 7)
    #expect(
      jsonLine(result, status: "written")
        == #"{"input":"in.jpg","output":"o/in.png","status":"written","reason":null,"error":null,"#
        + #""width":12,"height":12,"milliseconds":7,"warnings":[],"crop":null}"# + "\n")
  }

  @Test func durationsReadWell() {
    #expect(duration(4.24) == "4.2 s")
    #expect(duration(187) == "3 min 07 s")
    #expect(duration(.infinity) == "?")
  }
}
