import Foundation

@testable import HexMask

/// An exact coverage reference that shares no code with the rasterizer: no support lines,
/// no half-plane intersection, no scanline cells.
///
/// The fill, the border's outer edge and its inner edge are each one polygon built from
/// `RoundedPolygon.segments` alone, within a few 1e-7 px of the true curves. A pixel's
/// coverage is the area of that polygon clipped (Sutherland–Hodgman) to the pixel square,
/// by the shoelace formula; the border is outer minus inner. Polygons are first bucketed
/// by row so that only the edges crossing a row take part in its clipping, and a row is
/// cut into pixels by halving (each piece still a Sutherland–Hodgman clip), which keeps
/// the whole reference exact while costing O((edges + width)·log width) per row.
///
/// Scope: corner radii above about 1e-9 of the canvas side. Below that, a corner's
/// control points differ by less than their rounding and the normals taken from its
/// derivative are noise, so the border's reference edges are not exact there.
///
/// Everything lives in this namespace so that other test files may use the same short
/// names freely.
enum ExactReference {}

// MARK: - Curves

extension ExactReference {
  /// A quadratic Bézier, evaluated independently of `RoundedPolygon.Corner`.
  struct Quad {
    var p0: Point
    var p1: Point
    var p2: Point

    func point(_ t: Double) -> Point {
      let s = 1 - t
      return p0 * (s * s) + p1 * (2 * s * t) + p2 * (t * t)
    }

    func derivative(_ t: Double) -> Point { ((p1 - p0) * (1 - t) + (p2 - p1) * t) * 2 }

    /// The unit normal pointing out of a positively oriented (increasing-angle) outline.
    func normal(_ t: Double) -> Point {
      let d = derivative(t)
      let length = d.length
      return Point(x: d.y / length, y: -d.x / length)
    }

    /// Uniform-t steps so that chords of the curve offset by `offset` along its normal stay
    /// within `tolerance` of it. A chord spanning a normal turn `δ` on radius `ρ` stands
    /// off by `δ²ρ/8`; with `ρ ± offset` and `δ = θ'(t)·h` that is at most
    /// `h²·(|B'×B''|/|B'| + offset·θ'²)/8`, largest where `|B'|` is smallest.
    func steps(offset: Double, tolerance: Double) -> Int {
      let u = p1 - p0
      let v = (p2 - p1) - u
      let cross = 4 * abs(u.cross(v))  // |B' × B''|, constant for a quadratic
      let vv = v.dot(v)
      let tMin = vv > 0 ? min(1, max(0, -u.dot(v) / vv)) : 0
      let minSpeed = 2 * (u + v * tMin).length
      guard minSpeed > 0, cross > 0 else { return 1 }
      let turnRate = cross / (minSpeed * minSpeed)
      let bound = cross / minSpeed + abs(offset) * turnRate * turnRate
      let h = (8 * tolerance / bound).squareRoot()
      return Int(min(2_000_000, max(2, (1 / h).rounded(.up))))
    }

    /// Squared distance from `p` to the curve: 32 samples, then a golden-section search
    /// around every sampled local minimum (a quartic in t has at most two).
    func distanceSquared(to p: Point) -> Double {
      let count = 32
      var values = [Double](repeating: 0, count: count + 1)
      for k in 0...count {
        let q = point(Double(k) / Double(count)) - p
        values[k] = q.dot(q)
      }
      var best = values.min()!
      for k in 0...count {
        let left = k == 0 ? Double.infinity : values[k - 1]
        let right = k == count ? Double.infinity : values[k + 1]
        guard values[k] <= left && values[k] <= right else { continue }
        let a = Double(max(0, k - 1)) / Double(count)
        let b = Double(min(count, k + 1)) / Double(count)
        best = min(
          best,
          goldenMinimum(a, b) { t in
            let q = point(t) - p
            return q.dot(q)
          })
      }
      return best
    }
  }

  /// The smallest value of `f` on [a, b] found by golden-section search (exact for
  /// unimodal `f`, and never worse than the end points).
  static func goldenMinimum(_ a: Double, _ b: Double, _ f: (Double) -> Double) -> Double {
    let g = (5.0.squareRoot() - 1) / 2
    var a = a
    var b = b
    var c = b - g * (b - a)
    var d = a + g * (b - a)
    var fc = f(c)
    var fd = f(d)
    let ends = min(f(a), f(b))
    for _ in 0..<70 {
      if fc < fd {
        b = d
        d = c
        fd = fc
        c = b - g * (b - a)
        fc = f(c)
      } else {
        a = c
        c = d
        fc = fd
        d = a + g * (b - a)
        fd = f(d)
      }
    }
    return min(ends, fc, fd)
  }

