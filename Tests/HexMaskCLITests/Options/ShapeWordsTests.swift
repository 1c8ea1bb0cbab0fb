import HexMask
import Testing

@testable import HexMaskCLI

/// The shape's errors in the options' words: only the command line makes sentences of them.
@Suite struct ShapeWordsTests {
  @Test(arguments: [
    (120.0, "120"), (120.5789, "120.57"), (0.5, "0.50"), (0.009, "0.0090"),
    (0.0000015, "0.0000015"), (3.14159, "3.14"), (-0.0, "0"),
    (1e15, "1000000000000000"), (1e16, "1e+16"), (1e308, "1e+308"),
    (.greatestFiniteMagnitude, "1.7976931348623157e+308"), (.infinity, "inf"),
  ])
  func amountsPrintRoundedDownAndNeverAsZero(value: Double, text: String) {
    #expect(pixels(value) == text)
  }

  /// The maximum a message prints is itself accepted, and within 0.01 of the true one.
  @Test(
    arguments: [(256, 6, 5.0), (16, 3, 0.0), (1000, 64, 100.0), (3, 4, 0.5)],
    [1 + 1e-6, 1.01, 2.0])
  func thePrintedMaximumIsAccepted(config: (side: Int, sides: Int, line: Double), factor: Double)
    throws
  {
    let (side, sides, line) = config
    var shape = HexMask.Shape()
    shape.sides = sides
    shape.line = .pixels(line)
    let maximum = RoundedPolygon.maximumCornerRadius(
      canvasSide: Double(side), lineWidth: line, sides: sides)
    shape.corner = .pixels(maximum * factor)
    let error = #expect(throws: ShapeError.self) { _ = try MaskShape(shape, canvasSide: side) }
    let text = error?.words ?? ""
    let printed = text.components(separatedBy: "at most ").dropFirst().first?
      .split(separator: " ").first.flatMap { Double($0) }
    #expect(printed != nil, "message does not name the maximum: \(text)")
    if let printed {
      #expect(printed <= maximum && printed > maximum - 0.01, "\(text)")
      shape.corner = .pixels(printed)
      #expect(throws: Never.self) { _ = try MaskShape(shape, canvasSide: side) }
    }
  }

  @Test func hugeValuesPrintAsNumbers() {
    #expect(
      ShapeError.lineTooWide(1e308, canvasSide: 32).words
        == "--line 1e+308 leaves no room for the shape in a 32 px canvas: it must be less than 32")
    #expect(
      ShapeError.cornerTooLarge(.greatestFiniteMagnitude, maximum: 8, canvasSide: 32).words
        .hasPrefix("--corner 1.7976931348623157e+308 is too large"))
  }
}
