import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Facts computed from the path alone, shared by the geometry and coverage tests.
enum GeometryFacts {
  /// `R = (S − w + r − r·cos θ)/2` (docs/design.md, The shape).
  static func circumradius(side: Double, line: Double, sides: Int, corner: Double) -> Double {
    let theta = 2 * Double.pi / Double(sides)
    return (side - line + corner - corner * cos(theta)) / 2
  }

  /// Dense points of the outline in drawing order: each line's start, then `perCorner`
  /// uniform-t points of each corner (its end is the next line's start).
  static func flatten(_ polygon: RoundedPolygon, perCorner: Int) -> [Point] {
    var points: [Point] = []
    for segment in polygon.segments {
      switch segment {
      case .line(let a, _): points.append(a)
      case .quad(let a, let c, let b):
        let q = ExactReference.Quad(p0: a, p1: c, p2: b)
        for k in 0..<perCorner { points.append(q.point(Double(k) / Double(perCorner))) }
      }
    }
    return points
  }

  /// The exact area of the rounded polygon, and its perimeter by fine flattening.
  ///
  /// Area: the polygon of tips, `n/2·R²·sin θ`, minus at each corner the region between the
  /// two tangent legs and the parabola, which is a third of the triangle start–tip–end
  /// (legs `2r·sin(θ/2)` meeting at the angle `π − θ`).
  static func areaAndPerimeter(_ polygon: RoundedPolygon) -> (area: Double, perimeter: Double) {
    let n = Double(polygon.sides)
    let theta = 2 * Double.pi / n
    let big = polygon.circumradius
    let r = polygon.cornerRadius
    let leg = 2 * r * sin(theta / 2)
    let area = n / 2 * big * big * sin(theta) - n * (leg * leg * sin(theta) / 2) / 3
    let points = flatten(polygon, perCorner: 20_000)
    var perimeter = 0.0
    for k in points.indices { perimeter += (points[(k + 1) % points.count] - points[k]).length }
    return (area, perimeter)
  }

  /// Whether `p` is inside (or within 1e-9 of) a convex polygon in increasing-angle order.
  static func contains(_ polygon: [Point], _ p: Point) -> Bool {
    guard polygon.count >= 3 else { return false }
    for k in polygon.indices {
      let a = polygon[k]
      let b = polygon[(k + 1) % polygon.count]
      let length = (b - a).length
      // Signed distance from the edge's line; near-duplicate vertices have no direction.
      if length > 1e-9 && (b - a).cross(p - a) / length < -1e-9 { return false }
    }
    return true
  }

  /// Distance from `p` to the edges of `polygon`.
  static func boundaryDistance(_ polygon: [Point], _ p: Point) -> Double {
    var best = Double.infinity
    for k in polygon.indices {
      let a = polygon[k]
      let b = polygon[(k + 1) % polygon.count]
      best = min(best, ExactReference.segmentDistanceSquared(p, a, b))
    }
    return best.squareRoot()
  }

  /// The curve's tight bounding box, found without `curveBounds`: each corner's extremes
  /// along each axis by golden-section search (plus its ends).
  static func tightBounds(_ polygon: RoundedPolygon) -> Rect {
    var box = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    for segment in polygon.segments {
      guard case .quad(let a, let c, let b) = segment else { continue }
      let q = ExactReference.Quad(p0: a, p1: c, p2: b)
      box.minX = min(box.minX, ExactReference.goldenMinimum(0, 1) { q.point($0).x })
      box.minY = min(box.minY, ExactReference.goldenMinimum(0, 1) { q.point($0).y })
      box.maxX = max(box.maxX, -ExactReference.goldenMinimum(0, 1) { -q.point($0).x })
      box.maxY = max(box.maxY, -ExactReference.goldenMinimum(0, 1) { -q.point($0).y })
    }
    return box
  }
}

/// docs/design.md, The shape and Placement: the rounded polygon's path and its placement.
@Suite("Geometry facts of docs/design.md, The shape")
struct GeometryTests {
  /// One unplaced polygon: canvas side, line width, sides, corner radius, rotation (radians).
  struct Shape: Sendable, CustomTestStringConvertible {
    var side: Double
    var line: Double
    var sides: Int
    var corner: Double
    var rotation: Double

    var testDescription: String {
      "S=\(side) w=\(line) n=\(sides) r=\(corner) φ=\(rotation)"
    }

