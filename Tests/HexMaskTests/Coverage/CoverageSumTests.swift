import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Whole-canvas properties of `ShapeCoverage`: the summed fill is the shape's exact area,
/// the summed border is perimeter × width, and symmetric shapes give symmetric coverage.
@Suite("Coverage sums and symmetry")
struct CoverageSumTests {
  /// A centred shape; `corner` −1 means the maximum, `nil` the default.
  struct Shape: Sendable, CustomTestStringConvertible {
    var side: Int
    var sides: Int
    var corner: Double?
    var line: Double?
    var degrees: Double

    var testDescription: String {
      "S=\(side) n=\(sides) corner=\(corner.map { "\($0)" } ?? "default") "
        + "line=\(line.map { "\($0)" } ?? "default") rot=\(degrees)°"
    }

    func shape() throws -> MaskShape {
      var options = HexMask.Shape()
      options.sides = sides
      options.lineWidth = line
      options.rotationDegrees = degrees
      if corner == -1 {
        let resolved = line ?? min(HexMask.Shape.defaultLine, Double(side) / 8)
        options.cornerRadius = RoundedPolygon.maximumCornerRadius(
          canvasSide: Double(side), lineWidth: resolved, sides: sides)
      } else {
        options.cornerRadius = corner
      }
      return try MaskShape(options, canvasSide: side)
    }
  }

  /// Every row of the canvas, fill and border.
  static func rows(_ shape: MaskShape, order: [Int]? = nil) -> (fill: [[Float]], stroke: [[Float]])
  {
    let side = shape.canvasSide
    var coverage = ShapeCoverage(shape: shape)
    var fill = [[Float]](repeating: [], count: side)
    var stroke = fill
    var row = CoverageRow(width: side)
    for y in order ?? Array(0..<side) {
      coverage.row(y, into: &row)
      fill[y] = row.fill
      stroke[y] = zip(row.outer, row.inner).map { $0 - $1 }
    }
    return (fill, stroke)
  }

  static func total(_ rows: [[Float]]) -> Double {
    rows.reduce(0) { sum, row in row.reduce(sum) { $0 + Double($1) } }
  }

  @Test(
    "summed fill coverage is the exact area",
    arguments: [
      Shape(side: 256, sides: 6, corner: nil, line: nil, degrees: 90),
      Shape(side: 600, sides: 64, corner: -1, line: 10, degrees: 0),
      Shape(side: 1000, sides: 3, corner: 0, line: 0, degrees: 17),
      Shape(side: 400, sides: 4, corner: 0, line: 20, degrees: 45),
      Shape(side: 333, sides: 7, corner: 50, line: 30, degrees: 12.5),
      Shape(side: 800, sides: 12, corner: -1, line: 100, degrees: 200),
      Shape(side: 201, sides: 5, corner: 20, line: 0, degrees: -90),
      Shape(side: 512, sides: 3, corner: -1, line: 250, degrees: 30),
    ])
  func fillArea(_ c: Shape) throws {
    let shape = try c.shape()
    let (area, _) = GeometryFacts.areaAndPerimeter(shape.polygon)
    let sum = Self.total(Self.rows(shape).fill)
    let relative = abs(sum - area) / area
    print("fill area \(c.testDescription): sum \(sum), exact \(area), relative error \(relative)")
    #expect(relative <= 1e-6, "sum \(sum) vs exact \(area)")
  }

