import Foundation
import TestSupport
import Testing

@testable import HexMask

/// `ShapeCoverage` against `ExactReference` (independent polygons clipped to each pixel):
/// every compared pixel must be within 1 level of 255 of the exact area, for the fill, the
/// fill eroded and dilated by half the line width, and the border between those two. The worst errors seen are printed and written to
/// `hexmask-accuracy.txt` in the run's `testRunFolder`.
@Suite("Rasterizer accuracy against an exact reference", .tags(.slow), .outsideTheFastLane)
struct RasterizerAccuracyTests {
  /// One shape to compare; everything needed to rebuild it is in its description.
  struct Case: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    var label: String
    var canvasSide: Int
    var sides: Int
    var rotationDegrees: Double
    /// `nil` for the default.
    var cornerRadius: Double?
    /// `nil` for the default.
    var lineWidth: Double?
    var layout: Layout
    /// Added to the placed polygon's position.
    var offset: Point = .zero
    /// Seeds the choice of sampled rows and pixels on large canvases.
    var seed: UInt64

    var description: String {
      let corner = cornerRadius.map { "\($0)" } ?? "default"
      let line = lineWidth.map { "\($0)" } ?? "default"
      return
        "\(label) [seed \(String(seed, radix: 16))]: S=\(canvasSide) n=\(sides) rot=\(rotationDegrees)° "
        + "corner=\(corner) line=\(line) layout=\(layout.rawValue) offset=\(offset)"
    }

    var testDescription: String { description }

    func shape() throws -> MaskShape {
      var options = HexMask.Shape()
      options.sides = sides
      options.rotationDegrees = rotationDegrees
      options.cornerRadius = cornerRadius
      options.lineWidth = lineWidth
      options.layout = layout
      var shape = try MaskShape(options, canvasSide: canvasSide)
      shape.polygon = shape.polygon.translated(by: offset)
      return shape
    }

