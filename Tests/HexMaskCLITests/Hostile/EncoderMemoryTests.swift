import Foundation
import HexMask
import TestSupport
import Testing

/// Every output kind is priced before it runs, by measurement, and together with its
/// decode: under the limit its own refusal names, the render's peak over a streamed
/// render's (the process and its rows, which the budget does not count) stays within it. Noise is the worst case for a palette and for lossless encoders (every colour
/// differs); a photo would take less.
@Suite struct EncoderMemoryTests {
  static let side = 1200

  static let kinds: [(String, [String])] = [
    ("png", ["--colors", "256"]), ("png", ["--colors", "256", "--dither"]), ("webp", []),
    ("webp", ["--lossless"]), ("avif", []), ("avif", ["--lossless"]),
  ]

  /// A `side`² PNG of pseudo-random colours, written by hexmask's own PNG encoder.
  static func noise(at path: String, side: Int) throws {
    let file = try #require(fopen(path, "wb"))
    defer { fclose(file) }
    let writer = try PNGStreamEncoder(
      file: file, width: side, height: side, compression: .fast, mark: false)
    var state: UInt32 = 0x9E37_79B9
    var row = [UInt8](repeating: 255, count: side * 4)
    for _ in 0..<side {
      for index in row.indices where index % 4 != 3 {
        state = state &* 1_664_525 &+ 1_013_904_223
        row[index] = UInt8(truncatingIfNeeded: state >> 24)
      }
      try row.withUnsafeBufferPointer { rowBytes in try writer.writeRow(rowBytes) }
    }
    try writer.finish()
  }

  /// Peak resident KiB of one run of hexmask with `arguments`, and its status.
  static func peak(_ arguments: [String]) throws -> (status: Int32, kib: Int, error: String) {
    let run = try runProcess(
      try hexmaskExecutable(named: "hexmask-peak"), [try hexmaskExecutable().path] + arguments,
      timeout: 300)
    let kib = Int(run.standardOutput.split(separator: "\n").last ?? "") ?? 0
    return (run.status, kib, run.standardError)
  }

  /// What a refusal under a 1 KiB limit says the render needs, in KiB, rounded up.
  static func needs(_ message: String) throws -> Int {
    let words = message.split(separator: " ").drop { $0 != "needs" }.dropFirst()
    let amount = try #require(Double(words.first ?? ""), "\(message)")
    let unit: Double =
      switch words.dropFirst().first {
      case "KiB": 1
      case "MiB": 1024
      case "GiB": 1024 * 1024
      default: 0
      }
    #expect(unit > 0, "\(message)")
    // The message gives three digits: 1 % more admits the need itself.
    return Int((amount * unit * 1.01).rounded(.up)) + 1
  }

  @Test(
    "an output's peak stays within the limit its own need names",
    arguments: kinds.indices)
  func anOutputStaysWithinTheLimitItsNeedNames(_ kind: Int) throws {
    let (format, options) = Self.kinds[kind]
    try withTemporaryFolder { dir in
      let input = dir.appendingPathComponent("noise.png").path
      try Self.noise(at: input, side: Self.side)
      let output = dir.appendingPathComponent("o.\(format)").path
      let streamed = try Self.peak([input, dir.appendingPathComponent("rows.png").path])
      #expect(streamed.status == 0)
      let refused = try Self.peak([input, output] + options + ["--memory-limit", "1K"])
      #expect(refused.status != 0)
      #expect(refused.error.split(separator: "\n").count == 1, "\(refused.error)")
      #expect(refused.error.contains("to decode and encode") || refused.error.contains("to encode"))
      let limit = try Self.needs(refused.error)
      let run = try Self.peak([input, output] + options + ["--memory-limit", "\(limit)K"])
      #expect(run.status == 0, "\(run.error)")
      let budgeted = run.kib - streamed.kib
      #expect(
        budgeted <= limit, "\(format) \(options): \(budgeted) KiB over rows, limit \(limit) KiB")
    }
  }
}
