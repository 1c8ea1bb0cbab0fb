/// How much of each pixel the filled shape and its border cover, produced row by row.
///
/// The fill is the polygon bounded by the shape's support lines; the border (every point
/// within `w/2` of the outline) is the shape dilated by `w/2` minus the shape eroded by
/// `w/2`, both exact because the outline is convex. With `r = 0` the moved lines meet in
/// mitred corners.
///
/// ```swift
/// var coverage = ShapeCoverage(shape: shape)
/// var fill = [Float](repeating: 0, count: 256), stroke = fill
/// coverage.row(0, fill: &fill, stroke: &stroke)
/// ```
public struct ShapeCoverage: Sendable {
  /// Largest distance, in pixels, between the flattened outlines and the true curves.
  /// Even summed over both border edges crossing one pixel it stays far below the
  /// 1/510 of a pixel that rounding to 8 bits leaves.
  public static let defaultTolerance = 1e-4

  public let width: Int
  private var fill: ScanlineRasterizer
  private var stroke: ScanlineRasterizer
  private let hasBorder: Bool

  public init(shape: MaskShape, tolerance: Double = ShapeCoverage.defaultTolerance) {
    let half = shape.lineWidth / 2
    let lines = shape.polygon.supportLines(tolerance: tolerance, maxOffset: half)
    width = shape.canvasSide
    fill = ScanlineRasterizer(width: width)
    fill.add(polygon: intersectHalfPlanes(lines))
    stroke = ScanlineRasterizer(width: width)
    hasBorder = half > 0
    if hasBorder {
      stroke.add(polygon: intersectHalfPlanes(lines.map { $0.moved(by: half) }))
      stroke.add(polygon: intersectHalfPlanes(lines.map { $0.moved(by: -half) }), sign: -1)
    }
  }

  /// Fills `fill` and `stroke` (each `width` values, 0…1) for pixel row `y`.
  /// Rows are cheapest in increasing order.
  public mutating func row(_ y: Int, fill fillRow: inout [Float], stroke strokeRow: inout [Float]) {
    fill.coverage(row: y, into: &fillRow)
    if hasBorder {
      stroke.coverage(row: y, into: &strokeRow)
    } else {
      for i in 0..<width { strokeRow[i] = 0 }
    }
  }
}