    /// A random case, reproducible from `index` alone.
    static func random(_ index: Int) -> Case {
      let seed = 0xACC0_0000_0000 + UInt64(index)
      var rng = SplitMix64(seed: seed)
      let sizeDraw = rng.unit()
      let side =
        sizeDraw < 0.45
        ? rng.int(in: 1...48)
        : sizeDraw < 0.82
          ? rng.int(in: 49...256)
          : sizeDraw < 0.94 ? rng.int(in: 257...1000) : rng.int(in: 1001...2000)
      let sides = rng.unit() < 0.6 ? rng.int(in: 3...8) : rng.int(in: 9...64)
      let rotation =
        rng.unit() < 0.3 ? Double(90 * rng.int(in: -4...4)) : (rng.unit() * 1440 - 720)
      let s = Double(side)
      let lineDraw = rng.unit()
      let line: Double? =
        lineDraw < 0.12
        ? 0
        : lineDraw < 0.25
          ? nil
          : lineDraw < 0.45 ? s * (0.3 + 0.65 * rng.unit()) : s * 0.3 * rng.unit()
      let resolvedLine = line ?? min(HexMask.Shape.defaultLine, s / 8)
      let maximum = RoundedPolygon.maximumCornerRadius(
        canvasSide: s, lineWidth: resolvedLine, sides: sides)
      let cornerDraw = rng.unit()
      let corner: Double? =
        cornerDraw < 0.15
        ? 0
        : cornerDraw < 0.3
          ? maximum
          : cornerDraw < 0.38
            ? maximum * 1e-3 * rng.unit() : cornerDraw < 0.45 ? nil : maximum * rng.unit()
      let layout: Layout = rng.unit() < 0.5 ? .centered : .seed
      // Mostly sub-pixel moves; some push the shape a little past the top-left edges.
      let offsetDraw = rng.unit()
      let offset =
        offsetDraw < 0.2
        ? Point.zero
        : offsetDraw < 0.85
          ? Point(x: rng.unit(), y: rng.unit())
          : Point(x: 2 * rng.unit() - 1, y: 2 * rng.unit() - 1)
      return Case(
        label: "random #\(index)", canvasSide: side, sides: sides, rotationDegrees: rotation,
        cornerRadius: corner, lineWidth: line, layout: layout, offset: offset, seed: seed)
    }
  }

  /// The worst differences found for one case, in levels of 255.
  struct Errors {
    var fill = 0.0
    var fillWhere = "nowhere"
    var stroke = 0.0
    var strokeWhere = "nowhere"
    var inner = 0.0
    var innerWhere = "nowhere"
    var outer = 0.0
    var outerWhere = "nowhere"
    var pixels = 0

    mutating func note(inner got: Float, _ expected: Double, x: Int, y: Int) {
      let error = levels(got, expected)
      if error > inner {
        inner = error
        innerWhere = "pixel (\(x), \(y)): got \(got), exact \(expected)"
      }
    }

    mutating func note(outer got: Float, _ expected: Double, x: Int, y: Int) {
      let error = levels(got, expected)
      if error > outer {
        outer = error
        outerWhere = "pixel (\(x), \(y)): got \(got), exact \(expected)"
      }
    }

    mutating func note(fill got: Float, _ expected: Double, x: Int, y: Int) {
      let error = levels(got, expected)
      if error > fill {
        fill = error
        fillWhere = "pixel (\(x), \(y)): got \(got), exact \(expected)"
      }
    }

    mutating func note(stroke got: Float, _ expected: Double, x: Int, y: Int) {
      let error = levels(got, expected)
      if error > stroke {
        stroke = error
        strokeWhere = "pixel (\(x), \(y)): got \(got), exact \(expected)"
      }
    }

    private func levels(_ got: Float, _ expected: Double) -> Double {
      let error = abs(255 * Double(got) - 255 * expected)
      return error.isNaN ? .infinity : error
    }
  }

  /// Compares every pixel of canvases up to 256 px; on larger ones all pixels of 40
  /// random rows and 200 random pixels within the border's reach of the outline.
  static func measure(
    _ c: Case, tolerance: Double = ShapeCoverage.defaultTolerance
  ) throws -> Errors {
    let shape = try c.shape()
    let side = shape.canvasSide
    let reference = ExactReference.Shape(shape)
    let fill = ExactReference.Banded(reference.fill, height: side)
    let outer = ExactReference.Banded(reference.outer, height: side)
    let inner = ExactReference.Banded(reference.inner, height: side)

    // Rows compared whole, and single pixels on other rows.
    var fullRows: Set<Int> = []
    var pixelsByRow: [Int: Set<Int>] = [:]
    if side <= 256 {
      fullRows = Set(0..<side)
    } else {
      var rng = SplitMix64(seed: c.seed ^ 0x5EED)
      while fullRows.count < 40 { fullRows.insert(rng.int(in: 0...(side - 1))) }
      let segments = shape.polygon.segments
      var placed = 0
      while placed < 200 {
        let t = rng.unit()
        let point: Point
        let tangent: Point
        switch segments[rng.int(in: 0...(segments.count - 1))] {
        case .line(let a, let b):
          point = a + (b - a) * t
          tangent = b - a
        case .quad(let a, let control, let b):
          let q = ExactReference.Quad(p0: a, p1: control, p2: b)
          point = q.point(t)
          tangent = q.derivative(t)
        }
        let length = tangent.length
        let normal = length > 0 ? Point(x: tangent.y / length, y: -tangent.x / length) : .zero
        let reach = shape.lineWidth / 2 + 1.5
        let p = point + normal * ((2 * rng.unit() - 1) * reach)
        let x = Int(p.x.rounded(.down))
        let y = Int(p.y.rounded(.down))
        guard x >= 0, x < side, y >= 0, y < side else { continue }
        placed += 1
        if !fullRows.contains(y) { pixelsByRow[y, default: []].insert(x) }
      }
    }

    var coverage = ShapeCoverage(shape: shape, tolerance: tolerance)
    var row = CoverageRow(width: side)
    var errors = Errors()
    let hasBorder = shape.lineWidth > 0
    for y in fullRows.union(pixelsByRow.keys).sorted() {
      coverage.row(y, into: &row)
      let fillBand = fill.band(y)
      let outerBand = outer.band(y)
      let innerBand = inner.band(y)
      let columns: [Int]
      let fillExact: [Double]
      var outerExact: [Double]
      var innerExact: [Double]
      if let chosen = pixelsByRow[y] {
        columns = chosen.sorted()
        fillExact = columns.map { ExactReference.pixelArea(fillBand, column: $0) }
        outerExact = columns.map { ExactReference.pixelArea(outerBand, column: $0) }
        innerExact = columns.map { ExactReference.pixelArea(innerBand, column: $0) }
      } else {
        columns = Array(0..<side)
        fillExact = ExactReference.rowAreas(fillBand, lo: 0, hi: side)
        outerExact = ExactReference.rowAreas(outerBand, lo: 0, hi: side)
        innerExact = ExactReference.rowAreas(innerBand, lo: 0, hi: side)
      }
      if !hasBorder {
        // Without a border the eroded and dilated shapes are the fill itself.
        outerExact = fillExact
        innerExact = fillExact
      }
      for (k, x) in columns.enumerated() {
        errors.note(fill: row.fill[x], fillExact[k], x: x, y: y)
        errors.note(inner: row.inner[x], innerExact[k], x: x, y: y)
        errors.note(outer: row.outer[x], outerExact[k], x: x, y: y)
        errors.note(stroke: row.outer[x] - row.inner[x], outerExact[k] - innerExact[k], x: x, y: y)
      }
      errors.pixels += columns.count
    }
    return errors
  }

  static func check(_ c: Case, suite: String) throws {
    let errors = try measure(c)
    AccuracyLedger.shared.record(errors, case: c.description, suite: suite)
    #expect(
      errors.fill <= 1.0,
      "fill off by \(errors.fill) levels at \(errors.fillWhere) — \(c.description)")
    #expect(
      errors.stroke <= 1.0,
      "border off by \(errors.stroke) levels at \(errors.strokeWhere) — \(c.description)")
    #expect(
      errors.inner <= 1.0,
      "inner edge off by \(errors.inner) levels at \(errors.innerWhere) — \(c.description)")
    #expect(
      errors.outer <= 1.0,
      "outer edge off by \(errors.outer) levels at \(errors.outerWhere) — \(c.description)")
  }

  static let randomCount = 320

  @Test("random shapes", arguments: 0..<randomCount)
  func randomShape(index: Int) throws {
    try Self.check(Case.random(index), suite: "random")
  }

  /// Shapes known to stress the geometry: swallowed insides, near-circles, tiny canvases,
  /// no border at all, exact quarter turns.
  static let nasty: [Case] = [
    Case(
      label: "triangle, tiny corner, huge line", canvasSide: 300, sides: 3, rotationDegrees: 90,
      cornerRadius: 0.01, lineWidth: 200, layout: .centered, seed: 1),
    Case(
      label: "triangle, tiny corner, line just under the inradius", canvasSide: 301, sides: 3,
      rotationDegrees: -30, cornerRadius: 0.001, lineWidth: 100, layout: .centered,
      offset: Point(x: 0.25, y: 0.75), seed: 2),
    Case(
      label: "triangle, tiny corner, huge line, large", canvasSide: 1500, sides: 3,
      rotationDegrees: 17, cornerRadius: 0.05, lineWidth: 1100, layout: .seed, seed: 3),
    Case(
      label: "64-gon, maximum corner", canvasSide: 640, sides: 64, rotationDegrees: 0,
      cornerRadius: RoundedPolygon.maximumCornerRadius(canvasSide: 640, lineWidth: 12, sides: 64),
      lineWidth: 12, layout: .centered, offset: Point(x: 0.5, y: 0.5), seed: 4),
    Case(
      label: "64-gon, maximum corner, no line", canvasSide: 200, sides: 64, rotationDegrees: 45,
      cornerRadius: RoundedPolygon.maximumCornerRadius(canvasSide: 200, lineWidth: 0, sides: 64),
      lineWidth: 0, layout: .seed, seed: 5),
    Case(
      label: "64-gon, maximum corner, line past the centre", canvasSide: 150, sides: 64,
      rotationDegrees: 3,
      cornerRadius: RoundedPolygon.maximumCornerRadius(canvasSide: 150, lineWidth: 100, sides: 64),
      lineWidth: 100, layout: .centered, seed: 6),
    Case(
      label: "1×1 defaults", canvasSide: 1, sides: 6, rotationDegrees: 90, cornerRadius: nil,
      lineWidth: nil, layout: .centered, seed: 7),
    Case(
      label: "1×1 no line, sharp", canvasSide: 1, sides: 4, rotationDegrees: 45, cornerRadius: 0,
      lineWidth: 0, layout: .seed, seed: 8),
    Case(
      label: "1×1 wide line, maximum corner", canvasSide: 1, sides: 3, rotationDegrees: 0,
      cornerRadius: RoundedPolygon.maximumCornerRadius(canvasSide: 1, lineWidth: 0.9, sides: 3),
      lineWidth: 0.9, layout: .centered, offset: Point(x: 0.3, y: 0.1), seed: 9),
    Case(
      label: "2×2 defaults", canvasSide: 2, sides: 6, rotationDegrees: 90, cornerRadius: nil,
      lineWidth: nil, layout: .centered, seed: 10),
    Case(
      label: "2×2 sharp square, line 1", canvasSide: 2, sides: 4, rotationDegrees: 45,
      cornerRadius: 0, lineWidth: 1, layout: .centered, seed: 11),
    Case(
      label: "2×2 seed layout, line 1.5", canvasSide: 2, sides: 5, rotationDegrees: 180,
      cornerRadius: 0.1, lineWidth: 1.5, layout: .seed, seed: 12),
    Case(
      label: "line exactly 0, hexagon", canvasSide: 97, sides: 6, rotationDegrees: 90,
      cornerRadius: 10, lineWidth: 0, layout: .centered, seed: 13),
    Case(
      label: "line exactly 0, sharp triangle", canvasSide: 64, sides: 3, rotationDegrees: 270,
      cornerRadius: 0, lineWidth: 0, layout: .seed, offset: Point(x: 0.5, y: 0), seed: 14),
    Case(
      label: "sharp square on the pixel grid", canvasSide: 100, sides: 4, rotationDegrees: 45,
      cornerRadius: 0, lineWidth: 10, layout: .centered, seed: 15),
    Case(
      label: "sharp triangle, inner edge just vanishing", canvasSide: 120, sides: 3,
      rotationDegrees: 90, cornerRadius: 0, lineWidth: 39.99, layout: .centered, seed: 16),
    Case(
      label: "defaults, 2000 px", canvasSide: 2000, sides: 6, rotationDegrees: 90,
      cornerRadius: nil, lineWidth: nil, layout: .centered, seed: 17),
    Case(
      label: "hexagon, maximum corner, line over half", canvasSide: 400, sides: 6,
      rotationDegrees: 90,
      cornerRadius: RoundedPolygon.maximumCornerRadius(canvasSide: 400, lineWidth: 230, sides: 6),
      lineWidth: 230, layout: .seed, seed: 18),
    Case(
      label: "hexagon defaults, 30 000 px", canvasSide: 30000, sides: 6, rotationDegrees: 90,
      cornerRadius: nil, lineWidth: nil, layout: .centered, offset: Point(x: 0.37, y: 0.81),
      seed: 19),
    Case(
      label: "octagon, maximum corner, wide line, 20 000 px", canvasSide: 20000, sides: 8,
      rotationDegrees: 11.25,
      cornerRadius: RoundedPolygon.maximumCornerRadius(
        canvasSide: 20000, lineWidth: 3000, sides: 8),
      lineWidth: 3000, layout: .seed, seed: 20),
    Case(
      label: "line almost the whole canvas", canvasSide: 50, sides: 5, rotationDegrees: 0,
      cornerRadius: nil, lineWidth: 49.999, layout: .centered, seed: 21),
    Case(
      label: "shape pushed past the top-left corner", canvasSide: 40, sides: 7,
      rotationDegrees: 33, cornerRadius: 4, lineWidth: 6, layout: .seed,
      offset: Point(x: -3.3, y: -2.7), seed: 22),
    Case(
      label: "hair-thin line", canvasSide: 28, sides: 7, rotationDegrees: 0,
      cornerRadius: 7.727357189369458, lineWidth: 1e-9, layout: .centered,
      offset: Point(x: 0, y: 0.9947788333042951), seed: 23),
    Case(
      label: "hair-thin line, tiny corner", canvasSide: 48, sides: 3, rotationDegrees: 45,
      cornerRadius: 1e-6, lineWidth: 1e-9, layout: .seed, offset: Point(x: 0.5, y: 0.5), seed: 24),
  ]

  @Test("known-nasty shapes", arguments: nasty)
  func nastyShape(_ c: Case) throws {
    try Self.check(c, suite: "nasty")
  }
}