    var polygon: RoundedPolygon {
      RoundedPolygon(
        canvasSide: side, lineWidth: line, sides: sides, cornerRadius: corner, rotation: rotation)
    }

    var maximum: Double {
      RoundedPolygon.maximumCornerRadius(canvasSide: side, lineWidth: line, sides: sides)
    }
  }

  /// Fixed shapes (the seed's hexagon, sharp and maximal corners, quarter turns) and
  /// seeded random ones.
  static let shapes: [Shape] = {
    let max = { (s: Double, w: Double, n: Int) in
      RoundedPolygon.maximumCornerRadius(canvasSide: s, lineWidth: w, sides: n)
    }
    var list = [
      Shape(side: 256, line: 5, sides: 6, corner: 10, rotation: .pi / 2),
      Shape(side: 100, line: 0, sides: 3, corner: 0, rotation: 0),
      Shape(side: 100, line: 10, sides: 4, corner: max(100, 10, 4), rotation: .pi),
      Shape(side: 2000, line: 300, sides: 64, corner: max(2000, 300, 64), rotation: 3 * .pi / 2),
      Shape(side: 16, line: 2, sides: 5, corner: 1, rotation: -.pi / 2),
      Shape(side: 1, line: 0.125, sides: 6, corner: max(1, 0.125, 6), rotation: .pi / 2),
      Shape(side: 999, line: 0, sides: 64, corner: 0, rotation: 0.1),
    ]
    var rng = SplitMix64(seed: 0x6E0_0001)
    for _ in 0..<40 {
      let side = Double(rng.int(in: 1...3000))
      let line = rng.unit() < 0.2 ? 0 : side * 0.9 * rng.unit()
      let sides = rng.int(in: 3...64)
      let fraction = [0, 1, 0.01 + 0.99 * rng.unit()][rng.int(in: 0...2)]
      let rotation =
        rng.unit() < 0.3 ? Double(rng.int(in: -4...4)) * .pi / 2 : 20 * rng.unit() - 10
      let corner = fraction * max(side, line, sides)
      list.append(Shape(side: side, line: line, sides: sides, corner: corner, rotation: rotation))
    }
    return list
  }()

  @Test(
    "path is closed, alternates lines and corners, and is tangent-continuous", arguments: shapes)
  func closedAndSmooth(_ shape: Shape) {
    let segments = shape.polygon.segments
    let tolerance = 1e-9 * shape.side
    #expect(segments.count == 2 * shape.sides)
    for (k, segment) in segments.enumerated() {
      let next = segments[(k + 1) % segments.count]
      #expect((segment.end - next.start).length <= tolerance, "gap after segment \(k)")
      switch segment {
      case .line: #expect(k % 2 == 0)
      case .quad: #expect(k % 2 == 1)
      }
    }
    guard shape.corner > 0 else { return }
    func unit(_ v: Point) -> Point { v * (1 / v.length) }
    func parallel(_ u: Point, _ v: Point, _ what: String) {
      let a = unit(u)
      let b = unit(v)
      #expect(abs(a.cross(b)) <= 1e-9 && a.dot(b) > 0, "\(what): \(a) vs \(b)")
    }
    for k in 0..<shape.sides {
      guard
        case .quad(_, let c0, let b0) = segments[(2 * k + 2 * shape.sides - 1) % segments.count],
        case .line(let from, let to) = segments[2 * k],
        case .quad(let a1, let c1, _) = segments[2 * k + 1]
      else {
        Issue.record("unexpected segment kinds")
        return
      }
      let incoming = b0 - c0  // the previous corner's end tangent
      let outgoing = c1 - a1  // the next corner's start tangent
      if (to - from).length > 1e-9 * shape.side {
        parallel(to - from, incoming, "side \(k) vs the corner before")
        parallel(to - from, outgoing, "side \(k) vs the corner after")
      } else {
        parallel(incoming, outgoing, "corners meeting at empty side \(k)")
      }
    }
  }

  @Test("each straight side has length (R − 2r)·2·sin(θ/2)", arguments: shapes)
  func sideLength(_ shape: Shape) {
    let polygon = shape.polygon
    let big = GeometryFacts.circumradius(
      side: shape.side, line: shape.line, sides: shape.sides, corner: shape.corner)
    #expect(abs(polygon.circumradius - big) <= 1e-12 * shape.side)
    let expected = (big - 2 * shape.corner) * 2 * sin(Double.pi / Double(shape.sides))
    for segment in polygon.segments {
      guard case .line(let a, let b) = segment else { continue }
      #expect(abs((b - a).length - expected) <= 1e-9 * shape.side, "side \(a)→\(b)")
    }
  }

