import HexMask
import Testing

@testable import HexMaskCLI

/// Options given for an output they do nothing for are pointed out once.
@Suite struct IneffectiveOptionTests {
  static let cases: [([String], [String])] = [
    (["in.jpg", "out.png", "--quality", "80"], ["--quality has no effect on PNG output"]),
    (["in.jpg", "out.png", "--quality", "90"], ["--quality has no effect on PNG output"]),
    (["in.jpg", "out.png", "--compression", "small"], []),
    (["in.jpg", "out.png", "--dither"], ["--dither has no effect without --colors"]),
    (["in.jpg", "out.jpg", "--dither"], ["--dither has no effect without --colors"]),
    (["in.jpg", "out.png", "--dither", "--colors", "8"], []),
    (
      ["in.jpg", "out.png", "--mask-only", "--dither", "--background", "red"],
      ["--dither has no effect without --colors", "--background has no effect with --mask-only"]
    ),
    (["in.jpg", "out.jpg", "--quality", "80"], []),
    // Every frame of an animation has the same mask; an SVG reads no frame at all.
    (
      ["in.gif", "m.png", "--mask-only", "--frame", "2"], ["--frame has no effect with --mask-only"]
    ),
    (
      ["--mask-only", "--size", "64", "m.png", "--frame", "1"],
      ["--frame has no effect with --mask-only"]
    ),
    (
      ["--svg", "s.svg", "--size", "64", "--frame", "1"],
      ["--frame has no effect when only an SVG is written"]
    ),
    (["in.gif", "out.jpg", "--frame", "2", "--max-frames", "9"], []),
    (
      ["in.jpg", "out.jpg", "--compression", "fast", "--lossless"],
      ["--lossless has no effect on JPEG output", "--compression has no effect on JPEG output"]
    ),
    (["in.jpg", "out.png", "--lossless"], ["--lossless has no effect on PNG output"]),
    (["in.jpg", "out.webp", "--quality", "80"], []),
    (
      ["in.jpg", "out.webp", "--lossless", "--quality", "80"],
      ["--quality has no effect on lossless WebP output"]
    ),
    (["in.jpg", "out.webp", "--compression", "9"], ["--compression has no effect on WebP output"]),
    // AVIF takes --quality and --lossless as WebP does.
    (["in.jpg", "out.avif", "--quality", "80"], []),
    (
      ["in.jpg", "out.avif", "--lossless", "--quality", "80"],
      ["--quality has no effect on lossless AVIF output"]
    ),
    (["in.jpg", "out.avif", "--compression", "9"], ["--compression has no effect on AVIF output"]),
    // --effort is AVIF's alone, lossy or lossless.
    (["in.jpg", "out.avif", "--effort", "2"], []),
    (["in.jpg", "out.avif", "--lossless", "--effort", "9"], []),
    (["in.jpg", "out.webp", "--effort", "2"], ["--effort has no effect on WebP output"]),
    (["in.jpg", "out.png", "--effort", "2"], ["--effort has no effect on PNG output"]),
    (["photos", "--out-dir", "o", "--format", "avif", "--lossless"], []),
    // --format decides over a name that names no format (one that names another is a
    // usage error, see `contradictions`).
    (["in.jpg", "out.img", "--format", "jpg", "--quality", "80"], []),
    (["in.jpg", "-", "--quality", "80"], ["--quality has no effect on PNG output"]),
    // A batch writes PNG unless --format says otherwise.
    (["photos", "--out-dir", "o", "--quality", "80"], ["--quality has no effect on PNG output"]),
    (["photos", "--out-dir", "o", "--format", "webp", "--quality", "80"], []),
    (
      ["--mask-only", "--size", "64", "m.png", "--quality", "5"],
      ["--quality has no effect on PNG output"]
    ),
    // When only an SVG is written, every option of a picture's pixels, crop or encoding is
    // said to do nothing, once each, in the table's order.
    (
      ["--svg", "s.svg", "--size", "64", "--quality", "5"],
      ["--quality has no effect when only an SVG is written"]
    ),
    (
      [
        "--svg", "-", "--size", "64", "--colors", "8", "--dither", "--effort", "3", "--format",
        "avif",
      ],
      [
        "--format has no effect when only an SVG is written",
        "--effort has no effect when only an SVG is written",
        "--colors has no effect when only an SVG is written",
        "--dither has no effect when only an SVG is written",
      ]
    ),
    (["--svg", "s.svg", "--size", "64", "--border-color", "red", "--sides", "8"], []),
    // Nothing is said when the render refuses the job.
    (["in.jpg", "out.gif", "--quality", "80"], []),
    (["--mask-only", "in.jpg", "m.jpg", "--quality", "5"], []),
    // Options that do nothing whatever the format.
    (["in.jpg", "out.png", "--no-upscale"], ["--no-upscale has no effect without --size"]),
    (["in.jpg", "out.png", "--no-upscale", "--size", "64"], []),
    (
      ["--mask-only", "in.jpg", "m.png", "--background", "red", "--gravity", "north"],
      ["--background has no effect with --mask-only", "--gravity has no effect with --mask-only"]
    ),
    (["in.jpg", "out.png", "--background", "red", "--focus", "0.2,0.2"], []),
    (
      ["in.jpg", "out.png", "--line", "0%", "--border-color", "red"],
      ["--border-color has no effect with --line 0"]
    ),
    (["in.jpg", "out.png", "--line", "1", "--border-color", "red"], []),
    (["a.jpg", "--out-dir", "o", "-0"], ["-0 (--null) has no effect without --files-from"]),
    (["--out-dir", "o", "-0", "--files-from", "list"], []),
    (
      ["a.jpg", "--out-dir", "o", "--out-dir", "p"],
      ["--out-dir 'o' has no effect: a later --out-dir 'p' replaces it"]
    ),
    // A --name ending in .jpg writes JPEGs, which --quality changes.
    (["a.jpg", "--out-dir", "o", "--name", "{name}.jpg", "--quality", "80"], []),
    // The seed layout always takes the top-left square, whatever chooses another.
    (
      ["in.jpg", "out.png", "--layout", "seed", "--gravity", "face"],
      ["--gravity has no effect with --layout seed"]
    ),
    (
      ["photos", "--out-dir", "o", "--layout", "seed", "--focus", "0.2,0.2"],
      ["--focus has no effect with --layout seed"]
    ),
    (["in.jpg", "out.png", "--layout", "seed"], []),
    (
      ["in.jpg", "out.png", "--layout", "seed", "--layout", "centered", "--gravity", "east"],
      ["--layout 'seed' has no effect: a later --layout 'centered' replaces it"]
    ),
    // Every option holds one value: a repeated one says which stands.
    (
      ["in.jpg", "out.png", "--size", "64", "--size=128", "--corner", "3", "--corner", "3"],
      ["--size '64' has no effect: a later --size '128' replaces it"]
    ),
    (["in.jpg", "out.png", "--force", "--force", "-q", "-q"], []),
    // A mask says it once, for the mask.
    (
      ["--mask-only", "in.jpg", "m.png", "--layout", "seed", "--gravity", "north"],
      ["--gravity has no effect with --mask-only"]
    ),
  ]

