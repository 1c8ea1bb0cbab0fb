import Foundation
import TestSupport
import Testing

/// `--max-frames` bounds the frames a render reads, alike for GIF, APNG and WebP: a still
/// output reads the frames up to its own and is never refused for the frames after it
/// (whether a header says how many, as APNG's and WebP's do, or not, as a GIF's does);
/// an animated output, `--strict` and a `--frame` past the limit are.
@Suite struct MaxFramesTests {
  static let files = [
    "animation/photo-local-palettes.gif", "animation/apng-apngasm.png",
    "animation/webp-gif2webp-forever.webp",
  ]

  @Test(
    arguments: files,
    [
      ("jpg", [String](), true), ("png", ["--colors", "16"], true), ("avif", [], true),
      ("png", ["--frame", "0"], true), ("webp", [], false), ("png", [], false),
      ("jpg", ["--strict"], false), ("jpg", ["--frame", "1"], false),
    ])
  func aStillReadsOnlyItsFrames(file: String, output: (String, [String], Bool)) throws {
    let (format, options, renders) = output
    try withTemporaryFolder { dir in
      let path = dir.appendingPathComponent("o.\(format)").path
      let run = try runHexMask([Fixtures.path(file), path, "--max-frames", "1"] + options)
      if renders {
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: path))
      } else {
        #expect(run.status == 1)
        // A frame asked for past the limit is refused as that; the others count the frames.
        let reason =
          options.contains("--frame")
          ? "frame 1 is past the limit of 1 frame (the first is 0)"
          : "more frames than the limit of 1"
        #expect(
          run.standardError == "hexmask: \(Fixtures.path(file)): \(reason) (--max-frames)\n")
        #expect(!FileManager.default.fileExists(atPath: path))
      }
    }
  }
}