  /// The border is the outline dilated by w/2 minus the outline eroded by w/2; by
  /// Steiner's formula that is `(A + P·d + πd²) − (A − P·d + πd²) = P·w` as long as no
  /// corner is tighter than `d = w/2` (the corner curve's smallest radius of curvature is
  /// `r·(1 + cos θ)`, at its middle).
  @Test(
    "summed border coverage is perimeter × width",
    arguments: [
      Shape(side: 256, sides: 6, corner: 10, line: 5, degrees: 90),
      Shape(side: 600, sides: 64, corner: -1, line: 40, degrees: 0),
      Shape(side: 500, sides: 3, corner: 150, line: 60, degrees: 30),
      Shape(side: 300, sides: 8, corner: 40, line: 50, degrees: 0),
      Shape(side: 1000, sides: 5, corner: 100, line: 200, degrees: 90),
      Shape(side: 128, sides: 6, corner: -1, line: 1, degrees: 7),
    ])
  func strokeArea(_ c: Shape) throws {
    let shape = try c.shape()
    let polygon = shape.polygon
    let theta = 2 * Double.pi / Double(polygon.sides)
    let w = shape.lineWidth
    try #require(polygon.cornerRadius * (1 + cos(theta)) >= w / 2, "corners tighter than w/2")
    let (_, perimeter) = GeometryFacts.areaAndPerimeter(polygon)
    let expected = perimeter * w
    let sum = Self.total(Self.rows(shape).stroke)
    let relative = abs(sum - expected) / expected
    print(
      "border area \(c.testDescription): sum \(sum), P·w \(expected), relative error \(relative)")
    // Each edge of the border may stand off its curve by the coverage tolerance.
    let allowed = ShapeCoverage.defaultTolerance * (perimeter + Double.pi * w)
    #expect(abs(sum - expected) <= allowed, "sum \(sum) vs P·w \(expected)")
    #expect(relative <= 1e-5)
  }

  /// A square (n = 4) with rotation 0 has its tips on the axes through the canvas centre:
  /// coverage must not change under x ↦ S−1−x, y ↦ S−1−y or transposition.
  @Test(
    "a centred square is symmetric under both mirrors and transposition",
    arguments: [31, 32, 100, 101],
    [(5.0, 3.0), (0.0, 4.0), (-1.0, 0.0), (-1.0, 9.5)])
  func squareSymmetry(side: Int, geometry: (corner: Double, line: Double)) throws {
    let shape = try Shape(
      side: side, sides: 4, corner: geometry.corner, line: geometry.line, degrees: 0
    ).shape()
    let (fill, stroke) = Self.rows(shape)
    for (name, grid) in [("fill", fill), ("border", stroke)] {
      var worst = 0.0
      var at = (0, 0)
      for y in 0..<side {
        for x in 0..<side {
          let v = Double(grid[y][x])
          let d = max(
            abs(v - Double(grid[y][side - 1 - x])), abs(v - Double(grid[side - 1 - y][x])),
            abs(v - Double(grid[x][y])))
          if d > worst {
            worst = d
            at = (x, y)
          }
        }
      }
      #expect(worst <= 1e-6, "\(name) asymmetric by \(worst) at \(at), S=\(side) \(geometry)")
    }
  }

  /// A hexagon with rotation 90° has a tip pointing straight down: left-right symmetric.
  @Test(
    "a hexagon pointing down is left-right symmetric",
    arguments: [63, 64, 255, 256],
    [(nil, nil), (0.0, 6.0), (-1.0, 10.0)] as [(Double?, Double?)])
  func hexagonSymmetry(side: Int, geometry: (corner: Double?, line: Double?)) throws {
    let shape = try Shape(
      side: side, sides: 6, corner: geometry.corner, line: geometry.line, degrees: 90
    ).shape()
    let (fill, stroke) = Self.rows(shape)
    for (name, grid) in [("fill", fill), ("border", stroke)] {
      var worst = 0.0
      for y in 0..<side {
        for x in 0..<side {
          worst = max(worst, abs(Double(grid[y][x]) - Double(grid[y][side - 1 - x])))
        }
      }
      #expect(worst <= 1e-6, "\(name) asymmetric by \(worst), S=\(side) \(geometry)")
    }
  }

  /// Rows may be asked for in any order (going back restarts the edge scan).
  @Test("rows in any order give the same coverage")
  func rowOrder() throws {
    let shape = try Shape(side: 97, sides: 5, corner: 8, line: 7, degrees: 33).shape()
    let forward = Self.rows(shape)
    var rng = SplitMix64(seed: 97)
    let shuffled = Array(0..<97).shuffled(using: &rng)
    let mixed = Self.rows(shape, order: shuffled)
    #expect(forward.fill == mixed.fill)
    #expect(forward.stroke == mixed.stroke)
  }
}
