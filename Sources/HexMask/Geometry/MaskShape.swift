#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shape for one canvas: the options with their defaults fitted, placed as the
/// layout says. Geometry is in output pixels.
///
/// ```swift
/// let shape = try MaskShape(HexMask.Shape(), canvasSide: 512)
/// shape.polygon.circumradius   // ≈ 255.4 for the seed's hexagon
/// ```
package struct MaskShape: Equatable, Sendable {
  /// The polygon, already moved to its place on the canvas.
  package var polygon: RoundedPolygon
  /// Border width; 0 for no border.
  package var lineWidth: Double
  package var layout: Layout
  package var canvasSide: Int

  /// Resolves `options` for a `canvasSide` square.
  ///
  /// Defaults shrink so a 16 px icon works with no options; explicit values that cannot
  /// fit are errors that say what would.
  package init(_ options: HexMask.Shape, canvasSide: Int) throws(ShapeError) {
    let side = Double(canvasSide)
    let line: Double
    if let explicit = options.line.map({ Self.lengthInPixels($0, canvasSide: side) }) {
      guard explicit < side else { throw .lineTooWide(explicit, canvasSide: canvasSide) }
      line = explicit
    } else {
      line = min(HexMask.Shape.defaultLine, side / 8)
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
      corner = min(HexMask.Shape.defaultCorner, maximum)
    }
    let unplaced = RoundedPolygon(
      canvasSide: side, lineWidth: line, sides: options.sides, cornerRadius: corner,
      rotation: Self.radians(options))
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

  /// The drawn rotation (``HexMask/Shape/drawnRotation``) in radians.
  static func radians(_ shape: HexMask.Shape) -> Double {
    shape.drawnRotation * .pi / 180
  }

  /// `length` in pixels on a `side` canvas. A percentage too large for a `Double` in pixels
  /// counts as the largest finite one: refused either way, and its message prints a number.
  private static func lengthInPixels(_ length: Length, canvasSide side: Double) -> Double {
    min(length.inPixels(canvasSide: side), .greatestFiniteMagnitude)
  }
}

extension HexMask {
  /// A shape that cannot be made on this canvas, with the numbers a message needs.
  public enum ShapeError: Swift.Error, Equatable, Sendable {
    /// The corner radius (px) is larger than `maximum` (px), the most this canvas side,
    /// line and number of sides allow.
    case cornerTooLarge(Double, maximum: Double, canvasSide: Int)
    /// The line (px) is as wide as the canvas, or wider.
    case lineTooWide(Double, canvasSide: Int)
  }
}

/// `HexMask.ShapeError` by its short name inside the package.
package typealias ShapeError = HexMask.ShapeError
