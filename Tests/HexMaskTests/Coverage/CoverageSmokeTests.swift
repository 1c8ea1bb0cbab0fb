import Testing

@testable import HexMask

@Suite struct CoverageSmokeTests {
  /// Sum of fill coverage equals the shoelace area of a very fine flattening.
  @Test(arguments: [
    (64, 6, 10.0, 5.0), (255, 3, 0.0, 9.0), (100, 64, 20.0, 2.0), (17, 5, 3.0, 1.0),
  ])
  func fillAreaMatchesFlattenedArea(side: Int, sides: Int, corner: Double, line: Double) throws {
    var options = HexMask.Shape()
    options.sides = sides
    options.cornerRadius = corner
    options.lineWidth = line
    let shape = try MaskShape(options, canvasSide: side)
    var coverage = ShapeCoverage(shape: shape)
    var row = CoverageRow(width: side)
    var total = 0.0
    var border = 0.0
    for y in 0..<side {
      coverage.row(y, into: &row)
      total += row.fill.reduce(0) { $0 + Double($1) }
      border += zip(row.outer, row.inner).reduce(0) { $0 + Double($1.0 - $1.1) }
    }
    var points: [Point] = []
    for segment in shape.polygon.segments {
      switch segment {
      case .line(let from, _): points.append(from)
      case .quad(let from, let control, let to):
        for k in 0..<2000 {
          let t = Double(k) / 2000
          let s = 1 - t
          points.append(from * (s * s) + control * (2 * s * t) + to * (t * t))
        }
      }
    }
    let exact = abs(signedArea(points))
    #expect(abs(total - exact) < 2e-5 * exact, "fill \(total) vs \(exact)")
    #expect(border > 0)
  }
}
