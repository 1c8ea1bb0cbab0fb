#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A point or vector in canvas pixels; the y axis points down.
///
/// ```swift
/// let p = Point(x: 3, y: 4) + Point.unit(angle: .pi / 2) * 2   // (3, 6)
/// ```
package struct Point: Hashable, Sendable, CustomStringConvertible {
  package var x: Double
  package var y: Double

  package init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  package static let zero = Point(x: 0, y: 0)

  /// The unit vector at `angle` radians from the x axis (clockwise on screen).
  package static func unit(angle: Double) -> Point { Point(x: cos(angle), y: sin(angle)) }

  package static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
  package static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
  package static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }

  /// Dot product.
  package func dot(_ other: Point) -> Double { x * other.x + y * other.y }
  /// The z component of the cross product; positive when `other` turns clockwise on screen.
  package func cross(_ other: Point) -> Double { x * other.y - y * other.x }
  package var length: Double { (x * x + y * y).squareRoot() }

  package var description: String { "(\(x), \(y))" }
}

/// An axis-aligned rectangle in canvas pixels.
package struct Rect: Equatable, Sendable {
  package var minX: Double
  package var minY: Double
  package var maxX: Double
  package var maxY: Double

  package init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The smallest rectangle holding all `points` (which must not be empty).
  package init(enclosing points: [Point]) {
    self.init(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    for p in points {
      minX = Swift.min(minX, p.x)
      minY = Swift.min(minY, p.y)
      maxX = Swift.max(maxX, p.x)
      maxY = Swift.max(maxY, p.y)
    }
  }

  package var center: Point { Point(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }
  package var origin: Point { Point(x: minX, y: minY) }
}
