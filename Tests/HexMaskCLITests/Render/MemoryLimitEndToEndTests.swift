import Foundation
import TestSupport
import Testing

/// `--memory-limit` end to end: usage errors, the one-line failure naming the limit, a
/// batch taking turns, and a tiny WebP claiming a huge picture.
@Suite(.tags(.endToEnd)) struct MemoryLimitEndToEndTests {
  @Test(arguments: ["0", "-5", "1e308", "nan", "garbage"])
  func badValuesAreUsageErrors(value: String) throws {
    let run = try runHexMask([
      Fixtures.path("heif/rocket-alpha.heic"), "/dev/null", "--memory-limit", value,
    ])
    #expect(run.status == 2)
    #expect(run.standardError.hasPrefix("hexmask: invalid value '\(value)' for '--memory-limit'"))
  }

  @Test func aPictureLargerThanTheLimitFailsInOneLineNamingIt() throws {
    try withTemporaryFolder { dir in
      let input = Fixtures.path("heif/rocket-alpha.heic")
      let output = dir.appendingPathComponent("out.png").path
      let run = try runHexMask([input, output, "--memory-limit", "100K"])
      #expect(run.status == 1)
      #expect(
        run.standardError
          == "hexmask: \(input): needs 196 KiB to decode, more than the memory limit of "
          + "100 KiB (--memory-limit)\n")
      #expect(try filesIn(dir).isEmpty)
    }
  }

  /// Room for one picture at a time (one needs about 196 KiB or 345 KiB): the four jobs take
  /// turns, and all are written.
  @Test func aBatchWhosePicturesFitOneAtATimeWritesThemAll() throws {
    try withTemporaryFolder { dir in
      let inputs = (0..<6).map {
        Fixtures.path(["heif/rocket-alpha.heic", "heif/rocket-10bit.heic"][$0 % 2])
      }
      var arguments: [String] = []
      for (index, input) in inputs.enumerated() {
        let copy = dir.appendingPathComponent("\(index).heic")
        try FileManager.default.copyItem(atPath: input, toPath: copy.path)
        arguments.append(copy.path)
      }
      let out = dir.appendingPathComponent("out").path
      let run = try runHexMask(arguments + ["--out-dir", out, "-j", "4", "--memory-limit", "360K"])
      #expect(run.status == 0, "\(run.standardError)")
      let written = try FileManager.default.contentsOfDirectory(atPath: out)
      #expect(written.filter { $0.hasSuffix(".png") }.count == 6, "\(written)")
    }
  }

  /// A 68-byte WebP claiming 16383 × 16383 px: with --size only a small window is asked
  /// for, so even a 1 MB limit lets it reach the truncation; decoding it at its own size
  /// would need 1 GB, which the same limit refuses before allocating anything.
  @Test func aTinyWebPClaimingAHugePictureFailsWithLittleMemory() throws {
    try withTemporaryFolder { dir in
      let file = dir.appendingPathComponent("huge.webp")
      try Data(hugeTruncatedWebP()).write(to: file)
      let output = dir.appendingPathComponent("out.png").path
      let scaled = try runHexMask([file.path, output, "--size", "64", "--memory-limit", "1M"])
      #expect(scaled.status == 1)
      #expect(
        scaled.standardError == "hexmask: \(file.path): truncated WebP: unexpected end of file\n")
      let whole = try runHexMask([file.path, output, "--memory-limit", "1M"])
      #expect(whole.status == 1)
      #expect(
        whole.standardError.contains("needs 1 GiB to decode, more than the memory limit of 1 MiB"))
      #expect(try filesIn(dir) == ["huge.webp"])
    }
  }
}

/// 68 bytes of lossy WebP whose header claims 16383 × 16383 and whose data ends at once.
private func hugeTruncatedWebP() -> [UInt8] {
  func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
  let tag = UInt32(1000 << 5 | 1 << 4)  // a shown key frame, first partition 1000 bytes
  let chunk =
    Array("VP8 ".utf8) + le32(100_000) + le32(tag).prefix(3) + [0x9D, 0x01, 0x2A]
    + [0xFF, 0x3F, 0xFF, 0x3F]
  let file = Array("RIFF".utf8) + le32(100_012) + Array("WEBP".utf8) + chunk
  return Array((file + [UInt8](repeating: 0, count: 68)).prefix(68))
}
