import Foundation
import TestSupport
import Testing

/// Small files whose headers claim pictures a decoder must hold whole (Fixtures/memory,
/// `scripts/memory_bombs.py`): an Adam7 PNG, a progressive JPEG (libjpeg keeps every
/// coefficient) and an EXIF-turned picture take their memory from `--memory-limit` before
/// allocating it, so a bomb is refused in one line, and a batch of them stays small.
@Suite(.tags(.endToEnd)) struct MemoryBombTests {
  /// Each file, and what decoding it at its own size needs.
  static let bombs: [(file: String, needs: String)] = [
    ("memory/interlaced-16383.png", "1 GiB"),  // 72 bytes
    ("memory/progressive-16000.jpg", "732 MiB"),  // 519 bytes
    ("memory/interlaced-8000.png", "244 MiB"),
    ("memory/progressive-8000.jpg", "183 MiB"),
    ("memory/progressive-8000-legit.jpg", "183 MiB"),
  ]

  @Test("a bomb is refused in one line naming its need and the limit", arguments: bombs.indices)
  func refused(_ index: Int) throws {
    let (file, needs) = Self.bombs[index]
    try withTemporaryFolder { dir in
      let input = Fixtures.path(file)
      let run = try runHexMask([
        input, dir.appendingPathComponent("o.png").path, "--memory-limit", "100M",
      ])
      #expect(run.status == 1)
      #expect(
        run.standardError
          == "hexmask: \(input): needs \(needs) to decode, more than the memory limit of 100 MiB "
          + "(--memory-limit)\n")
      #expect(try filesIn(dir).isEmpty)
    }
  }

  /// The four bombs, -j 4, under 100 MB: every one refused, the process's peak below
  /// 200 MB (it was about 4 GB when the budget did not see these decodes).
  @Test func aBatchOfBombsStaysSmall() throws {
    try withTemporaryFolder { dir in
      let inputs = Self.bombs.prefix(4).map { Fixtures.path($0.file) }
      let run = try runProcess(
        try hexmaskExecutable(named: "hexmask-peak"),
        [try hexmaskExecutable().path] + inputs + [
          "--out-dir", dir.appendingPathComponent("o").path, "-j", "4", "--memory-limit", "100M",
        ])
      #expect(run.status == 1)
      let peakKB = try #require(Int(run.standardOutput.split(separator: "\n").last ?? ""))
      #expect(peakKB > 0 && peakKB < 200 << 10, "peak \(peakKB) KB")
      let lines = run.standardError.split(separator: "\n")
      for (input, needs) in zip(inputs, Self.bombs.map(\.needs)) {
        #expect(
          lines.contains(
            "hexmask: \(input): needs \(needs) to decode, more than the memory limit of 100 MiB "
              + "(--memory-limit)"), "\(lines)")
      }
      #expect(lines.last?.hasPrefix("hexmask: 0 written, 0 skipped, 4 failed") == true)
    }
  }

  /// A real 8000 × 8000 progressive JPEG still renders under the default limit (a quarter
  /// of the memory: its coefficients take 183 MB).
  @Test func aLegitimateLargeProgressiveJPEGRendersUnderTheDefaultLimit() throws {
    try withTemporaryFolder { dir in
      let output = dir.appendingPathComponent("o.png").path
      let run = try runHexMask(
        [Fixtures.path("memory/progressive-8000-legit.jpg"), output, "--size", "256"], timeout: 120)
      #expect(run.status == 0, "\(run.standardError)")
      #expect(FileManager.default.fileExists(atPath: output))
    }
  }

  /// Orientation 6 turns the picture through a whole copy: 320 × 480 × 4 bytes (600 KB),
  /// taken from the limit; with --no-rotate the rows stream and nothing is taken.
  @Test func anEXIFTurnTakesItsCopyFromTheLimit() throws {
    try withTemporaryFolder { dir in
      let input = Fixtures.path("faces/detect/exif6-face090.jpg")
      let output = dir.appendingPathComponent("o.png").path
      let turned = try runHexMask([input, output, "--memory-limit", "500K"])
      #expect(turned.status == 1)
      #expect(
        turned.standardError
          == "hexmask: \(input): needs 600 KiB to decode, more than the memory limit of 500 KiB "
          + "(--memory-limit)\n")
      let unturned = try runHexMask([input, output, "--memory-limit", "500K", "--no-rotate"])
      #expect(unturned.status == 0, "\(unturned.standardError)")
      let fits = try runHexMask([input, output, "--memory-limit", "700K", "--force"])
      #expect(fits.status == 0, "\(fits.standardError)")
    }
  }

  /// Room for one whole decode at a time: progressive JPEGs and interlaced PNGs of a -j 4
  /// batch take turns, and all are written.
  @Test func aBatchOfWholeDecodesTakesTurns() throws {
    try withTemporaryFolder { dir in
      var arguments: [String] = []
      for index in 0..<8 {
        let input = Fixtures.path(
          index % 2 == 0 ? "jpeg/jpg-progressive.jpg" : "pngsuite/basi2c08.png")
        let copy = dir.appendingPathComponent("\(index)" + (index % 2 == 0 ? ".jpg" : ".png"))
        try FileManager.default.copyItem(atPath: input, toPath: copy.path)
        arguments.append(copy.path)
      }
      let out = dir.appendingPathComponent("out").path
      // One needs 3 KB (JPEG) or 4.3 KB (PNG): two never fit together.
      let run = try runHexMask(arguments + ["--out-dir", out, "-j", "4", "--memory-limit", "6K"])
      #expect(run.status == 0, "\(run.standardError)")
      let written = try FileManager.default.contentsOfDirectory(atPath: out)
      #expect(written.filter { $0.hasSuffix(".png") }.count == 8, "\(written)")
    }
  }

  /// Flat 4000² AVIFs, 4:4:4 (the sampling that needs the most; avifenc -s 10 -y 444, 486
  /// bytes each): decoded under a limit just above hexmask's estimate, the whole process
  /// peaks below that limit (8-bit: 259 MiB under 276 MiB; 10-bit: 453 MiB under 489 MiB).
  /// The estimate was 198 MiB and 336 MiB before, below the peak: the limit did not hold.
  @Test(
    "an AVIF's peak stays under the limit its estimate admits",
    arguments: ["memory/flat-4000-444-8bit.avif", "memory/flat-4000-444-10bit.avif"])
  func anAVIFStaysUnderTheLimitItsEstimateAdmits(_ file: String) throws {
    try withTemporaryFolder { dir in
      let input = Fixtures.path(file)
      let output = dir.appendingPathComponent("o.png").path
      let refused = try runHexMask([input, output, "--size", "256", "--memory-limit", "1M"])
      let needs = refused.standardError.split(separator: " ").drop { $0 != "needs" }.dropFirst()
      #expect(needs.dropFirst().first == "MiB", "\(refused.standardError)")
      let mebibytes = try #require(Double(needs.first ?? ""))
      // The message rounds to the nearest MiB: one more admits the estimate itself.
      let limit = try #require(Int(exactly: mebibytes.rounded(.up))) + 1
      let run = try runProcess(
        try hexmaskExecutable(named: "hexmask-peak"),
        [
          try hexmaskExecutable().path, input, output, "--size", "256", "--memory-limit",
          "\(limit)M",
        ], timeout: 120)
      #expect(run.status == 0, "\(run.standardError)")
      let peakKiB = try #require(Int(run.standardOutput.split(separator: "\n").last ?? ""))
      #expect(peakKiB > 0 && peakKiB < limit << 10, "peak \(peakKiB) KiB, limit \(limit) MiB")
    }
  }
}
