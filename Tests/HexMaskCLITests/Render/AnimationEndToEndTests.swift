import Foundation
import TestSupport
import Testing

/// Animated inputs through the built binary: what moves, what `--frame` takes, what a
/// batch reports, records and recognises as its own.
@Suite(.tags(.endToEnd)) struct AnimationEndToEndTests {
  static let gif = Fixtures.path("animation/mixed-disposal.gif")
  static let apng = Fixtures.path("animation/apng-dispose-blend.png")
  static let webp = Fixtures.path("animation/webp-img2webp-alpha.webp")

  static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

  /// One line of `--json` output as keys and values.
  static func rows(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test(arguments: [gif, apng, webp])
  func aPNGOrWebPOfAnAnimationMovesAndFrameTakesAStill(input: String) throws {
    try withTemporaryFolder { dir in
      for name in ["o.png", "o.webp"] {
        let moving = dir.appendingPathComponent(name)
        let run = try runHexMask([input, moving.path, "--size", "32"])
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
        let animation = try #require(WrittenAnimation(contentsOf: moving), "\(name) moves")
        #expect(animation.frames > 1)

        let still = dir.appendingPathComponent("still-" + name)
        let last = String(animation.frames - 1)
        #expect(try runHexMask([input, still.path, "--size", "32", "--frame", last]).status == 0)
        #expect(WrittenAnimation(contentsOf: still) == nil, "--frame \(last) is a still")
        let first = dir.appendingPathComponent("first-" + name)
        #expect(
          try runHexMask([input, first.path, "--size", "32", "--frame", "first"]).status == 0)
        let zero = dir.appendingPathComponent("zero-" + name)
        #expect(try runHexMask([input, zero.path, "--size", "32", "--frame", "0"]).status == 0)
        #expect(try Self.bytes(first) == Self.bytes(zero), "first is 0")
        #expect(WrittenAnimation(contentsOf: zero) == nil)
        #expect(try Self.bytes(still) != Self.bytes(zero), "another frame, another picture")

        let past = dir.appendingPathComponent("past-" + name)
        let refused = try runHexMask([input, past.path, "--frame", String(animation.frames)])
        #expect(refused.status == 1)
        #expect(refused.standardError.hasPrefix("hexmask: \(input): no frame \(animation.frames)"))
        #expect(refused.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: past.path))
      }
    }
  }

  @Test func aStillOutputOfAnAnimationNamesFrameAndAMaskDoesNot() throws {
    try withTemporaryFolder { dir in
      let jpeg = try runHexMask([Self.gif, dir.appendingPathComponent("o.jpg").path])
      #expect(jpeg.status == 0)
      #expect(
        jpeg.standardError.hasPrefix("hexmask: \(Self.gif): warning: an animation: ")
          && jpeg.standardError.hasSuffix(" (--frame N picks another)\n"),
        "\(jpeg.standardError)")
      let palette = try runHexMask(
        [Self.gif, dir.appendingPathComponent("p.png").path, "--colors", "16"])
      #expect(palette.standardError.hasSuffix(" (--frame N picks another)\n"))
      let chosen = try runHexMask(
        [Self.gif, dir.appendingPathComponent("f.jpg").path, "--frame", "0"])
      #expect(chosen.status == 0 && chosen.standardError.isEmpty, "\(chosen.standardError)")
      let mask = try runHexMask(
        [Self.gif, dir.appendingPathComponent("m.png").path, "--mask-only"])
      // Every frame has the same mask: nothing to warn about.
      #expect(mask.status == 0 && mask.standardError.isEmpty, "\(mask.standardError)")
      let quiet = try runHexMask([Self.gif, dir.appendingPathComponent("q.jpg").path, "-q"])
      #expect(quiet.status == 0 && quiet.standardError.isEmpty)
    }
  }

  /// `--svg` draws the shape, which is the same for every frame: no frame is chosen, nothing
  /// is said, and the picture still moves.
  @Test func svgOfAnAnimationIsTheShapeAlone() throws {
    try withTemporaryFolder { dir in
      let svg = dir.appendingPathComponent("a.svg")
      let out = dir.appendingPathComponent("a.webp")
      let run = try runHexMask([Self.gif, out.path, "--size", "48", "--svg", svg.path])
      #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
      #expect(WrittenAnimation(contentsOf: out) != nil)
      let alone = dir.appendingPathComponent("alone.svg")
      #expect(try runHexMask(["--size", "48", "--svg", alone.path]).status == 0)
      #expect(try Self.bytes(svg) == Self.bytes(alone))
      let still = dir.appendingPathComponent("still.svg")
      let jpeg = try runHexMask(
        [Self.gif, dir.appendingPathComponent("a.jpg").path, "--size", "48", "--svg", still.path])
      #expect(jpeg.status == 0)
      #expect(try Self.bytes(still) == Self.bytes(alone))
    }
  }

  /// A folder with a GIF, an APNG, an animated WebP and a photo: the animations are found,
  /// move as PNGs, and their rows say what the files hold.
  @Test func aBatchFindsAnimationsAndReportsTheirFrames() throws {
    try withTemporaryFolder { dir in
      let photos = dir.appendingPathComponent("in").path
      try makeTree(
        photos,
        copies: ["a.gif": Self.gif, "b.png": Self.apng, "c.webp": Self.webp, "d.jpg": photoFixture])
      let out = dir.appendingPathComponent("out").path
      for format in ["png", "webp"] {
        let run = try runHexMask(
          [photos, "--out-dir", out, "--size", "24", "--json", "--verbose", "--format", format])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = try Self.rows(run.standardOutput)
        #expect(rows.count == 4)
        for row in rows {
          let output = try #require(row["output"] as? String)
          let written = WrittenAnimation(contentsOf: URL(fileURLWithPath: output))
          guard let written else {
            #expect(output.hasSuffix("/d.\(format)"), "only the photo is still: \(output)")
            #expect(row["frames"] == nil && row["duration_ms"] == nil && row["loop"] == nil)
            continue
          }
          #expect(row["frames"] as? Int == written.frames, "\(output)")
          #expect(row["duration_ms"] as? Int == written.milliseconds, "\(output)")
          #expect(row["loop"] as? Int == written.plays, "\(output)")
          let keys = run.standardOutput.split(separator: "\n").first {
            $0.contains(#""output":"\#(output)""#)
          }
          #expect(keys?.hasSuffix(#","loop":\#(written.plays)}"#) == true, "new keys come last")
          let plays =
            written.plays == 0
            ? "plays forever" : written.plays == 1 ? "plays once" : "plays \(written.plays) times"
          #expect(
            run.standardError.contains(
              "\(written.frames) frames, \(Self.seconds(written.milliseconds)), \(plays)"),
            "\(run.standardError)")
        }
      }
    }
  }

  static func seconds(_ milliseconds: Int) -> String {
    let hundredths = (milliseconds + 5) / 10
    return "\(hundredths / 100)." + String(format: "%02d", hundredths % 100) + " s"
  }

  /// `--frame` makes the bytes: a rerun with another one rebuilds, the same one skips.
  @Test func aRerunFollowsFrame() throws {
    try withTemporaryFolder { dir in
      let photos = dir.appendingPathComponent("in").path
      try makeTree(photos, copies: ["a.gif": Self.gif])
      let out = dir.appendingPathComponent("out").path
      func status(_ options: [String]) throws -> String? {
        let run = try runHexMask([photos, "--out-dir", out, "--size", "24", "--json"] + options)
        #expect(run.status == 0, "\(run.standardError)")
        let row = try Self.rows(run.standardOutput).first
        return (row?["reason"] as? String) ?? (row?["status"] as? String)
      }
      #expect(try status([]) == "new")
      #expect(try status([]) == "skipped")
      #expect(try status(["--frame", "2"]) == "changed")
      #expect(try status(["--frame", "2"]) == "skipped")
      #expect(try status(["--frame", "3"]) == "changed")
      #expect(try status(["--frame", "0"]) == "changed", "a still, where the PNG moved")
      #expect(try status(["--frame", "first"]) == "skipped")
      #expect(try status([]) == "changed")
      #expect(try status(["--max-frames", "100"]) == "skipped", "a limit is no recipe")
      // A JPEG shows the first frame anyway.
      #expect(try status(["--format", "jpeg"]) == "new")
      #expect(try status(["--format", "jpeg", "--frame", "0"]) == "skipped")
    }
  }

  /// An animated output hexmask made is its own to replace, record or not; one another
  /// program made is not.
  @Test(arguments: ["png", "webp"])
  func aRerunReplacesOnlyTheAnimationsHexMaskMade(format: String) throws {
    try withTemporaryFolder { dir in
      let photos = dir.appendingPathComponent("in").path
      try makeTree(photos, copies: ["a.gif": Self.gif, "b.gif": Self.gif])
      let out = dir.appendingPathComponent("out")
      let arguments = [photos, "--out-dir", out.path, "--format", format, "-q"]
      #expect(try runHexMask(arguments).status == 0)
      let mine = out.appendingPathComponent("a.\(format)")
      #expect(WrittenAnimation(contentsOf: mine) != nil)
      // Without the records only the mark tells hexmask's outputs from others.
      try FileManager.default.removeItem(at: out.appendingPathComponent(".hexmask"))
      let stranger = out.appendingPathComponent("b.\(format)")
      let theirs = format == "png" ? Self.apng : Self.webp
      try FileManager.default.removeItem(at: stranger)
      try FileManager.default.copyItem(atPath: theirs, toPath: stranger.path)
      let rerun = try runHexMask(arguments.dropLast() + ["--json"])
      #expect(rerun.status == 1)
      let rows = try Self.rows(rerun.standardOutput)
      #expect(rows.map { $0["status"] as? String } == ["written", "failed"])
      #expect(
        rerun.standardError.hasPrefix(
          "hexmask: \(stranger.path): exists and was not made by hexmask ("),
        "\(rerun.standardError)")
      #expect(try Self.bytes(stranger) == [UInt8](Data(contentsOf: URL(fileURLWithPath: theirs))))
      #expect(WrittenAnimation(contentsOf: mine) != nil)
    }
  }

  /// libwebpmux puts the mark after the frames: a long animation is still recognised.
  @Test func theMarkIsFoundAfterThousandsOfFrames() throws {
    try withTemporaryFolder { dir in
      let input = dir.appendingPathComponent("long.gif")
      try Data(tinyGIF(frames: 5000)).write(to: input)
      let output = dir.appendingPathComponent("long.webp")
      let run = try runHexMask([
        input.path, output.path, "--lossless", "--size", "16", "--line", "0",
      ])
      #expect(run.status == 0, "\(run.standardError)")
      #expect(WrittenAnimation(contentsOf: output)?.frames == 5000)
      let again = try runHexMask([input.path, output.path, "--lossless", "--size", "16"])
      #expect(again.status == 0, "replaced as hexmask's own: \(again.standardError)")
    }
  }
}
