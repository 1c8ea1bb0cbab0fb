import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

/// The recipe holds what the library resolves the options to, not the words: the rotation as
/// the shape is drawn, the frame choice as it acts on this picture and output.
@Suite struct ResolvedRecipeTests {
  static let input = FileStamp(size: 1234, seconds: 1_764_590_400, nanoseconds: 5)

  static func recipe(
    _ options: RenderSettings, format: OutputFormat = .png, picture: HexMask.PictureFacts? = nil
  ) -> UInt64 {
    RunRecord.recipe(input: input, side: 256, options: options, format: format, picture: picture)
  }

  static func turned(_ degrees: Double, sides: Int = 6) -> RenderSettings {
    var settings = RenderSettings()
    settings.shape.rotation = degrees
    settings.shape.sides = sides
    return settings
  }

  /// On a hexagon 30°, 150°, −270° and 210° are the default 90° turned by whole steps of
  /// 60°: one recipe. 45° and 60° (half a step) are other shapes, and so is 90° on a pentagon
  /// turned by a hexagon's step.
  @Test func anglesOfOneShapeShareARecipe() {
    let base = Self.recipe(RenderSettings())
    for degrees in [30.0, 150, -270, 210, 450, -30] {
      #expect(Self.recipe(Self.turned(degrees)) == base, "\(degrees)")
    }
    for degrees in [45.0, 60, 0, 91, 89.999] {
      #expect(Self.recipe(Self.turned(degrees)) != base, "\(degrees)")
    }
    #expect(Self.recipe(Self.turned(18, sides: 5)) == Self.recipe(Self.turned(90, sides: 5)))
    #expect(Self.recipe(Self.turned(30, sides: 5)) != Self.recipe(Self.turned(90, sides: 5)))
    // The recipe's angle is the drawn one, so the default's text is the one it always was.
    #expect(
      effectiveRecipe(of: RenderSettings(), side: 256, format: .png).contains(
        "\nrotation \(String((Double.pi / 2).bitPattern, radix: 16))\n"))
  }

  static func facts(still: Bool) -> HexMask.PictureFacts {
    HexMask.PictureFacts(
      width: 300, height: 256, hasColorProfile: false, isTurned: false, isClean: true,
      isStill: still)
  }

  static func frame(_ frame: Int?, colors: Int? = nil, mask: Bool = false) -> RenderSettings {
    var settings = RenderSettings()
    settings.input.frame = frame
    settings.choices.colors = colors
    settings.choices.maskOnly = mask
    return settings
  }

  /// Frame 0 of a still is the still: the same recipe as no frame. Of an animation, or of a
  /// picture not known to be a still (an older record, a frame chosen from a GIF), frame 0
  /// into an output that can move is another output than the moving one; into one that
  /// cannot, the first frame it shows anyway. Any later frame is another picture, and a
  /// mask is every frame's.
  @Test func frameZeroOfAStillIsNoChoice() {
    let still = Self.facts(still: true)
    let moving = Self.facts(still: false)
    for format in [OutputFormat.png, .webp, .jpeg, .avif] {
      #expect(
        Self.recipe(Self.frame(0), format: format, picture: still)
          == Self.recipe(Self.frame(nil), format: format, picture: still), "\(format)")
    }
    #expect(
      Self.recipe(Self.frame(0), picture: moving) != Self.recipe(Self.frame(nil), picture: moving))
    #expect(
      Self.recipe(Self.frame(0), format: .webp, picture: moving)
        != Self.recipe(Self.frame(nil), format: .webp, picture: moving))
    #expect(Self.recipe(Self.frame(0)) != Self.recipe(Self.frame(nil)))
    #expect(
      Self.recipe(Self.frame(0), format: .jpeg, picture: moving)
        == Self.recipe(Self.frame(nil), format: .jpeg, picture: moving))
    #expect(
      Self.recipe(Self.frame(0, colors: 16), picture: moving)
        == Self.recipe(Self.frame(nil, colors: 16), picture: moving))
    #expect(
      Self.recipe(Self.frame(2), picture: moving) != Self.recipe(Self.frame(nil), picture: moving))
    #expect(
      Self.recipe(Self.frame(2), picture: moving) != Self.recipe(Self.frame(1), picture: moving))
    #expect(Self.recipe(Self.frame(3, mask: true)) == Self.recipe(Self.frame(nil, mask: true)))
    // A picture not known to be a still keeps the text older versions wrote, so their
    // records still match.
    #expect(
      effectiveRecipe(of: Self.frame(0), side: 256, format: .png, picture: moving)
        .contains("\nframe 0\n"))
  }

  /// `s` in a record's facts says the picture is a still; records written before it was
  /// kept lack it and read as not known to be one.
  @Test func theRecordKeepsWhetherThePictureIsAStill() throws {
    let output = FileStamp(size: 48213, seconds: 1_764_590_400, nanoseconds: 123_456_789)
    let record = RunRecord(
      recipe: 0x9f3c, side: 256, output: output, picture: Self.facts(still: true))
    #expect(
      record.line == "hexmask-record 3 0000000000009f3c 256 48213 1764590400.123456789 300x256 cs\n"
    )
    #expect(RunRecord(line: record.line) == record)
    let older = try #require(
      RunRecord(
        line: "hexmask-record 3 0000000000009f3c 256 48213 1764590400.123456789 300x256 c\n"))
    #expect(older.picture == Self.facts(still: false))
  }

  /// A still's output made without `--frame` is up to date for `--frame 0`; an older record
  /// of the same output, which does not know it is a still, rebuilds it once.
  @Test func aRerunWithFrameZeroOfAStillSkips() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      let item = BatchItem(
        input: folder + "/in.jpg", output: folder + "/out.png", record: folder + "/out.png.rec")
      try Data("photo".utf8).write(to: URL(fileURLWithPath: item.input))
      try Data("picture".utf8).write(to: URL(fileURLWithPath: item.output))
      let input = try #require(FileStamp(path: item.input))
      let output = try #require(FileStamp(path: item.output))
      let record = try #require(item.record)
      for (still, expected) in [(true, nil), (false, WriteReason.changed)] {
        let facts = Self.facts(still: still)
        try RunRecord(
          recipe: RunRecord.recipe(
            input: input, side: 256, options: Self.frame(nil), picture: facts),
          side: 256, output: output, picture: facts
        ).write(to: record)
        #expect(
          rerunReason(for: item, recipe: Recipe(options: Self.frame(nil)), force: false) == nil)
        #expect(
          rerunReason(for: item, recipe: Recipe(options: Self.frame(0)), force: false) == expected)
        #expect(
          rerunReason(for: item, recipe: Recipe(options: Self.frame(1)), force: false) == .changed)
      }
    }
  }
}
