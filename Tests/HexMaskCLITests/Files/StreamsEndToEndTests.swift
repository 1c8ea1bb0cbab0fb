import Foundation
import TestSupport
import Testing

/// Standard input and output, warnings, `--strict` and `--max-pixels`, through the binary.
@Suite(.tags(.endToEnd)) struct StreamsEndToEndTests {
  @Test func pipeInPipeOutGivesTheSameBytesAsFiles() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let file = dir.appendingPathComponent("file.png")
      #expect(try runHexMask([Fixtures.path("photos/rocket.jpg"), file.path]).status == 0)
      let photo = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/rocket.jpg")))
      let piped = try runHexMask(["-", "-"], standardInput: photo)
      #expect(piped.status == 0, "\(piped.standardError)")
      #expect(piped.standardError.isEmpty)
      #expect(piped.standardOutputData == (try Data(contentsOf: file)))
    }
  }

  @Test func failureWritesNothingToStandardOutput() throws {
    let piped = try runHexMask(["-", "-"], standardInput: Data("not an image".utf8))
    #expect(piped.status == 1)
    #expect(piped.standardOutputData.isEmpty)
    #expect(
      piped.standardError
        == "hexmask: <stdin>: not an image file: hexmask reads PNG, JPEG, GIF, HEIC, AVIF, WebP and JPEG XL\n"
    )
  }

  @Test func truncatedJPEGIsWrittenWithAWarning() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let input = Fixtures.path("jpeg/truncated_jpeg.jpg")
      let output = dir.appendingPathComponent("out.png").path
      let run = try runHexMask([input, output])
      #expect(run.status == 0)
      #expect(run.standardError.hasPrefix("hexmask: \(input): warning: "))
      #expect(FileManager.default.fileExists(atPath: output))
    }
  }

  @Test func strictRefusesWhatDecodesOnlyWithWarnings() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let input = Fixtures.path("jpeg/truncated_jpeg.jpg")
      let run = try runHexMask([input, dir.appendingPathComponent("out.png").path, "--strict"])
      #expect(run.status == 1)
      #expect(run.standardError.hasPrefix("hexmask: \(input): "))
      #expect(run.standardError.hasSuffix("(--strict)\n"))
      #expect(try filesIn(dir).isEmpty)
    }
  }

  @Test func maxPixelsIsCheckedBeforeDecoding() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let input = Fixtures.path("photos/rocket.jpg")
      let run = try runHexMask([
        input, dir.appendingPathComponent("o.png").path, "--max-pixels", "1000",
      ])
      #expect(run.status == 1)
      #expect(run.standardError.contains("more than --max-pixels 1000"))
      #expect(try filesIn(dir).isEmpty)
    }
  }

  @Test func aFolderIsNotAnImage() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let run = try runHexMask([dir.path, dir.appendingPathComponent("o.png").path])
      #expect(run.status == 1)
      #expect(run.standardError == "hexmask: \(dir.path): is a folder, not an image\n")
    }
  }
}