  /// Squared distance from `p` to the segment `a`–`b`.
  static func segmentDistanceSquared(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let ab = b - a
    let length2 = ab.dot(ab)
    let t = length2 > 0 ? min(1, max(0, (p - a).dot(ab) / length2)) : 0
    let q = a + ab * t - p
    return q.dot(q)
  }

  /// The outline as lines and quads with their control boxes, for distance queries.
  struct Outline {
    enum Piece {
      case line(Point, Point)
      case quad(Quad)
    }

    var pieces: [Piece] = []
    var boxes: [Rect] = []
    /// Rounding allowance for distances: coordinates of this size carry about 1e-16 of
    /// relative error, so tiny borders cannot be judged more finely than this.
    var slack = 0.0

    init(_ segments: [PathSegment]) {
      for segment in segments {
        switch segment {
        case .line(let a, let b):
          pieces.append(.line(a, b))
          boxes.append(Rect(enclosing: [a, b]))
        case .quad(let a, let c, let b):
          pieces.append(.quad(Quad(p0: a, p1: c, p2: b)))
          boxes.append(Rect(enclosing: [a, c, b]))
        }
      }
      let size = boxes.map { max(abs($0.minX), abs($0.maxX), abs($0.minY), abs($0.maxY)) }.max()
      slack = 1e-12 * max(1, size ?? 1)
    }

    /// True when every point of the outline is at least `distance` from `p` (less a relative
    /// 1e-9 and the rounding `slack`). Pieces whose box is farther than `distance + 1`
    /// cannot be closer and are skipped.
    func isClear(_ p: Point, by distance: Double) -> Bool {
      let limit = distance + 1
      let threshold = distance - max(distance * 1e-9, slack)
      let threshold2 = threshold * threshold
      for (piece, box) in zip(pieces, boxes) {
        let dx = max(box.minX - p.x, 0, p.x - box.maxX)
        let dy = max(box.minY - p.y, 0, p.y - box.maxY)
        if dx > limit || dy > limit || dx * dx + dy * dy > limit * limit { continue }
        let d2: Double
        switch piece {
        case .line(let a, let b): d2 = segmentDistanceSquared(p, a, b)
        case .quad(let q): d2 = q.distanceSquared(to: p)
        }
        if d2 < threshold2 { return false }
      }
      return true
    }
  }
}

// MARK: - Reference polygons

extension ExactReference {
  /// The fill and the two edges of the border of one placed shape, as polygons in
  /// increasing-angle order (positive shoelace area).
  struct Shape {
    var fill: [Point] = []
    /// Border outer edge; empty without a border.
    var outer: [Point] = []
    /// Border inner edge; empty when the border swallows the inside.
    var inner: [Point] = []

