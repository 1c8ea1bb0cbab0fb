import Foundation
import HexMask
import Testing

/// No public value may crash the process. `hexmask-value-sweep` sets every
/// numeric public field of `Shape`, `Output` and `Input`, and the size arguments, to
/// non-finite, negative, zero, boundary, huge and `Int.max` values and calls every entry
/// point with each; it runs as a child process, so a trap fails this test instead of
/// ending the runner.
@Suite(.tags(.endToEnd)) struct ValueSweepTests {
  /// What each swept field accepts, written here apart from the library's checks: a value
  /// outside must throw `.invalidValue` naming the field, one inside anything else.
  static let accepts: [String: @Sendable (Double) -> Bool] = [
    "Shape.sides": { (3...64).contains($0) },
    "Shape.corner": { $0.isFinite && $0 >= 0 },
    "Shape.line": { $0.isFinite && $0 >= 0 },
    "Shape.rotation": { $0.isFinite },
    "Output.size": { (1...65_500).contains($0) },
    "Output.crop.focus.x": { (0...1).contains($0) },
    "Output.crop.focus.y": { (0...1).contains($0) },
    "Output.faceSize": { $0 > 0 && $0 <= 1 },
    "Output.JPEG.quality": { (1...100).contains($0) },
    "Output.WebP.quality": { (1...100).contains($0) },
    "Output.AVIF.quality": { (1...100).contains($0) },
    "Output.AVIF.effort": { (0...9).contains($0) },
    "Output.PNG.compression.level": { (0...9).contains($0) },
    "Output.PNG.palette.colors": { (2...256).contains($0) },
    "Output.Mask.compression.level": { (0...9).contains($0) },
    "Output.Mask.palette.colors": { (2...256).contains($0) },
    "Output.threads": { (1...1024).contains($0) },
    "Input.maxPixels": { $0 >= 1 },
    "Input.memoryBudget.limit": { $0 >= 0 },
    "Input.frame": { $0 >= 0 },
    "Input.maxFrames": { $0 >= 1 },
    "sizes[0]": { (1...65_500).contains($0) },
    "destinations[0].size": { (1...65_500).contains($0) },
    "side": { (1...65_500).contains($0) },
  ]

  /// Fields no value of which is wrong: flags, closed enums, colours of 8-bit channels.
  static let alwaysValid: Set<String> = [
    "Shape.borderColor", "Shape.layout", "Output.upscale", "Output.kind",
    "Output.PNG.background", "Output.WebP.background", "Output.AVIF.background",
    // Not an invalid value: one that is not opaque is refused as an output error.
    "Output.JPEG.background",
    "Output.keepColorProfile", "Output.colorSpace", "Input.autoOrient", "Input.strict",
    "Output.mark",
    // Internal: a render sets it for itself (a still output reads few frames).
    "Input.readsFewFrames",
  ]

  /// Shape cases (sides: 17 values; corner and line in px and %, rotation: 12 each) go
  /// through 4 entry points, Output and Input cases (size, the three kinds' qualities,
  /// effort, the PNG's and the mask's level and colours, threads, maxPixels, memory limit,
  /// frame, maxFrames: 17 values; focus x and y, faceSize: 12) through the 3 that take
  /// them, and 7 size arguments through 4 calls.
  static let expectedCalls = (17 + 5 * 12) * 4 + (14 * 17 + 3 * 12) * 3 + 7 * 4

  @Test func everyValueOfEveryFieldThrowsOrRendersAndNoneCrashes() throws {
    let run = try runHexMask([], timeout: 600, executable: "hexmask-value-sweep")
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      run.status == 0 && !run.killedBySignal,
      "the sweep ended with \(run.status) at: \(lines.last ?? "")\n\(run.standardError)")
    #expect(lines.last == "calls \(Self.expectedCalls)")
    let calls = lines.dropLast().map { $0.split(separator: "\t").map(String.init) }
    #expect(calls.count == Self.expectedCalls)

    var refused: [String: Set<String>] = [:]
    var taken: [String: Int] = [:]
    for call in calls {
      guard call.count == 4, let accepts = Self.accepts[call[1]] else {
        Issue.record("not a call of a known field: \(call)")
        continue
      }
      let (entry, field, outcome) = (call[0], call[1], call[3])
      // "nan px", "-1.0 %", "9223372036854775807": the number before the unit.
      let number = try #require(Double(call[2].split(separator: " ")[0]), "\(call)")
      if accepts(number) {
        #expect(!outcome.hasPrefix("invalid"), "\(call)")
        taken[field, default: 0] += 1
      } else {
        #expect(outcome == "invalid \(field)", "\(call)")
        refused[field, default: []].insert(entry)
      }
    }
    // Every field met both kinds of value, and each entry point refused a bad size.
    for field in Self.accepts.keys {
      #expect(refused[field] != nil && taken[field] != nil, "\(field) not swept both ways")
    }
    for field in Self.accepts.keys where field.hasPrefix("Shape.") {
      #expect(refused[field] == ["render(_:)", "render(from:to:)", "renderMask", "svg"])
    }
    #expect(refused["side"] == ["renderMask", "svg"])
  }

  /// The sweep cannot fall behind the values: each stored property of the three structs
  /// is swept or is a kind no value of which is wrong.
  @Test func theSweepCoversEveryPublicField() {
    var fields: Set<String> = []
    let values: [(String, Any)] = [
      ("Shape", HexMask.Shape()), ("Output", HexMask.Output()), ("Input", HexMask.Input()),
      ("Output.PNG", HexMask.Output.PNG()), ("Output.JPEG", HexMask.Output.JPEG()),
      ("Output.WebP", HexMask.Output.WebP()), ("Output.AVIF", HexMask.Output.AVIF()),
      ("Output.Mask", HexMask.Output.Mask()),
    ]
    for (name, value) in values {
      for child in Mirror(reflecting: value).children {
        fields.insert("\(name).\(child.label ?? "?")")
      }
    }
    let swept = Set(
      Self.accepts.keys.filter { $0.first?.isUppercase == true }
        .map { name in
          // A kind's field has three parts: Output.JPEG.quality.
          let parts = name.split(separator: ".")
          let kind = parts.count > 2 && parts[1].first?.isUppercase == true
          return parts.prefix(kind ? 3 : 2).joined(separator: ".")
        })
    #expect(fields.count > 15)
    #expect(fields == swept.union(Self.alwaysValid))
  }

  @Test func theErrorNamesTheFieldItsValueAndItsRange() {
    var shape = HexMask.Shape()
    shape.sides = 0
    let sides = HexMask.InvalidValue(field: "Shape.sides", value: "0", allowed: "from 3 to 64")
    #expect(throws: HexMask.Error.invalidValue(sides)) { try HexMask.svg(side: 64, shape: shape) }
    do {
      _ = try HexMask.svg(side: 64, shape: shape)
    } catch {
      guard case .invalidValue(let invalid) = error else {
        Issue.record("not an invalid value: \(error)")
        return
      }
      #expect(invalid == .init(field: "Shape.sides", value: "0", allowed: "from 3 to 64"))
      #expect(error.description == "Shape.sides is 0; it must be from 3 to 64")
    }
    var output = HexMask.Output()
    output.crop = .focus(x: .nan, y: 0.5)
    #expect(
      throws: HexMask.Error.invalidValue(
        .init(field: "Output.crop.focus.x", value: "nan", allowed: "a fraction from 0 to 1"))
    ) {
      try HexMask.render([0x89], output: output)
    }
  }
}