  @Test("the farthest curve points lie at (S − w)/2, at the corners' midpoints", arguments: shapes)
  func farthestPoints(_ shape: Shape) {
    let polygon = shape.polygon
    let center = Point(x: shape.side / 2, y: shape.side / 2)
    let radius = (shape.side - shape.line) / 2
    let tolerance = 1e-9 * shape.side
    let count = 4096
    var farthest = 0.0
    for segment in polygon.segments {
      guard case .quad(let a, let c, let b) = segment else {
        farthest = max(farthest, (segment.start - center).length, (segment.end - center).length)
        continue
      }
      let q = ExactReference.Quad(p0: a, p1: c, p2: b)
      var best = 0
      var distances: [Double] = []
      for k in 0...count {
        distances.append((q.point(Double(k) / Double(count)) - center).length)
        if distances[k] > distances[best] { best = k }
      }
      farthest = max(farthest, distances[best])
      let middle = distances[count / 2]
      #expect(abs(middle - radius) <= tolerance, "corner midpoint at \(middle), not \(radius)")
      #expect(middle >= distances[best] - 1e-12 * shape.side)
      if shape.corner > 1e-3 {
        #expect(
          abs(best - count / 2) <= 1, "farthest sample at t = \(Double(best) / Double(count))")
      }
    }
    #expect(abs(farthest - radius) <= tolerance)
  }

  @Test("the path is convex and turns once", arguments: shapes)
  func convex(_ shape: Shape) {
    let points = GeometryFacts.flatten(shape.polygon, perCorner: 256)
    var edges: [Point] = []
    for k in points.indices {
      let e = points[(k + 1) % points.count] - points[k]
      if e.length > 1e-9 * shape.side { edges.append(e) }
    }
    var turning = 0.0
    var wrongWay = 0
    for k in edges.indices {
      let a = edges[k]
      let b = edges[(k + 1) % edges.count]
      if a.cross(b) < -1e-12 * a.length * b.length { wrongWay += 1 }
      turning += atan2(a.cross(b), a.dot(b))
    }
    #expect(wrongWay == 0)
    #expect(abs(turning - 2 * .pi) <= 1e-9)
  }

  @Test("maximum corner radius is (S − w)/(3 + cos θ), which makes R = 2r", arguments: shapes)
  func maximumCorner(_ shape: Shape) {
    let theta = 2 * Double.pi / Double(shape.sides)
    let expected = (shape.side - shape.line) / (3 + cos(theta))
    #expect(abs(shape.maximum - expected) <= 1e-12 * shape.side)
    var atMaximum = shape
    atMaximum.corner = shape.maximum
    let polygon = atMaximum.polygon
    #expect(abs(polygon.circumradius - 2 * shape.maximum) <= 1e-12 * shape.side)
    for segment in polygon.segments {
      if case .line(let a, let b) = segment { #expect((b - a).length <= 1e-9 * shape.side) }
    }
  }

  /// Options for placement checks: random sizes, sides, rotations, corners, lines.
  static let placements: [RenderOptionsCase] = {
    var rng = SplitMix64(seed: 0x6E0_0002)
    var list: [RenderOptionsCase] = [
      RenderOptionsCase(side: 256, sides: 6, degrees: 90, corner: nil, line: nil),
      RenderOptionsCase(side: 16, sides: 6, degrees: 90, corner: nil, line: nil),
      RenderOptionsCase(side: 1, sides: 3, degrees: 0, corner: nil, line: nil),
      RenderOptionsCase(side: 501, sides: 5, degrees: 180, corner: 0, line: 20),
    ]
    for _ in 0..<30 {
      let side = rng.int(in: 1...2000)
      let line = rng.unit() < 0.2 ? nil : Double(side) * 0.8 * rng.unit()
      let sides = rng.int(in: 3...64)
      let degrees = rng.unit() < 0.3 ? Double(90 * rng.int(in: -4...4)) : 1000 * rng.unit() - 500
      let resolved = line ?? min(HexMask.Shape.defaultLine, Double(side) / 8)
      let maximum = RoundedPolygon.maximumCornerRadius(
        canvasSide: Double(side), lineWidth: resolved, sides: sides)
      let corner: Double? =
        rng.unit() < 0.2 ? nil : maximum * [0, 1, rng.unit()][rng.int(in: 0...2)]
      list.append(
        RenderOptionsCase(side: side, sides: sides, degrees: degrees, corner: corner, line: line))
    }
    return list
  }()

  struct RenderOptionsCase: Sendable, CustomTestStringConvertible {
    var side: Int
    var sides: Int
    var degrees: Double
    var corner: Double?
    var line: Double?

    var testDescription: String {
      "S=\(side) n=\(sides) rot=\(degrees)° corner=\(corner.map { "\($0)" } ?? "default") "
        + "line=\(line.map { "\($0)" } ?? "default")"
    }

    func shape(_ layout: Layout) throws -> MaskShape {
      var options = HexMask.Shape()
      options.sides = sides
      options.rotationDegrees = degrees
      options.cornerRadius = corner
      options.lineWidth = line
      options.layout = layout
      return try MaskShape(options, canvasSide: side)
    }
  }

  @Test("centred layout centres the curve's tight box, and the border fits", arguments: placements)
  func centredLayout(_ c: RenderOptionsCase) throws {
    let shape = try c.shape(.centered)
    let side = Double(c.side)
    let tolerance = 1e-9 * max(1, side)
    let box = GeometryFacts.tightBounds(shape.polygon)
    #expect(abs(box.center.x - side / 2) <= tolerance && abs(box.center.y - side / 2) <= tolerance)
    let claimed = shape.polygon.curveBounds
    #expect(abs(claimed.minX - box.minX) <= tolerance && abs(claimed.maxX - box.maxX) <= tolerance)
    #expect(abs(claimed.minY - box.minY) <= tolerance && abs(claimed.maxY - box.maxY) <= tolerance)
    // Every point of the border, within w/2 of the curve, is on the canvas.
    let half = shape.lineWidth / 2
    #expect(box.minX - half >= -tolerance && box.minY - half >= -tolerance)
    #expect(box.maxX + half <= side + tolerance && box.maxY + half <= side + tolerance)
  }

  @Test("seed layout puts the control-point box's origin at (w/2, w/2)", arguments: placements)
  func seedLayout(_ c: RenderOptionsCase) throws {
    let shape = try c.shape(.seed)
    var points: [Point] = []
    for segment in shape.polygon.segments {
      switch segment {
      case .line(let a, let b): points += [a, b]
      case .quad(let a, let control, let b): points += [a, control, b]
      }
    }
    let box = Rect(enclosing: points)
    let half = shape.lineWidth / 2
    let tolerance = 1e-9 * max(1, Double(c.side))
    #expect(abs(box.minX - half) <= tolerance && abs(box.minY - half) <= tolerance)
    #expect(abs(shape.polygon.controlBounds.minX - half) <= tolerance)
    #expect(abs(shape.polygon.controlBounds.minY - half) <= tolerance)
  }

  @Test(
    "a corner above the maximum is refused, naming the maximum",
    arguments: [(256, 6, 5.0), (16, 3, 0.0), (1000, 64, 100.0), (3, 4, 0.5)],
    [1 + 1e-6, 1.01, 2.0])
  func cornerTooLarge(config: (side: Int, sides: Int, line: Double), factor: Double) throws {
    let (side, sides, line) = config
    let maximum = RoundedPolygon.maximumCornerRadius(
      canvasSide: Double(side), lineWidth: line, sides: sides)
    var options = HexMask.Shape()
    options.sides = sides
    options.lineWidth = line
    options.cornerRadius = maximum * factor
    let error = #expect(throws: ShapeError.self) {
      _ = try MaskShape(options, canvasSide: side)
    }
    guard case .cornerTooLarge(_, let named, let canvas)? = error else {
      Issue.record("expected cornerTooLarge, got \(String(describing: error))")
      return
    }
    #expect(abs(named - maximum) <= 1e-12 * Double(side))
    #expect(canvas == side)
    // Exactly the maximum is accepted.
    options.cornerRadius = maximum
    #expect(throws: Never.self) { _ = try MaskShape(options, canvasSide: side) }
  }

  @Test("defaults work on a 16 px canvas and fit", arguments: 3...64)
  func defaultsOnSixteenPixels(sides: Int) throws {
    var options = HexMask.Shape()
    options.sides = sides
    for layout in Layout.allCases {
      options.layout = layout
      #expect(throws: Never.self) { _ = try MaskShape(options, canvasSide: 16) }
    }
    options.layout = .centered
    let shape = try MaskShape(options, canvasSide: 16)
    #expect(shape.lineWidth > 0 && shape.polygon.cornerRadius > 0)
    let box = GeometryFacts.tightBounds(shape.polygon)
    let half = shape.lineWidth / 2
    #expect(box.minX - half >= -1e-9 && box.minY - half >= -1e-9)
    #expect(box.maxX + half <= 16 + 1e-9 && box.maxY + half <= 16 + 1e-9)
  }
}

