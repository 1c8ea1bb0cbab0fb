#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shape for one canvas: the options with their defaults fitted, placed as the
/// layout says. Geometry is in output pixels.
///
/// ```swift
/// let shape = try MaskShape(options: RenderOptions(), canvasSide: 512)
/// shape.polygon.circumradius   // ≈ 255.4 for the seed's hexagon
/// ```
public struct MaskShape: Equatable, Sendable {
  /// The polygon, already moved to its place on the canvas.
  public var polygon: RoundedPolygon
  /// Border width; 0 for no border.
  public var lineWidth: Double
  public var layout: Layout
  public var canvasSide: Int

  /// The seed's corner radius and border width; used when the user gives none.
  public static let defaultCornerRadius = 10.0
  public static let defaultLineWidth = 5.0

  /// Resolves `options` for a `canvasSide` square.
  ///
  /// Defaults shrink so a 16 px icon works with no options; explicit values that cannot
  /// fit are errors that say what would.
  public init(options: RenderOptions, canvasSide: Int) throws(ShapeError) {
    let side = Double(canvasSide)
    let line: Double
    if let explicit = options.line.map({ Self.lengthInPixels($0, canvasSide: side) }) {
      guard explicit < side else { throw .lineTooWide(explicit, canvasSide: canvasSide) }
      line = explicit
    } else {
      line = min(Self.defaultLineWidth, side / 8)
    }
    let maximum = RoundedPolygon.maximumCornerRadius(
      canvasSide: side, lineWidth: line, sides: options.sides)
    let corner: Double
    if let explicit = options.corner.map({ Self.lengthInPixels($0, canvasSide: side) }) {
      guard explicit <= maximum * (1 + 1e-12) else {
        throw .cornerTooLarge(explicit, maximum: maximum, canvasSide: canvasSide)
      }
      corner = min(explicit, maximum)
    } else {
      corner = min(Self.defaultCornerRadius, maximum)
    }
    let unplaced = RoundedPolygon(
      canvasSide: side, lineWidth: line, sides: options.sides, cornerRadius: corner,
      rotation: Self.radians(options.rotationDegrees))
    switch options.layout {
    case .centered:
      polygon = unplaced.translated(
        by: Point(x: side / 2, y: side / 2) - unplaced.curveBounds.center)
    case .seed:
      polygon = unplaced.translated(
        by: Point(x: line / 2, y: line / 2) - unplaced.controlBounds.origin)
    }
    lineWidth = line
    layout = options.layout
    self.canvasSide = canvasSide
  }

  /// `degrees` as radians, after taking whole turns off exactly (`fmod` is exact): any
  /// finite angle gives the same shape as its remainder, so the raster and the SVG, both
  /// made from this shape, agree. Multiplying first would lose the angle to rounding for
  /// large values (1e16° is off by whole radians) or overflow to infinity (1e308°).
  static func radians(_ degrees: Double) -> Double {
    fmod(degrees, 360) * .pi / 180
  }

  /// `length` in pixels on a `side` canvas. A percentage too large for a `Double` in pixels
  /// counts as the largest finite one: refused either way, and its message prints a number.
  private static func lengthInPixels(_ length: Length, canvasSide side: Double) -> Double {
    min(length.inPixels(canvasSide: side), .greatestFiniteMagnitude)
  }
}

/// Options that cannot make a shape on this canvas. These are usage errors (exit 2).
public enum ShapeError: Error, Equatable, Sendable, CustomStringConvertible {
  case cornerTooLarge(Double, maximum: Double, canvasSide: Int)
  case lineTooWide(Double, canvasSide: Int)

  public var description: String {
    switch self {
    case .cornerTooLarge(let corner, let maximum, let side):
      "--corner \(pixels(corner)) is too large: at most \(pixels(maximum)) fits a \(side) px canvas with this line and number of sides"
    case .lineTooWide(let line, let side):
      "--line \(pixels(line)) leaves no room for the shape in a \(side) px canvas: it must be "
        + "less than \(side)"
    }
  }
}

/// A pixel amount for messages: whole numbers plainly, others to two decimals — more for
/// amounts under 0.01, so they never print as 0.00 — rounded down so that a printed maximum
/// is always accepted. Amounts from 2⁵³ on, far beyond any canvas and all whole, print as
/// Swift prints a `Double` (`1e+308`), since an `Int` cannot hold them all.
func pixels(_ value: Double) -> String {
  guard value.isFinite, value.magnitude < 0x1p53 else { return "\(value)" }
  if value == value.rounded() { return String(Int(value)) }
  var decimals = 2
  while decimals < 12 && abs(value) * pow10(decimals) < 10 { decimals += 1 }
  let scale = pow10(decimals)
  let scaled = Int((value * scale).rounded(.down))
  let fraction = String(scaled % Int(scale))
  return
    "\(scaled / Int(scale)).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
}

private func pow10(_ exponent: Int) -> Double {
  (0..<exponent).reduce(1.0) { value, _ in value * 10 }
}