    init(_ shape: MaskShape, tolerance: Double = 2.5e-7) {
      let polygon = shape.polygon
      let segments = polygon.segments
      let half = shape.lineWidth / 2

      // Fill: the path flattened at uniform t, an inscribed polygon.
      for segment in segments {
        switch segment {
        case .line(let a, _): fill.append(a)
        case .quad(let a, let c, let b):
          let q = Quad(p0: a, p1: c, p2: b)
          let n = q.steps(offset: 0, tolerance: tolerance)
          for j in 0..<n { fill.append(q.point(Double(j) / Double(n))) }
        }
      }
      guard half > 0 else { return }

      let theta = 2 * Double.pi / Double(polygon.sides)
      if polygon.cornerRadius == 0 {
        // Sharp corners: the dilation with mitred joins and the erosion are both regular
        // polygons, their sides moved by w/2, so their tips by (w/2)/cos(θ/2).
        let tips = segments.compactMap { segment -> Point? in
          if case .quad(_, let tip, _) = segment { return tip }
          return nil
        }
        let center = polygon.center
        let radius = tips.map { ($0 - center).length }.reduce(0, +) / Double(tips.count)
        let shift = half / cos(theta / 2)
        outer = tips.map { center + ($0 - center) * ((radius + shift) / radius) }
        if radius - shift > 0 {
          inner = tips.map { center + ($0 - center) * ((radius - shift) / radius) }
        }
        return
      }

      let scale = max(1, polygon.circumradius)
      func lineNormal(_ a: Point, _ b: Point) -> Point? {
        let d = b - a
        let length = d.length
        guard length > 1e-9 * scale else { return nil }
        return Point(x: d.y / length, y: -d.x / length)
      }

      // Outer edge: the path offset outward, convex and simple for a convex smooth curve.
      for segment in segments {
        switch segment {
        case .line(let a, let b):
          guard let n = lineNormal(a, b) else { continue }
          outer.append(a + n * half)
          outer.append(b + n * half)
        case .quad(let a, let c, let b):
          let q = Quad(p0: a, p1: c, p2: b)
          let steps = q.steps(offset: half, tolerance: tolerance)
          for j in 0...steps {
            let t = Double(j) / Double(steps)
            outer.append(q.point(t) + q.normal(t) * half)
          }
        }
      }

      // Inner edge: the path offset inward, keeping only the points whose whole disk of
      // radius w/2 stays inside (the erosion's boundary); near tight corners the offset
      // forms swallow-tail loops whose points are closer to another part of the outline.
      // All sides and all corners are congruent, so the kept parameter ranges of the
      // first side and first corner hold for every one; each range's ends are found by
      // bisection, so the erosion's sharp corners are exact.
      let outline = Outline(segments)
      func clear(_ p: Point) -> Bool { outline.isClear(p, by: half) }
      func bisect(valid: Double, invalid: Double, _ point: (Double) -> Point) -> Double {
        var valid = valid
        var invalid = invalid
        for _ in 0..<64 {
          let middle = (valid + invalid) / 2
          if clear(point(middle)) { valid = middle } else { invalid = middle }
        }
        return valid
      }

      // The side: the kept set is an interval (the erosion is convex) symmetric about the
      // side's middle, so it is empty unless the middle is kept.
      var sideRange: ClosedRange<Double>? = nil
      if case .line(let a, let b) = segments[0], let n = lineNormal(a, b) {
        let point = { (s: Double) in a + (b - a) * s - n * half }
        if clear(point(0.5)) {
          let low = clear(point(0)) ? 0 : bisect(valid: 0.5, invalid: 0, point)
          let high = clear(point(1)) ? 1 : bisect(valid: 0.5, invalid: 1, point)
          sideRange = low...high
        }
      }
      // The corner: sample the kept set, then bisect every change.
      var cornerRanges: [ClosedRange<Double>] = []
      if case .quad(let a, let c, let b) = segments[1] {
        let q = Quad(p0: a, p1: c, p2: b)
        let point = { (t: Double) in q.point(t) - q.normal(t) * half }
        let count = 512
        let kept = (0...count).map { clear(point(Double($0) / Double(count))) }
        var start: Double? = kept[0] ? 0 : nil
        for k in 1...count {
          let t0 = Double(k - 1) / Double(count)
          let t1 = Double(k) / Double(count)
          if kept[k] && !kept[k - 1] {
            start = bisect(valid: t1, invalid: t0, point)
          } else if !kept[k] && kept[k - 1], let s = start {
            cornerRanges.append(s...bisect(valid: t0, invalid: t1, point))
            start = nil
          }
        }
        if let s = start { cornerRanges.append(s...1) }
      }

      var points: [Point] = []
      for segment in segments {
        switch segment {
        case .line(let a, let b):
          guard let range = sideRange, let n = lineNormal(a, b) else { continue }
          points.append(a + (b - a) * range.lowerBound - n * half)
          points.append(a + (b - a) * range.upperBound - n * half)
        case .quad(let a, let c, let b):
          let q = Quad(p0: a, p1: c, p2: b)
          let steps = q.steps(offset: half, tolerance: tolerance)
          for range in cornerRanges {
            points.append(q.point(range.lowerBound) - q.normal(range.lowerBound) * half)
            let first = Int((range.lowerBound * Double(steps)).rounded(.down)) + 1
            let last = Int((range.upperBound * Double(steps)).rounded(.up)) - 1
            if first <= last {
              for j in first...last {
                let t = Double(j) / Double(steps)
                points.append(q.point(t) - q.normal(t) * half)
              }
            }
            points.append(q.point(range.upperBound) - q.normal(range.upperBound) * half)
          }
        }
      }
      inner = ExactReference.convexHull(points)
    }
  }