@Suite struct HugeValueShapeTests {
  /// Whole turns come off exactly in degrees, so a huge angle is its remainder: 1e16° is
  /// 280°, where multiplying by π/180 first left the angle to rounding.
  @Test(arguments: [
    (1e16, 280.0), (-1e16, -280.0), (1e308, 296.0), (-1e308, -296.0),
    (.greatestFiniteMagnitude, 128.0), (720, 0), (-0.0, 0),
  ])
  func aHugeRotationIsItsRemainder(degrees: Double, remainder: Double) throws {
    var huge = HexMask.Shape()
    huge.rotationDegrees = degrees
    var small = HexMask.Shape()
    small.rotationDegrees = remainder
    let shape = try MaskShape(huge, canvasSide: 64)
    #expect(shape == (try MaskShape(small, canvasSide: 64)))
    #expect(shape.polygon.segments.allSatisfy { $0.start.x.isFinite && $0.start.y.isFinite })
  }

  @Test func aHugeLineIsRefusedNamingTheLimit() {
    var options = HexMask.Shape()
    options.lineWidth = 1e308
    #expect(throws: ShapeError.lineTooWide(1e308, canvasSide: 32)) {
      try MaskShape(options, canvasSide: 32)
    }
  }

  /// 1e308 % of a canvas is more than a `Double` holds: it is refused as the largest one.
  @Test func aPercentageBeyondDoubleIsRefusedWithANumber() {
    var options = HexMask.Shape()
    options.corner = .percent(1e308)
    options.line = .percent(0)
    let error = #expect(throws: ShapeError.self) {
      try MaskShape(options, canvasSide: 65500)
    }
    guard case .cornerTooLarge(let corner, _, _)? = error else {
      Issue.record("expected cornerTooLarge, got \(String(describing: error))")
      return
    }
    #expect(corner == .greatestFiniteMagnitude)
  }
}

