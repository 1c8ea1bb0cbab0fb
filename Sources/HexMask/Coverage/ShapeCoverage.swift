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

  /// The last row cut into runs of pixels that are all outside, all inside (fill 1, no
  /// border), or need blending, in order and covering the whole width.
  public private(set) var spans: [Span] = []

  /// Fills `fill` and `stroke` (each `width` values, 0…1) for pixel row `y`, and
  /// ``spans``. Rows are cheapest in increasing order.
  public mutating func row(_ y: Int, fill fillRow: inout [Float], stroke strokeRow: inout [Float]) {
    fill.coverage(row: y, into: &fillRow)
    if hasBorder {
      stroke.coverage(row: y, into: &strokeRow)
    } else {
      strokeRow.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }
    findSpans(fill: fillRow, stroke: strokeRow)
  }

  /// Between the pixels either outline passes through, both coverages are constant, so
  /// one look at the run's first pixel classifies all of it.
  private mutating func findSpans(fill fillRow: [Float], stroke strokeRow: [Float]) {
    spans.removeAll(keepingCapacity: true)
    let fillEdges = fill.edgeCells
    let strokeEdges = hasBorder ? stroke.edgeCells : []
    var i = 0
    var j = 0
    var x = 0
    while x < width {
      let nextFill = i < fillEdges.count ? fillEdges[i] : width
      let nextStroke = j < strokeEdges.count ? strokeEdges[j] : width
      let edge = min(nextFill, nextStroke)
      if edge > x {
        let f = fillRow[x]
        let s = strokeRow[x]
        let kind: Span.Kind = s == 0 && f == 1 ? .inside : s == 0 && f == 0 ? .outside : .blend
        append(Span(start: x, end: edge, kind: kind))
      }
      if edge < width { append(Span(start: edge, end: edge + 1, kind: .blend)) }
      if nextFill == edge { i += 1 }
      if nextStroke == edge { j += 1 }
      x = edge + 1
    }
  }

  private mutating func append(_ span: Span) {
    if let last = spans.last, last.kind == span.kind, last.end == span.start {
      spans[spans.count - 1].end = span.end
    } else {
      spans.append(span)
    }
  }

  /// A run of pixels `start..<end` of one row that the compositor treats alike.
  public struct Span: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
      /// No fill, no border: transparent.
      case outside
      /// Fill 1 and no border: the picture's own pixels.
      case inside
      /// Anything else: blend pixel by pixel.
      case blend
    }
    public var start: Int
    public var end: Int
    public var kind: Kind
  }
}