  /// Andrew's monotone chain; the hull in increasing-angle order, or no points when it
  /// has no area.
  static func convexHull(_ points: [Point]) -> [Point] {
    guard points.count >= 3 else { return [] }
    let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
    var hull: [Point] = []
    hull.reserveCapacity(sorted.count / 2)
    func turn(_ a: Point, _ b: Point, _ c: Point) -> Double { (b - a).cross(c - b) }
    for p in sorted {
      while hull.count >= 2 && turn(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 {
        hull.removeLast()
      }
      hull.append(p)
    }
    let lowerCount = hull.count + 1
    for p in sorted.reversed().dropFirst() {
      while hull.count >= lowerCount && turn(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 {
        hull.removeLast()
      }
      hull.append(p)
    }
    hull.removeLast()
    return hull.count >= 3 ? hull : []
  }
}

// MARK: - Clipping and areas

extension ExactReference {
  /// Sutherland–Hodgman against the line `x = c` (or `y = c`): the parts at or below `c`
  /// and at or above it.
  static func split(_ polygon: [Point], at c: Double, vertical: Bool) -> (
    below: [Point], above: [Point]
  ) {
    var below: [Point] = []
    var above: [Point] = []
    guard polygon.count >= 3 else { return (below, above) }
    below.reserveCapacity(polygon.count + 2)
    above.reserveCapacity(polygon.count + 2)
    var a = polygon[polygon.count - 1]
    var ka = vertical ? a.x : a.y
    for b in polygon {
      let kb = vertical ? b.x : b.y
      if (ka < c && kb > c) || (ka > c && kb < c) {
        let t = (c - ka) / (kb - ka)
        let crossing =
          vertical
          ? Point(x: c, y: a.y + (b.y - a.y) * t)
          : Point(x: a.x + (b.x - a.x) * t, y: c)
        below.append(crossing)
        above.append(crossing)
      }
      if kb <= c { below.append(b) }
      if kb >= c { above.append(b) }
      a = b
      ka = kb
    }
    return (below, above)
  }

  /// Shoelace area, taken relative to the first vertex to keep the digits.
  static func area(_ polygon: [Point]) -> Double {
    guard polygon.count >= 3 else { return 0 }
    let origin = polygon[0]
    var sum = 0.0
    for k in 1..<(polygon.count - 1) {
      sum += (polygon[k] - origin).cross(polygon[k + 1] - origin)
    }
    return abs(sum) / 2
  }

  /// A polygon with its edges bucketed by the pixel rows (0..<height) they cross.
  struct Banded {
    let points: [Point]
    private var rows: [[Int32]]

    init(_ points: [Point], height: Int) {
      self.points = points
      rows = Array(repeating: [], count: height)
      guard points.count >= 3 else { return }
      for i in points.indices {
        let a = points[i]
        let b = points[(i + 1) % points.count]
        let low = min(a.y, b.y)
        let high = max(a.y, b.y)
        guard high >= 0, low < Double(height) else { continue }
        let first = max(0, Int(low.rounded(.down)))
        let last = min(height - 1, Int(high.rounded(.down)))
        for row in first...last { rows[row].append(Int32(i)) }
      }
    }

    /// The polygon clipped to the band `y ≤ · ≤ y + 1`. Only the edges crossing the band
    /// are kept; the runs of edges left out lie wholly above or below it, so the chords
    /// that replace them add nothing inside.
    func band(_ y: Int) -> [Point] {
      let edges = rows[y]
      guard !edges.isEmpty else { return [] }
      var chain: [Point] = []
      chain.reserveCapacity(edges.count + 8)
      var previous = -2
      for e32 in edges {
        let e = Int(e32)
        if e != previous + 1 { chain.append(points[e]) }
        chain.append(points[(e + 1) % points.count])
        previous = e
      }
      let top = ExactReference.split(chain, at: Double(y), vertical: false).above
      return ExactReference.split(top, at: Double(y + 1), vertical: false).below
    }
  }

  /// Areas of `band` inside the pixels `lo..<hi` of its row, written to `out[i − lo]`.
  static func rowAreas(_ band: [Point], lo: Int, hi: Int) -> [Double] {
    var out = [Double](repeating: 0, count: hi - lo)
    let left = split(band, at: Double(lo), vertical: true).above
    let inside = split(left, at: Double(hi), vertical: true).below
    func descend(_ piece: [Point], _ a: Int, _ b: Int) {
      guard piece.count >= 3 else { return }
      if b - a == 1 {
        out[a - lo] = area(piece)
        return
      }
      let middle = (a + b) / 2
      let (l, r) = split(piece, at: Double(middle), vertical: true)
      descend(l, a, middle)
      descend(r, middle, b)
    }
    descend(inside, lo, hi)
    return out
  }

  /// Area of `band` inside pixel column `i`.
  static func pixelArea(_ band: [Point], column i: Int) -> Double {
    let right = split(band, at: Double(i), vertical: true).above
    return area(split(right, at: Double(i + 1), vertical: true).below)
  }
}