/// Public entry points given values no command line can produce end without a trap.
@Suite struct NonFiniteGeometryTests {
  @Test func aPolygonWithANonFinitePointIsLeftOut() {
    var raster = ScanlineRasterizer(width: 8)
    raster.add(polygon: [Point(x: 1, y: 1), Point(x: .nan, y: 2), Point(x: 6, y: 6)])
    raster.add(polygon: [Point(x: -.infinity, y: 1), Point(x: 4, y: 2), Point(x: 6, y: 6)])
    var row = [Float](repeating: 1, count: 8)
    raster.coverage(row: 2, into: &row)
    #expect(row == [Float](repeating: 0, count: 8))
  }

  @Test(arguments: [Double.nan, -1])
  func aToleranceThatIsNoPositiveNumberStillDraws(tolerance: Double) throws {
    let shape = try MaskShape(HexMask.Shape(), canvasSide: 32)
    var coverage = ShapeCoverage(shape: shape, tolerance: tolerance)
    var row = CoverageRow(width: 32)
    coverage.row(16, into: &row)
    #expect(row.fill[16] == 1)
  }
}

@Suite struct PercentLengthTests {
  @Test func percentagesAreOfTheCanvasSide() throws {
    var options = HexMask.Shape()
    options.corner = .percent(8)
    options.line = .percent(2)
    let shape = try MaskShape(options, canvasSide: 500)
    #expect(shape.lineWidth == 10)
    #expect(shape.polygon.cornerRadius == 40)
  }

  @Test func aTooLargePercentageIsAUsageErrorInPixels() {
    var options = HexMask.Shape()
    options.corner = .percent(60)
    let error = #expect(throws: ShapeError.self) { try MaskShape(options, canvasSide: 100) }
    // 60 % of a 100 px canvas, in pixels: the corner it names is 60 px.
    guard case .cornerTooLarge(let corner, _, let side)? = error else {
      Issue.record("not a corner too large: \(String(describing: error))")
      return
    }
    #expect(corner == 60 && side == 100)
  }
}