extension RasterizerAccuracyTests {
  /// The comparison must be able to fail: an outline flattened 0.5 px off the curve is
  /// caught on a large near-circle.
  @Test("the comparison notices a coarse outline")
  func detectsCoarseOutline() throws {
    let c = Case(
      label: "coarse", canvasSide: 400, sides: 48, rotationDegrees: 0,
      cornerRadius: RoundedPolygon.maximumCornerRadius(canvasSide: 400, lineWidth: 20, sides: 48),
      lineWidth: 20, layout: .centered, seed: 99)
    let errors = try Self.measure(c, tolerance: 0.5)
    #expect(errors.fill > 1, "fill error \(errors.fill) levels")
    #expect(errors.stroke > 1, "border error \(errors.stroke) levels")
    #expect(errors.inner > 1 && errors.outer > 1, "edges \(errors.inner), \(errors.outer) levels")
  }

  /// The reference polygons have the areas Steiner's formula gives: a convex region `A`
  /// with perimeter `P` grows to `A + P·d + π·d²` when dilated by a disk of radius `d`,
  /// and shrinks to `A − P·d + π·d²` when eroded, if no corner is tighter than `d`;
  /// with sharp corners and mitres the dilation is `A + P·d + n·d²·tan(θ/2)`.
  @Test(
    "reference polygons obey Steiner's formula",
    arguments: [
      (256.0, 6, 10.0, 5.0, 90.0), (1000.0, 3, 200.0, 40.0, 17.0), (500.0, 64, 100.0, 60.0, 0.0),
      (120.0, 5, 0.0, 12.0, 33.0), (2000.0, 4, 0.0, 300.0, 45.0), (77.0, 9, 3.0, 2.0, 270.0),
    ])
  func referenceAreas(side: Double, sides: Int, corner: Double, line: Double, degrees: Double)
    throws
  {
    var options = HexMask.Shape()
    options.sides = sides
    options.cornerRadius = corner
    options.lineWidth = line
    options.rotationDegrees = degrees
    let shape = try MaskShape(options, canvasSide: Int(side))
    let reference = ExactReference.Shape(shape)
    let theta = 2 * Double.pi / Double(sides)
    let d = line / 2
    let (area, perimeter) = GeometryFacts.areaAndPerimeter(shape.polygon)
    // The reference stands off its curves by at most 2.5e-7 px (inscribed chords), so
    // each area may fall short by that much per unit of perimeter.
    let slack = 2.5e-7 * (perimeter + 2 * Double.pi * d) + 1e-12 * side * side
    #expect(abs(ExactReference.area(reference.fill) - area) <= slack)
    if corner == 0 {
      let mitred = area + perimeter * d + Double(sides) * d * d * tan(theta / 2)
      #expect(abs(ExactReference.area(reference.outer) - mitred) <= 1e-12 * side * side)
    } else {
      #expect(corner * (1 + cos(theta)) >= d, "test case must have no corner tighter than w/2")
      let dilated = area + perimeter * d + Double.pi * d * d
      let eroded = area - perimeter * d + Double.pi * d * d
      #expect(abs(ExactReference.area(reference.outer) - dilated) <= slack)
      #expect(abs(ExactReference.area(reference.inner) - eroded) <= slack)
    }
  }

