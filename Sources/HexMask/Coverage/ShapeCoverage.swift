/// How much of each pixel the shape covers, three ways, produced row by row
/// (docs/design.md, Coverage).
///
/// - `inner`: the fill eroded by `w/2`, where the picture shows alone;
/// - `fill`: the shape itself;
/// - `outer`: the fill dilated by `w/2`, the far edge of the border.
///
/// Inside one pixel the outline cuts up to three regions, and their exact areas are
/// differences of these: `inner` (picture alone), `fill − inner` (border over picture) and
/// `outer − fill` (border alone). All three polygons are intersections of the shape's
/// support lines, moved by `0` and `±w/2`: exact because the outline is convex, with mitred
/// corners when `r = 0`. Without a border all three are the fill.
///
/// ```swift
/// var coverage = ShapeCoverage(shape: shape)
/// var row = CoverageRow(width: shape.canvasSide)
/// coverage.row(0, into: &row)
/// ```
package struct ShapeCoverage: Sendable {
  /// Largest distance, in pixels, between the flattened outlines and the true curves.
  /// Even summed over the three edges crossing one pixel it stays far below the 1/510 of
  /// a pixel that rounding to 8 bits leaves.
  package static let defaultTolerance = 1e-4

  package let width: Int
  private let layout: Layout
  private var fill: ScanlineRasterizer
  /// The fill eroded and dilated by half the line width; both nil without a border.
  private var inner: ScanlineRasterizer?
  private var outer: ScanlineRasterizer?

  package init(shape: MaskShape, tolerance: Double = ShapeCoverage.defaultTolerance) {
    let half = shape.lineWidth / 2
    let lines = shape.polygon.supportLines(tolerance: tolerance, maxOffset: half)
    width = shape.canvasSide
    layout = shape.layout
    func rasterizer(movedBy offset: Double) -> ScanlineRasterizer {
      var raster = ScanlineRasterizer(width: shape.canvasSide)
      raster.add(polygon: intersectHalfPlanes(lines.map { $0.moved(by: offset) }))
      return raster
    }
    fill = rasterizer(movedBy: 0)
    if half > 0 {
      inner = rasterizer(movedBy: -half)
      outer = rasterizer(movedBy: half)
    }
  }

  /// The last row cut into runs of pixels that are all outside, all inside (the picture
  /// alone), or need blending, in order and covering the whole width.
  package private(set) var spans: [Span] = []

  /// Fills `row` (each array `width` values, 0…1) for pixel row `y`, and ``spans``. Rows
  /// are cheapest in increasing order.
  package mutating func row(_ y: Int, into row: inout CoverageRow) {
    fill.coverage(row: y, into: &row.fill)
    if inner == nil {
      // Without a border the eroded and dilated shapes are the fill itself.
      row.inner = row.fill
      row.outer = row.fill
    } else {
      inner?.coverage(row: y, into: &row.inner)
      outer?.coverage(row: y, into: &row.outer)
    }
    findSpans(row)
  }

  /// Between the pixels any outline passes through, all three coverages are constant, so
  /// one look at the run's first pixel classifies all of it.
  private mutating func findSpans(_ row: CoverageRow) {
    spans.removeAll(keepingCapacity: true)
    let none: [Int] = []
    var fillEdges = fill.edgeCells[...]
    var innerEdges = (inner?.edgeCells ?? none)[...]
    var outerEdges = (outer?.edgeCells ?? none)[...]
    // The seed layout's mask clips the border: nothing shows where the fill is 0.
    let reach = layout == .seed ? row.fill : row.outer
    var x = 0
    while x < width {
      let edge = min(fillEdges.first ?? width, innerEdges.first ?? width, outerEdges.first ?? width)
      if edge > x {
        let kind: Span.Kind = row.inner[x] == 1 ? .inside : reach[x] == 0 ? .outside : .blend
        append(Span(start: x, end: edge, kind: kind))
      }
      if edge < width { append(Span(start: edge, end: edge + 1, kind: .blend)) }
      if fillEdges.first == edge { fillEdges.removeFirst() }
      if innerEdges.first == edge { innerEdges.removeFirst() }
      if outerEdges.first == edge { outerEdges.removeFirst() }
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
  package struct Span: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
      /// Nothing of the shape or the border: transparent.
      case outside
      /// Wholly inside the inner edge: the picture's own pixels.
      case inside
      /// Anything else: blend pixel by pixel.
      case blend
    }
    package var start: Int
    package var end: Int
    package var kind: Kind
  }
}

/// The three coverages of one pixel row, each `width` values from 0 to 1: the fill eroded
/// by half the line width (`inner`), the fill, and the fill dilated by half the line width
/// (`outer`). `inner ≤ fill ≤ outer` everywhere.
package struct CoverageRow: Sendable, Equatable {
  package var inner: [Float]
  package var fill: [Float]
  package var outer: [Float]

  /// A row of `width` pixels, all uncovered.
  package init(width: Int) {
    inner = [Float](repeating: 0, count: width)
    fill = inner
    outer = inner
  }

  /// Three given coverages (for tests and callers with their own).
  package init(inner: [Float], fill: [Float], outer: [Float]) {
    // Only tests give coverages of their own; rows of unequal lengths are cut to the shortest.
    let width = min(inner.count, fill.count, outer.count)
    self.inner = Array(inner.prefix(width))
    self.fill = Array(fill.prefix(width))
    self.outer = Array(outer.prefix(width))
  }

  package var width: Int { fill.count }
}
