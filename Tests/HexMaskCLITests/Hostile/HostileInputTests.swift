import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

/// Damaged and hostile files: every one gets a one-line error or an image, never a crash, a
/// hang or a file left behind.
@Suite(.tags(.slow, .endToEnd), .outsideTheFastLane) struct HostileInputTests {
  /// Small, varied seeds for mutation: plain, interlaced, palette+tRNS PNGs; baseline,
  /// progressive, arithmetic-coded and restart-marker JPEGs; and animations: a GIF with
  /// every disposal, transparency and an interlaced frame, an APNG with dispose and blend
  /// ops, and a lossy animated WebP with alpha and frames smaller than its canvas.
  static let seeds = [
    "pngsuite/basn2c08.png", "pngsuite/basi0g08.png", "pngsuite/tbbn3p08.png",
    "pngsuite/basn6a16.png", "jpeg/testorig.jpg", "jpeg/jpg-progressive.jpg",
    "jpeg/testimgari.jpg", "jpeg/restarts.jpg", "animation/mixed-disposal.gif",
    "animation/apng-dispose-blend.png", "animation/webp-gif2webp-lossy.webp",
    "jxl/lossy.jxl", "jxl/animation.jxl",
  ]

  /// The bundled files to sweep: the corrupt ones, PngSuite's `x*` and the damaged JPEGs.
  static var corruptFixtures: [String] {
    let files = ["corrupt", "pngsuite", "jpeg"].flatMap { folder in
      let path = Fixtures.path(folder)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return names.filter { name in
        (folder == "corrupt" && !name.hasSuffix(".txt"))
          || (folder == "pngsuite" && name.hasPrefix("x"))
          || (folder == "jpeg" && (name.contains("truncated") || name.contains("corrupt")))
      }.map { "\(path)/\($0)" }
    }
    return files.sorted()
  }

  @Test func corruptFixturesFailCleanlyOrDecode() throws {
    let files = Self.corruptFixtures
    #expect(files.count >= 10)
    try Self.sweep(files, "corrupt fixtures")
  }

  /// The shared corpus's `corrupt/` folder, when it is there.
  @Test(.enabled(if: SharedCorpus.has("corrupt")))
  func corruptCorpusFilesFailCleanlyOrDecode() throws {
    let folder = SharedCorpus.path("corrupt")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { !$0.hasSuffix(".txt") }.sorted().map { "\(folder)/\($0)" }
    #expect(!files.isEmpty)
    try Self.sweep(files, "corrupt corpus")
  }

  /// Each of `files` through the binary: a one-line error and no file left, or an image.
  static func sweep(_ files: [String], _ label: String) throws {
    var refused = 0
    for file in files {
      try withTemporaryFolder { (dir: URL) throws in
        let output = dir.appendingPathComponent("out.png").path
        let run = try runHexMask([file, output], timeout: 5)
        #expect(
          !run.killedBySignal && (run.status == 0 || run.status == 1),
          "\(file): status \(run.status)")
        if run.status == 1 {
          refused += 1
          #expect(run.standardError.hasPrefix("hexmask: \(file): "), "\(run.standardError)")
          #expect(run.standardError.filter { $0 == "\n" }.count == 1, "\(run.standardError)")
          #expect(try filesIn(dir).isEmpty, "\(file) left files")
        }
      }
    }
    print(
      "\(label) sweep: \(files.count) files, \(refused) refused, \(files.count - refused) decoded")
  }

  /// Thousands of seeded mutations through the library, in process: a crash here takes the
  /// test run down, so it cannot go unnoticed.
  @Test func mutatedFilesNeverCrashOrLeaveFiles() throws {
    var random = SplitMix64(seed: 0x6865_786D_6173_6B)
    var tried = 0
    var written = 0
    try withTemporaryFolder { (dir: URL) throws in
      for seedFile in Self.seeds {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path(seedFile))))
        for round in 0..<300 {
          let mutation = Mutation.allCases[round % Mutation.allCases.count]
          let bytes = mutation.apply(to: original, using: &random)
          let input = dir.appendingPathComponent("in")
          try Data(bytes).write(to: input)
          let output = dir.appendingPathComponent("out.png").path
          do throws(FileFailure) {
            _ = try renderFile(input: input.path, output: output, settings: RenderSettings())
            written += 1
          } catch {
            #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
          }
          try? FileManager.default.removeItem(atPath: output)
          #expect(try filesIn(dir) == ["in"], "\(seedFile) \(mutation) round \(round) left files")
          tried += 1
        }
      }
    }
    print(
      "mutation sweep: \(tried) files tried, \(written) written, \(tried - written) refused, 0 crashes"
    )
    #expect(tried == Self.seeds.count * 300)
  }

  /// A smaller share of mutations through the binary: exit status 0 or 1, never a signal,
  /// never more than 5 seconds.
  @Test func mutatedFilesThroughTheBinaryExitCleanly() throws {
    var random = SplitMix64(seed: 42)
    try withTemporaryFolder { (dir: URL) throws in
      for seedFile in Self.seeds {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path(seedFile))))
        for round in 0..<15 {
          let mutation = Mutation.allCases[round % Mutation.allCases.count]
          let input = dir.appendingPathComponent("in")
          try Data(mutation.apply(to: original, using: &random)).write(to: input)
          let output = dir.appendingPathComponent("out.png").path
          let run = try runHexMask([input.path, output], timeout: 5)
          #expect(
            !run.killedBySignal && (run.status == 0 || run.status == 1),
            "\(seedFile) \(mutation) \(round): \(run.status)")
          if run.status == 1 { #expect(try filesIn(dir) == ["in"]) }
          try? FileManager.default.removeItem(atPath: output)
        }
      }
    }
  }

  /// Each byte of a HEIC's `hvcC` box (its HEVC parameter sets) zeroed in turn, through the
  /// binary: libde265 prints its own complaints ("SPS error: CB alignment") for some of them,
  /// yet a refusal is still exactly hexmask's one line.
  @Test func damagedHEVCParametersGetOneLineEach() throws {
    let original = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: Fixtures.path("heif/rocket.heic"))))
    let tag = Array("hvcC".utf8)
    let at = try #require(
      original.indices.dropLast(3).first { Array(original[$0..<$0 + 4]) == tag })
    let box = (at - 4)..<(at - 4 + Int(original[at - 1]))
    #expect(box.count > 100)
    var refused = 0
    try withTemporaryFolder { (dir: URL) throws in
      for offset in box.dropFirst(8) where original[offset] != 0 {
        var bytes = original
        bytes[offset] = 0
        let input = dir.appendingPathComponent("in.heic")
        try Data(bytes).write(to: input)
        let output = dir.appendingPathComponent("out.png").path
        let run = try runHexMask([input.path, output], timeout: 5)
        #expect(!run.killedBySignal && (run.status == 0 || run.status == 1), "byte \(offset)")
        if run.status == 1 {
          refused += 1
          #expect(run.standardError.hasPrefix("hexmask: \(input.path): "), "byte \(offset)")
          #expect(
            run.standardError.filter { $0 == "\n" }.count == 1,
            "byte \(offset): \(run.standardError)")
        }
        try? FileManager.default.removeItem(atPath: output)
      }
    }
    #expect(refused > 0)
  }
}
