import HexMask
import Testing

@testable import HexMaskCLI

/// `--frame` and `--max-frames` as the parser reads them, the hint a still of an animation
/// gets, and what `--json`, `--verbose` and the rerun recipe say about animations.
@Suite struct AnimationOptionTests {
  static let files = ["in.gif", "out.png"]

  @Test(arguments: [("0", 0), ("first", 0), ("FIRST", 0), ("First", 0), ("7", 7), ("+2", 2)])
  func frameTakesANumberFromZeroOrFirst(text: String, frame: Int) throws {
    let job = try Job(parsing: Self.files + ["--frame", text])
    #expect(job.options.input.frame == frame)
    #expect(try Job(parsing: ["--frame=\(text)"] + Self.files).options.input.frame == frame)
  }

  @Test func withoutFrameEveryFrameIsCut() throws {
    #expect(try Job(parsing: Self.files).options.input.frame == nil)
    #expect(
      try Job(parsing: Self.files).options.input.maxFrames == HexMask.Input.defaultMaxFrames)
  }

  /// Not a frame: a sign, a fraction, an exponent, a word other than `first`, nothing, a
  /// number past any machine's.
  @Test(arguments: [
    "-1", "nan", "inf", "1e308", "1e3", "1.5", "1.0", "", "last", "0x1", " 1", "1 ", "one",
    "99999999999999999999999", "--",
  ])
  func anythingElseIsAUsageError(text: String) {
    #expect(throws: CommandError.invalidValue(text, option: "--frame", kind: .frame)) {
      try Job(parsing: Self.files + ["--frame", text])
    }
    let error = CommandError.invalidValue(text, option: "--frame", kind: .frame)
    #expect(error.exitStatus == 2)
    #expect(error.report.hasPrefix("hexmask: invalid value '\(text)' for '--frame': "))
    #expect(error.report.contains("expected a frame number ≥ 0 (0 is the first) or first\n"))
    #expect(error.report.split(separator: "\n").count == 2, "the message and the --help hint")
  }

  /// `-0` is zero, as for every whole-number option (`Int` reads it so, as `strtol` does).
  @Test func minusZeroIsTheFirstFrame() throws {
    #expect(try Job(parsing: Self.files + ["--frame", "-0"]).options.input.frame == 0)
  }

  @Test func aNumberTooLongForAnyMachineSaysSo() {
    let error = CommandError.invalidValue(
      "99999999999999999999999", option: "--frame", kind: .frame)
    #expect(error.message.contains("too large"))
  }

  @Test(arguments: ["0", "-3", "1.5", "", "nan", "many"])
  func maxFramesIsAWholeNumberFromOne(text: String) {
    #expect(
      throws: CommandError.invalidValue(
        text, option: "--max-frames", kind: .wholeNumber(1...Int.max))
    ) {
      try Job(parsing: Self.files + ["--max-frames", text])
    }
  }

  @Test func maxFramesIsRead() throws {
    #expect(try Job(parsing: Self.files + ["--max-frames", "12"]).options.input.maxFrames == 12)
  }

  @Test func frameOptionsWorkInABatch() throws {
    let job = try Job(parsing: ["a", "b", "--out-dir", "o", "--frame", "2", "--max-frames", "9"])
    #expect(job.action == .renderBatch)
    #expect(job.options.input.frame == 2)
    #expect(job.options.input.maxFrames == 9)
  }

  @Test(arguments: [
    ("--frames", ["--frame", "--max-frames"]), ("--fram", ["--frame"]),
    ("--max-frame", ["--max-frames"]), ("--frme", ["--frame"]),
  ])
  func mistypedNamesSuggestTheFrameOptions(typed: String, expected: [String]) {
    #expect(suggestions(for: typed, among: optionTable.map(\.longName)) == expected)
  }

  @Test func mistypedNamesAreUsageErrorsWithTheSuggestion() {
    #expect(
      throws: CommandError.unknownOption("--frames", suggestions: ["--frame", "--max-frames"])
    ) {
      try Job(parsing: Self.files + ["--frames", "2"])
    }
  }

  // MARK: - What is said about an animation

  static let firstFrame = HexMask.Warning(
    .firstFrameOnly, "an animation: a JPEG cannot move, so it shows the first frame only")

  @Test func aStillOfAnAnimationNamesFrame() {
    let warning = FileWarning(Self.firstFrame, mask: false)
    #expect(warning.description.hasPrefix(Self.firstFrame.description))
    #expect(warning.description.hasSuffix(" (--frame N picks another)"))
  }

  /// A mask is the same for every frame: `--frame` would change nothing.
  @Test func aMaskOfAnAnimationDoesNot() {
    #expect(FileWarning(Self.firstFrame, mask: true).description == Self.firstFrame.description)
    let other = HexMask.Warning(.damagedInput, "truncated GIF")
    #expect(FileWarning(other, mask: false).description == other.description)
  }

  @Test func theWarningSaysTheHintInJSONToo() {
    var result = BatchResult(
      item: BatchItem(input: "a.gif", output: "o/a.jpg", size: nil), status: .written)
    result.report = RenderedFile(
      side: 20, warnings: [FileWarning(Self.firstFrame, mask: false)], stamp: nil)
    #expect(jsonLine(result, status: "written").contains("(--frame N picks another)"))
  }

  @Test func jsonRowsOfAnAnimationEndWithItsFramesDurationAndLoop() {
    var result = BatchResult(
      item: BatchItem(input: "a.gif", output: "o/a.png", size: nil), status: .written)
    result.report = RenderedFile(side: 20, warnings: [], stamp: nil)
    let still = jsonLine(result, status: "written")
    #expect(!still.contains("frames") && !still.contains("duration_ms"))
    result.report?.animation = HexMask.Animation(
      frames: 12, durationMilliseconds: 1200, loopCount: 0)
    let moving = jsonLine(result, status: "written")
    #expect(moving == still.dropLast(2) + #","frames":12,"duration_ms":1200,"loop":0}"# + "\n")
  }

  @Test(arguments: [
    (
      HexMask.Animation(frames: 12, durationMilliseconds: 1200, loopCount: 0),
      "animated: 12 frames, 1.20 s, plays forever"
    ),
    (
      HexMask.Animation(frames: 2, durationMilliseconds: 105, loopCount: 1),
      "animated: 2 frames, 0.11 s, plays once"
    ),
    (
      HexMask.Animation(frames: 7, durationMilliseconds: 61_004, loopCount: 3),
      "animated: 7 frames, 61.00 s, plays 3 times"
    ),
  ])
  func verboseSaysHowItPlays(animation: HexMask.Animation, words: String) {
    #expect(animationWords(animation) == words)
  }

  /// The limit an error carries picks the option, whatever its words say.
  @Test(arguments: [
    (HexMask.ImageError.AnimationLimit.frames(limit: 9), "--max-frames"),
    (.pixelsInAll(limit: 99), "16 × --max-pixels"),
  ])
  func animationLimitsNameTheirOptions(limit: HexMask.ImageError.AnimationLimit, option: String) {
    let reason = "a reason in any words"
    let error = HexMask.ImageError(.tooLarge, reason, animation: limit)
    let failure = FileFailure(file: "a.gif", .image(.decoding(error)))
    #expect(failure.displayed == "a.gif: \(reason) (\(option))")
  }

  /// Words that name frames and a limit, without a typed limit, name no option.
  @Test(arguments: [
    "more frames than the limit of 9", "PNG chunk IDAT is too large (9 bytes)",
    "17 frames of 100×100 are more than the limit of 160000 pixels over all frames",
  ])
  func otherLimitsAreLeftAlone(reason: String) {
    let failure = FileFailure(
      file: "a.gif", .image(.decoding(HexMask.ImageError(.tooLarge, reason))))
    #expect(failure.displayed == "a.gif: \(reason)")
  }

  // MARK: - The rerun recipe

  static func recipe(
    frame: Int?, format: OutputFormat, choices: (inout RenderSettings) -> Void = { _ in }
  )
    -> String
  {
    var settings = RenderSettings()
    settings.input.frame = frame
    choices(&settings)
    return effectiveRecipe(of: settings, side: 64, format: format)
  }

  /// A frame makes other bytes where the output can move (a still instead of an animation)
  /// and wherever it is not the first.
  @Test(arguments: OutputFormat.allCases)
  func anotherFrameIsAnotherRecipe(format: OutputFormat) {
    let recipes = [nil, 1, 2].map { Self.recipe(frame: $0, format: format) }
    #expect(Set(recipes).count == 3)
  }

  @Test(arguments: OutputFormat.allCases.filter { HexMask.Output.Kind($0).canMove })
  func theFirstFrameOfAnOutputThatMovesIsAStill(format: OutputFormat) {
    #expect(Self.recipe(frame: 0, format: format) != Self.recipe(frame: nil, format: format))
  }

  /// A JPEG, an AVIF and a palette PNG show the first frame without `--frame`.
  @Test func theFirstFrameOfAStillOutputIsWhatItShowsAnyway() {
    for format in [OutputFormat.jpeg, .avif] {
      #expect(Self.recipe(frame: 0, format: format) == Self.recipe(frame: nil, format: format))
    }
    let palette: (inout RenderSettings) -> Void = { $0.choices.colors = 16 }
    #expect(
      Self.recipe(frame: 0, format: .png, choices: palette)
        == Self.recipe(frame: nil, format: .png, choices: palette))
  }

  @Test func aMaskIsTheSameForEveryFrame() {
    let mask: (inout RenderSettings) -> Void = { $0.choices.maskOnly = true }
    #expect(
      Self.recipe(frame: 3, format: .png, choices: mask)
        == Self.recipe(frame: nil, format: .png, choices: mask))
  }

  /// A limit refuses files; it never changes an output that was written.
  @Test func maxFramesIsNoPartOfTheRecipe() {
    let limited = Self.recipe(frame: nil, format: .webp) { $0.input.maxFrames = 3 }
    #expect(limited == Self.recipe(frame: nil, format: .webp))
  }
}
