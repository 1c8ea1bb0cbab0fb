#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One piece of a ``RoundedPolygon``'s outline.
package enum PathSegment: Equatable, Sendable {
  case line(from: Point, to: Point)
  /// A quadratic Bézier; for rounded corners the control point is the polygon's tip.
  case quad(from: Point, control: Point, to: Point)

  package var start: Point {
    switch self {
    case .line(let from, _), .quad(let from, _, _): from
    }
  }

  package var end: Point {
    switch self {
    case .line(_, let to), .quad(_, _, let to): to
    }
  }
}

/// A regular polygon whose corners are rounded by quadratic Béziers, exactly as the
/// original iOS article builds its `UIBezierPath` (docs/design.md, The shape).
///
/// The corner "radius" `r` moves each corner's curve ends `r` along the sides from the
/// tip; the tip is the control point. The outline is convex and tangent-continuous, so its
/// stroke needs no joins except when `r = 0` (sharp corners, mitred).
///
/// ```swift
/// let hexagon = RoundedPolygon(canvasSide: 256, lineWidth: 5, sides: 6,
///                              cornerRadius: 10, rotation: .pi / 2)
/// let outline = hexagon.segments   // 6 lines and 6 quads, closed
/// ```
package struct RoundedPolygon: Equatable, Sendable {
  package var sides: Int
  package var cornerRadius: Double
  /// Rotation of the first corner in radians (y down, so π/2 points down).
  package var rotation: Double
  /// Where the polygon is centred; the canvas centre before placement.
  package var center: Point
  /// Distance from `center` to the tips (the control points): `R` in docs/design.md, The
  /// shape.
  package var circumradius: Double

  /// The polygon the seed draws for a `canvasSide` square and a border `lineWidth`:
  /// `R = (S − w + r − r·cos θ) / 2`, so the curve's outermost points lie at `(S − w)/2`.
  package init(
    canvasSide: Double, lineWidth: Double, sides: Int, cornerRadius: Double, rotation: Double
  ) {
    let theta = 2 * Double.pi / Double(sides)
    self.sides = sides
    self.cornerRadius = cornerRadius
    self.rotation = rotation
    self.center = Point(x: canvasSide / 2, y: canvasSide / 2)
    self.circumradius = (canvasSide - lineWidth + cornerRadius - cornerRadius * cos(theta)) / 2
  }

  /// The largest corner radius that leaves every side a straight part of length ≥ 0:
  /// `(S − w) / (3 + cos θ)`, which is `R / 2`.
  package static func maximumCornerRadius(canvasSide: Double, lineWidth: Double, sides: Int)
    -> Double
  {
    max(0, (canvasSide - lineWidth) / (3 + cos(2 * Double.pi / Double(sides))))
  }

  /// The turn at each corner, `θ = 2π/n`.
  package var turn: Double { 2 * Double.pi / Double(sides) }

  /// The corners in drawing order; corner `i` (1…n) sits at angle `rotation + i·θ`.
  package var corners: [Corner] {
    // A stride, not `1...sides`: fewer than one side is no corners rather than a trap
    // (the entry points refuse such shapes first, see `HexMask.validate`).
    stride(from: 1, through: sides, by: 1).map { i in
      Corner(of: self, angle: rotation + Double(i) * turn)
    }
  }

  /// The closed outline, starting where the seed's `moveTo` does: n straight sides, each
  /// followed by the corner it leads into.
  package var segments: [PathSegment] {
    var pen = Corner(of: self, angle: rotation).end
    var path: [PathSegment] = []
    let corners = corners
    path.reserveCapacity(2 * corners.count)
    for corner in corners {
      path.append(.line(from: pen, to: corner.start))
      path.append(.quad(from: corner.start, control: corner.tip, to: corner.end))
      pen = corner.end
    }
    return path
  }

  /// The same polygon moved by `offset`.
  package func translated(by offset: Point) -> RoundedPolygon {
    var moved = self
    moved.center = moved.center + offset
    return moved
  }

  /// The tight bounding box of the curve itself (not its control points).
  package var curveBounds: Rect {
    var points: [Point] = []
    for corner in corners {
      points.append(corner.start)
      points.append(corner.end)
      points.append(contentsOf: corner.axisExtremes)
    }
    return Rect(enclosing: points)
  }

  /// The bounding box including control points, which is what `UIBezierPath.bounds`
  /// returns and what the seed aligns to `(w/2, w/2)`.
  package var controlBounds: Rect {
    Rect(enclosing: corners.flatMap { [$0.start, $0.tip, $0.end] })
  }

  /// One rounded corner: a quadratic Bézier from `start` to `end` with the tip as control.
  package struct Corner: Equatable, Sendable {
    package var start: Point
    package var tip: Point
    package var end: Point

    init(of polygon: RoundedPolygon, angle a: Double) {
      let r = polygon.cornerRadius
      let theta = polygon.turn
      let k = polygon.center + Point.unit(angle: a) * (polygon.circumradius - r)
      start = k + Point.unit(angle: a - theta) * r
      tip = polygon.center + Point.unit(angle: a) * polygon.circumradius
      end = k + Point.unit(angle: a + theta) * r
    }

    /// The point of the curve at parameter `t` in 0…1.
    package func point(at t: Double) -> Point {
      let s = 1 - t
      return start * (s * s) + tip * (2 * s * t) + end * (t * t)
    }

    /// Interior points where the curve is horizontal or vertical (its box extremes).
    var axisExtremes: [Point] {
      var found: [Point] = []
      // Derivative component is linear in t: zero at t = (p0 − p1) / (p0 − 2p1 + p2).
      for (p0, p1, p2) in [(start.x, tip.x, end.x), (start.y, tip.y, end.y)] {
        let denominator = p0 - 2 * p1 + p2
        guard denominator != 0 else { continue }
        let t = (p0 - p1) / denominator
        if t > 0 && t < 1 { found.append(point(at: t)) }
      }
      return found
    }
  }
}