  /// Where corners are tighter than w/2, the reference's inner edge is the set of points
  /// whose distance to the outline is at least w/2, checked point by point.
  @Test(
    "reference inner edge is the erosion",
    arguments: [
      (300, 3, 0.01, 90.0), (300, 3, 5.0, 80.0), (300, 64, 1.0, 100.0), (400, 6, -1.0, 191.0),
      (200, 4, 2.0, 70.0),
    ])
  func referenceErosion(side: Int, sides: Int, corner: Double, line: Double) throws {
    var options = HexMask.Shape()
    options.sides = sides
    options.lineWidth = line
    options.cornerRadius =
      corner >= 0
      ? corner
      : RoundedPolygon.maximumCornerRadius(canvasSide: Double(side), lineWidth: line, sides: sides)
    let shape = try MaskShape(options, canvasSide: side)
    let reference = ExactReference.Shape(shape)
    let outline = ExactReference.Outline(shape.polygon.segments)
    let d = line / 2
    try #require(reference.inner.count >= 3, "test case must keep an inside")
    var rng = SplitMix64(seed: UInt64(side * 100 + sides))
    let box = Rect(enclosing: reference.inner)
    var checked = 0
    for _ in 0..<600 {
      // Half the points near the inner edge's box, where it matters.
      let p = Point(
        x: box.minX - 2 + (box.maxX - box.minX + 4) * rng.unit(),
        y: box.minY - 2 + (box.maxY - box.minY + 4) * rng.unit())
      let inFill = GeometryFacts.contains(reference.fill, p)
      let nearEdge = GeometryFacts.boundaryDistance(reference.inner, p) < 1e-6
      guard !nearEdge else { continue }
      let eroded = inFill && outline.isClear(p, by: d)
      #expect(
        GeometryFacts.contains(reference.inner, p) == eroded,
        "point \(p): in erosion \(eroded), side \(side) n \(sides)")
      checked += 1
    }
    #expect(checked > 500)
  }
}

