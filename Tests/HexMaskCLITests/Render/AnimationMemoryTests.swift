import Foundation
import TestSupport
import Testing

/// A long, large animation streams: frames are decoded, resized and encoded one at a time,
/// so a 300-frame 1000 × 1000 GIF (1.2 GB of RGBA if held whole) becomes a 256 px animated
/// WebP in a small, bounded amount of memory.
@Suite(.tags(.slow, .endToEnd), .outsideTheFastLane) struct AnimationMemoryTests {
  static let frames = 300
  static let side = 1000
  /// Below 100 MB (ru_maxrss counts KiB).
  static let limitKiB = 100_000_000 / 1024

  /// Squares of 40 px in a palette ramp, moving 3 px to the right and shifting colour each
  /// frame: every frame differs from the last everywhere, so every one is really decoded,
  /// resized and encoded, and LZW still packs it (about 20 MB for the file).
  static func pixel(_ frame: Int, _ x: Int, _ y: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: (x + 3 * frame) / 40 + (y / 40) * 7 + frame)
  }

  static let palette: [(UInt8, UInt8, UInt8)] = (0..<256).map { index in
    let value = UInt8(index)
    return (value, 255 &- value, value &* 7)
  }

  /// The number of ANMF chunks (frames) of an animated WebP, from its RIFF chunks.
  static func webPFrames(_ bytes: [UInt8]) -> Int {
    var count = 0
    var offset = 12
    while offset + 8 <= bytes.count {
      let kind = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let length = bytes[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
      if kind == "ANMF" { count += 1 }
      offset += 8 + length + (length & 1)
    }
    return count
  }

  @Test func aLongLargeGIFBecomesAnAnimatedWebPInUnder100MB() throws {
    try withTemporaryFolder { dir in
      let input = dir.appendingPathComponent("long.gif").path
      try GIFWriting.write(
        to: input, width: Self.side, height: Self.side, frames: Self.frames,
        palette: Self.palette, pixel: Self.pixel)
      let output = dir.appendingPathComponent("avatar.webp").path
      let run = try runProcess(
        try hexmaskExecutable(named: "hexmask-peak"),
        [try hexmaskExecutable().path, input, output, "--size", "256"], timeout: 600)
      #expect(run.status == 0, "\(run.standardError)")
      let peakKiB = try #require(Int(run.standardOutput.split(separator: "\n").last ?? ""))
      print("a \(Self.frames)-frame \(Self.side)² GIF → 256 px animated WebP: peak \(peakKiB) KiB")
      #expect(peakKiB > 0 && peakKiB < Self.limitKiB, "peak \(peakKiB) KiB")
      // All the frames, or the bound would mean nothing: a still would be small too.
      let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
      #expect(Self.webPFrames(written) == Self.frames)
    }
  }
}
