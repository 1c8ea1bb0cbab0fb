import Foundation
import TestSupport
import Testing

/// One road for every picture, through the built binary: the same input gives the same
/// bytes from a file, from a pipe, in a batch of one and with any `-j`; a turned animation
/// is turned on every frame (as Chromium turns an APNG's `eXIf`) and a WebP's EXIF is
/// ignored (as Chromium ignores it); every frame reader is held to `--memory-limit`.
@Suite(.tags(.endToEnd)) struct OneRoadEndToEndTests {
  /// Inputs made by other tools, two of them stored turned.
  static let inputs = [
    "animation/apng-exif-6.png", "animation/apng-apngasm-exif-8.png",
    "animation/webp-exif-6.webp", "animation/mixed-disposal.gif", "exif/Landscape_6.jpg",
  ]

  static func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// File to file, standard input to standard output, a batch of one with `-j 1` and
  /// `-j 2`: the same bytes, PNG (APNG) and WebP alike.
  @Test(arguments: inputs)
  func everyPathGivesTheSameBytes(_ name: String) throws {
    let input = Fixtures.path(name)
    guard FileManager.default.fileExists(atPath: input) else {
      Issue.record("missing fixture \(name)")
      return
    }
    try withTemporaryFolder { dir in
      for format in ["png", "webp"] {
        let file = dir.appendingPathComponent("file.\(format)").path
        let direct = try runHexMask([input, file, "--size", "40"])
        #expect(direct.status == 0, "\(name) \(format): \(direct.standardError)")
        let expected = try Self.bytes(file)
        let piped = try runHexMask(
          ["-", "-", "--size", "40", "--format", format],
          standardInput: Data(try Self.bytes(input)))
        #expect(piped.status == 0, "\(name) \(format) pipe: \(piped.standardError)")
        #expect([UInt8](piped.standardOutputData) == expected, "\(name) \(format) pipe")
        for jobs in ["1", "2"] {
          let out = dir.appendingPathComponent("batch-\(format)-\(jobs)")
          let batch = try runHexMask(
            [input, "--out-dir", out.path, "--size", "40", "--format", format, "-j", jobs])
          #expect(batch.status == 0, "\(name) \(format) -j \(jobs): \(batch.standardError)")
          let made = try FileManager.default.contentsOfDirectory(atPath: out.path)
            .filter { !$0.hasPrefix(".") }
          #expect(made.count == 1, "\(made)")
          if let first = made.first {
            #expect(try Self.bytes(out.appendingPathComponent(first).path) == expected)
          }
        }
      }
    }
  }

  /// A turned APNG moves, every frame turned: its JSON says the upright size, and the
  /// frames are the `--frame K` stills.
  @Test func aTurnedAPNGMovesUpright() throws {
    let input = Fixtures.path("animation/apng-exif-6.png")
    try withTemporaryFolder { dir in
      let run = try runHexMask([input, "--out-dir", dir.path, "--size", "20", "--json"])
      #expect(run.status == 0, "\(run.standardError)")
      // Stored 32 × 20, upright 20 × 32: the centred square is 6 rows down, not across.
      #expect(
        run.standardOutput.contains(#""crop":{"x":0,"y":6,"side":20},"frames":6"#),
        "\(run.standardOutput)")
      let moving = dir.appendingPathComponent("apng-exif-6.png")
      let animation = try #require(WrittenAnimation(contentsOf: moving))
      #expect(animation.frames == 6)
      let last = dir.appendingPathComponent("last.png")
      #expect(try runHexMask([input, last.path, "--size", "20", "--frame", "5"]).status == 0)
      #expect(WrittenAnimation(contentsOf: last) == nil)
    }
  }

  /// A WebP's EXIF chunk turns nothing, still or animated, as in Chromium.
  @Test func aWebPsEXIFIsIgnored() throws {
    let tagged = Fixtures.path("animation/webp-exif-6.webp")
    let plain = Fixtures.path("animation/webp-img2webp-alpha.webp")
    try withTemporaryFolder { (dir) throws in
      for format in ["png", "webp"] {
        let a = dir.appendingPathComponent("tagged.\(format)").path
        let b = dir.appendingPathComponent("plain.\(format)").path
        #expect(try runHexMask([tagged, a, "--size", "24"]).status == 0)
        #expect(try runHexMask([plain, b, "--size", "24"]).status == 0)
        #expect(try Self.bytes(a) == Self.bytes(b), "\(format)")
      }
    }
  }

  /// Every animated reader is held to the memory limit: a 1500 × 1500 APNG, WebP and GIF
  /// of several frames are refused under 1 MiB in one line naming the option, and none
  /// leaves an output.
  @Test func everyAnimationIsHeldToTheMemoryLimit() throws {
    try withTemporaryFolder { dir in
      let gif = Fixtures.path("animation/mixed-disposal.gif")
      var large: [String] = []
      for format in ["png", "webp"] {
        let path = dir.appendingPathComponent("large.\(format)").path
        let made = try runHexMask(
          [gif, path, "--size", "1500"] + (format == "webp" ? ["--lossless"] : []))
        #expect(made.status == 0, "\(made.standardError)")
        large.append(path)
      }
      for input in large {
        for output in ["o.png", "o.webp", "o.jpg"] {
          let target = dir.appendingPathComponent(output).path
          let run = try runHexMask([input, target, "--memory-limit", "1M", "--size", "32"])
          #expect(run.status == 1, "\(input) → \(output)")
          #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
          #expect(run.standardError.contains("--memory-limit"), "\(run.standardError)")
          #expect(!FileManager.default.fileExists(atPath: target))
        }
      }
    }
  }
}