/// Worst errors across all cases (they run in parallel), kept for the team to quote.
final class AccuracyLedger: @unchecked Sendable {
  static let shared = AccuracyLedger()
  static let path = testRunFolder.appendingPathComponent("hexmask-accuracy.txt").path

  private let lock = NSLock()
  private var cases = 0
  private var pixels = 0
  private var fill = 0.0
  private var fillCase = ""
  private var stroke = 0.0
  private var strokeCase = ""
  private var inner = 0.0
  private var innerCase = ""
  private var outer = 0.0
  private var outerCase = ""
  private var suites: Set<String> = []

  func record(_ errors: RasterizerAccuracyTests.Errors, case label: String, suite: String) {
    lock.lock()
    defer { lock.unlock() }
    cases += 1
    pixels += errors.pixels
    suites.insert(suite)
    if errors.fill >= fill {
      fill = errors.fill
      fillCase = "\(label) at \(errors.fillWhere)"
    }
    if errors.stroke >= stroke {
      stroke = errors.stroke
      strokeCase = "\(label) at \(errors.strokeWhere)"
    }
    if errors.inner >= inner {
      inner = errors.inner
      innerCase = "\(label) at \(errors.innerWhere)"
    }
    if errors.outer >= outer {
      outer = errors.outer
      outerCase = "\(label) at \(errors.outerWhere)"
    }
    let report = """
      hexmask rasterizer accuracy (ShapeCoverage vs exact clipped-polygon reference)
      suites: \(suites.sorted().joined(separator: ", "))
      cases: \(cases), pixels compared: \(pixels) (each of fill, inner, outer and border)
      worst fill error: \(String(format: "%.5f", fill)) levels of 255
        \(fillCase)
      worst border (outer − inner) error: \(String(format: "%.5f", stroke)) levels of 255
        \(strokeCase)
      worst inner (fill eroded by w/2) error: \(String(format: "%.5f", inner)) levels of 255
        \(innerCase)
      worst outer (fill dilated by w/2) error: \(String(format: "%.5f", outer)) levels of 255
        \(outerCase)

      """
    try? report.write(toFile: Self.path, atomically: true, encoding: .utf8)
    if cases % 50 == 0 {
      print(report)
    }
  }
}
