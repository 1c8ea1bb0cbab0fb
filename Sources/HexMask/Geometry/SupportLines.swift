#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The half-plane `normal · p ≤ offset`; `normal` is a unit vector pointing out of the shape.
struct SupportLine: Equatable, Sendable {
  var normal: Point
  var offset: Double

  /// The line moved outward by `distance` (inward when negative).
  func moved(by distance: Double) -> SupportLine {
    SupportLine(normal: normal, offset: offset + distance)
  }

  /// Where this line meets `other`; `nil` when they are parallel.
  func intersection(with other: SupportLine) -> Point? {
    let det = normal.cross(other.normal)
    guard det != 0 else { return nil }
    return Point(
      x: (offset * other.normal.y - other.offset * normal.y) / det,
      y: (normal.x * other.offset - other.normal.x * offset) / det)
  }

  /// True when `p` lies strictly outside, beyond a rounding allowance.
  func excludes(_ p: Point) -> Bool { normal.dot(p) > offset + 1e-9 }
}

extension RoundedPolygon {
  /// Support lines of the filled shape in order of increasing normal angle, one full turn.
  ///
  /// A convex region is the intersection of its support half-planes, and moving every
  /// line by `d` gives exactly the region dilated (`d > 0`) or eroded (`d < 0`) by a disk:
  /// that is how the border's outer and inner edges are built from one description. With
  /// `r = 0` the lines are the n sides, so moving them gives mitred corners.
  ///
  /// Each corner's curve is sampled by equal steps of its normal angle, fine enough that
  /// the polygon bounded by the lines, after moving them by up to `maxOffset`, lies
  /// within `tolerance` px of the true curve (a tangent polygon with turn `δ` on radius
  /// `ρ` stands off by `ρ·(sec(δ/2) − 1) ≈ ρδ²/8`).
  ///
  /// - Complexity: O(n·m), m the samples per corner, about `θ·√(ρ/(8·tolerance))`.
  func supportLines(tolerance: Double, maxOffset: Double) -> [SupportLine] {
    let theta = turn
    let r = cornerRadius
    // The corner curve is flattest at its ends, where its radius of curvature is 2r/cos(θ/2).
    let steps: Int
    if r > 0 {
      let radius = 2 * r / cos(theta / 2) + max(0, maxOffset)
      let step = (8 * tolerance / radius).squareRoot()
      // A tolerance that is not a number (or is negative) gives NaN, which Int(_:) traps on:
      // one line per corner then, as for sharp corners.
      let wanted = (theta / step).rounded(.up)
      steps = wanted.isNaN ? 1 : Int(min(wanted, Double(1 << 20)))
    } else {
      steps = 1
    }
    var lines: [SupportLine] = []
    lines.reserveCapacity(sides * max(1, steps))
    for (i, curve) in corners.enumerated() {
      let angle = rotation + Double(i + 1) * theta
      let incoming = curve.tip - curve.start
      let outgoing = curve.end - curve.tip
      for j in 0..<max(1, steps) {
        let normal = Point.unit(
          angle: angle - theta / 2 + Double(j) * theta / Double(max(1, steps)))
        // The curve's tangent is (1−t)·incoming + t·outgoing; it is perpendicular to
        // `normal` at the support point.
        let a = normal.dot(incoming)
        let b = normal.dot(outgoing)
        let t = a == b ? 0 : min(1, max(0, a / (a - b)))
        lines.append(SupportLine(normal: normal, offset: normal.dot(curve.point(at: t))))
      }
    }
    return lines
  }
}

/// The convex polygon where all `lines` (sorted by normal angle over one turn) overlap.
/// Returns no points when they have nothing in common, as when a border is wider than the
/// shape it erodes.
///
/// - Complexity: O(n) in the number of lines (the usual deque sweep).
func intersectHalfPlanes(_ lines: [SupportLine]) -> [Point] {
  var kept: [SupportLine] = []
  var head = 0
  func cornerOfLastTwo() -> Point? { kept[kept.count - 2].intersection(with: kept[kept.count - 1]) }
  func cornerOfFirstTwo() -> Point? { kept[head].intersection(with: kept[head + 1]) }

  for line in lines {
    while kept.count - head >= 2, let p = cornerOfLastTwo(), line.excludes(p) { kept.removeLast() }
    while kept.count - head >= 2, let p = cornerOfFirstTwo(), line.excludes(p) { head += 1 }
    kept.append(line)
  }
  while kept.count - head >= 3, let p = cornerOfLastTwo(), kept[head].excludes(p) {
    kept.removeLast()
  }
  while kept.count - head >= 3, let p = cornerOfFirstTwo(), kept[kept.count - 1].excludes(p) {
    head += 1
  }

  let active = Array(kept[head...])
  guard active.count >= 3 else { return [] }
  var polygon: [Point] = []
  polygon.reserveCapacity(active.count)
  for i in active.indices {
    guard let p = active[i].intersection(with: active[(i + 1) % active.count]) else { return [] }
    polygon.append(p)
  }
  // An empty intersection can leave lines whose corners wind the wrong way.
  return signedArea(polygon) > 1e-12 ? polygon : []
}

/// Twice-signed-area / 2 by the shoelace formula; positive for increasing-angle order.
func signedArea(_ polygon: [Point]) -> Double {
  var sum = 0.0
  for i in polygon.indices {
    sum += polygon[i].cross(polygon[(i + 1) % polygon.count])
  }
  return sum / 2
}