  /// Options that contradict each other or OUTPUT's name are usage errors (exit 2).
  static let contradictions: [[String]] = [
    ["in.jpg", "out.png", "--gravity", "north", "--focus", "0.1,0.1"],
    ["in.jpg", "out.jpg", "--format", "png"],
    ["in.jpg", "--out-dir", "o", "--format", "webp", "--name", "{name}.png"],
    ["in.jpg", "--out-dir", "o", "--name", "{dir}/{name}-{size}.gif", "--size", "8,9"],
    ["in.jpg", "out.jpg", "--background", "#ffffff00"],
    ["in.jpg", "--out-dir", "o", "--format", "jpg", "--background", "transparent"],
  ]

  @Test(arguments: contradictions)
  func contradictionsAreUsageErrors(arguments: [String]) {
    let error = #expect(throws: CommandError.self) { try Job(parsing: arguments) }
    guard case .contradiction? = error else {
      Issue.record("\(arguments) is not refused as a contradiction: \(String(describing: error))")
      return
    }
    #expect(error?.exitStatus == 2)
  }

  @Test(arguments: [
    ["in.jpg", "out.img", "--format", "jpeg"], ["in.jpg", "out.JPG", "--format", "jpeg"],
    ["in.jpg", "-", "--format", "webp"], ["in.jpg", "out.webp", "--background", "#ff000080"],
    ["in.jpg", "--out-dir", "o", "--name", "{name}.{ext}"],
  ])
  func agreeingNamesAreFine(arguments: [String]) throws {
    _ = try Job(parsing: arguments)
  }

  @Test(arguments: cases)
  func warningsName(arguments: [String], warnings: [String]) throws {
    #expect(try Job(parsing: arguments).ineffectiveOptionWarnings == warnings)
  }

  /// Runs a batch command line with a batch that does nothing, returning standard error.
  func standardError(of arguments: [String]) -> String {
    var standardError = ""
    _ = HexMaskCLI.run(
      arguments, render: { _, _, _ in [fakeRendered(side: 1, warnings: [])] },
      renderBatch: { _ in }, standardOutput: { _ in }, standardError: { standardError += $0 })
    return standardError
  }

  @Test func aRunWarnsOnceBeforeAnyFile() {
    #expect(
      standardError(of: ["a.jpg", "b.jpg", "--out-dir", "o", "--quality", "80", "--lossless"])
        == "hexmask: warning: --quality has no effect on PNG output\n"
        + "hexmask: warning: --lossless has no effect on PNG output\n")
  }

  /// `--gravity face` with the seed layout says it does nothing, and the run never looks
  /// for the model, which it would not use.
  @Test func seedWarnsForGravityFaceAndNeedsNoModel() {
    for arguments in [["in.jpg", "out.png"], ["in.jpg", "--out-dir", "o"]] {
      var loads = 0
      var standardError = ""
      let status = HexMaskCLI.run(
        arguments + ["--layout", "seed", "--gravity", "face"],
        render: { _, _, _ in [fakeRendered(side: 1, warnings: [])] }, renderBatch: { _ in },
        faceModel: { () throws(CommandError) in
          loads += 1
          throw .noFaceModel
        },
        standardOutput: { _ in }, standardError: { standardError += $0 })
      #expect(status == 0, "\(standardError)")
      #expect(loads == 0)
      #expect(standardError == "hexmask: warning: --gravity has no effect with --layout seed\n")
    }
  }

  @Test func quietKeepsWarningsBack() {
    #expect(standardError(of: ["a.jpg", "--out-dir", "o", "--quality", "80", "-q"]).isEmpty)
  }
}
