import HexMask
import Testing

@testable import HexMaskCLI

/// Options given for an output they do nothing for are pointed out once.
@Suite struct IneffectiveOptionTests {
  static let cases: [([String], [String])] = [
    (["in.jpg", "out.png", "--quality", "80"], ["--quality has no effect on PNG output"]),
    (["in.jpg", "out.png", "--quality", "90"], ["--quality has no effect on PNG output"]),
    (["in.jpg", "out.png", "--compression", "small"], []),
    (["in.jpg", "out.jpg", "--quality", "80"], []),
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
    // --format decides over the name.
    (["in.jpg", "out.png", "--format", "jpg", "--quality", "80"], []),
    (["in.jpg", "-", "--quality", "80"], ["--quality has no effect on PNG output"]),
    // A batch writes PNG unless --format says otherwise.
    (["photos", "--out-dir", "o", "--quality", "80"], ["--quality has no effect on PNG output"]),
    (["photos", "--out-dir", "o", "--format", "webp", "--quality", "80"], []),
    (
      ["--mask-only", "--size", "64", "m.png", "--quality", "5"],
      ["--quality has no effect on PNG output"]
    ),
    // Nothing is said when nothing is written as a picture, or the render refuses the job.
    (["--svg", "s.svg", "--size", "64", "--quality", "5"], []),
    (["in.jpg", "out.gif", "--quality", "80"], []),
    (["--mask-only", "in.jpg", "m.jpg", "--quality", "5"], []),
  ]

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

  @Test func quietKeepsWarningsBack() {
    #expect(standardError(of: ["a.jpg", "--out-dir", "o", "--quality", "80", "-q"]).isEmpty)
  }
}
