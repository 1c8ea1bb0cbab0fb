/// The shape as an SVG document, so a web page can use exactly the geometry hexmask cuts
/// with: as an image, a CSS `mask-image`, or, inline, a `clip-path`.
///
/// The document is the XML declaration, hexmask's mark (``HexMaskMark``, a comment line)
/// unless told not to, and the canvas (`width`, `height` and `viewBox` of `canvasSide` px) with
/// - `<clipPath id="hexmask-clip">`: the shape, for `clip-path: url(#hexmask-clip)`;
/// - `#hexmask-shape`: the shape filled black (`#000000`): a `<path>` by default; for the
///   seed layout a `<g>` holding a canvas-sized black `<rect>` and the border, masked by
///   the shape (`<mask id="hexmask-mask">`), as the original's `CALayer` mask does.
///   Black is only a neutral choice: what matters is the outline, and as an alpha mask
///   the document is the shape;
/// - `<path id="hexmask-border">`, when the line width is above 0: the outline stroked
///   `lineWidth` wide in `borderColor` (`stroke-opacity` when not opaque), with mitred
///   joins, which matter only for sharp corners (r = 0), whose miter ratio, at most 2 for
///   3 or more sides, is within SVG's default limit of 4.
///
/// Rendered, its alpha is hexmask's mask: `s + f·(1 − s)` by default, `f` for the seed
/// layout (docs/design.md, Compositing), up to the renderer's anti-aliasing.
///
/// The path is the polygon's own: `M`, then `L` for each straight side and `Q` (control
/// point at the tip) for each corner, then `Z`, which draws the last side; zero-length
/// sides and sharp corners' empty curves are left out, so every join has a direction.
/// Numbers have at most 6 decimals (a micropixel), so the same shape always gives the
/// same text.
///
/// ```swift
/// let shape = try MaskShape(HexMask.Shape(), canvasSide: 256)
/// let svg = svgDocument(for: shape, borderColor: .white)   // "<?xml version=…"
/// ```
///
/// - Complexity: O(sides).
package func svgDocument(for shape: MaskShape, borderColor: RGBAColor, mark: Bool = true)
  -> String
{
  let side = String(shape.canvasSide)
  let path = svgPathData(shape.polygon.segments)
  var lines = [HexMaskMark.xmlDeclaration]
  if mark { lines.append(HexMaskMark.svgComment) }
  lines += [
    #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(side)" height="\#(side)" viewBox="0 0 \#(side) \#(side)">"#,
    #"  <defs>"#,
    #"    <clipPath id="hexmask-clip" clipPathUnits="userSpaceOnUse">"#,
    #"      <path d="\#(path)"/>"#,
    #"    </clipPath>"#,
  ]
  var border: String?
  if shape.lineWidth > 0 {
    var stroke = #"stroke="\#(hexColor(borderColor))""#
    if borderColor.alpha < 255 {
      stroke += #" stroke-opacity="\#(svgNumber(Double(borderColor.alpha) / 255))""#
    }
    border =
      #"<path id="hexmask-border" d="\#(path)" fill="none" \#(stroke) stroke-width="\#(svgNumber(shape.lineWidth))" stroke-linejoin="miter"/>"#
  }
  switch shape.layout {
  case .centered:
    lines.append("  </defs>")
    lines.append(##"  <path id="hexmask-shape" d="\##(path)" fill="#000000"/>"##)
    if let border { lines.append("  " + border) }
  case .seed:
    // The border over the whole picture, then masked as one layer. A clip-path on the
    // group would do the same in theory, but librsvg clips each child on its own, which
    // counts the anti-aliased edge twice (a thicker edge than hexmask's).
    lines.append(contentsOf: [
      #"    <mask id="hexmask-mask" maskUnits="userSpaceOnUse" x="0" y="0" width="\#(side)" height="\#(side)">"#,
      ##"      <path d="\##(path)" fill="#ffffff"/>"##,
      "    </mask>",
      "  </defs>",
      #"  <g id="hexmask-shape" mask="url(#hexmask-mask)">"#,
      ##"    <rect width="\##(side)" height="\##(side)" fill="#000000"/>"##,
    ])
    if let border { lines.append("    " + border) }
    lines.append("  </g>")
  }
  lines.append("</svg>")
  return lines.joined(separator: "\n") + "\n"
}

/// SVG path data for a closed outline made of `segments`, each starting where the last
/// one ended.
func svgPathData(_ segments: [PathSegment]) -> String {
  // Anything shorter than the printed precision would be a segment with no direction.
  func isEmpty(_ a: Point, _ b: Point) -> Bool { (a - b).length < 1e-6 }
  let drawn = segments.filter { segment in
    switch segment {
    case .line(let from, let to): !isEmpty(from, to)
    case .quad(let from, let control, let to): !(isEmpty(from, control) && isEmpty(control, to))
    }
  }
  guard let start = drawn.first?.start else { return "" }
  var commands = ["M \(svgPoint(start))"]
  for (index, segment) in drawn.enumerated() {
    let isLast = index == drawn.count - 1
    switch segment {
    case .line(_, let to):
      // The last side, back to the start, is Z's.
      if !isLast { commands.append("L \(svgPoint(to))") }
    case .quad(_, let control, let to):
      // The last corner ends exactly where the path started, so Z adds no segment.
      commands.append("Q \(svgPoint(control)) \(svgPoint(isLast ? start : to))")
    }
  }
  commands.append("Z")
  return commands.joined(separator: " ")
}

private func svgPoint(_ point: Point) -> String { "\(svgNumber(point.x)) \(svgNumber(point.y))" }

/// `value` rounded to 6 decimals, without trailing zeros or a negative zero: "12.5", "-0.25", "3".
/// Magnitudes from 2⁶³ millionths on (9·10¹², far outside any canvas) print in exponent form
/// ("1e+20", which SVG reads too); SVG has no way to write an infinity or NaN, and shapes made
/// from finite options never hold one, so those print as 0.
func svgNumber(_ value: Double) -> String {
  guard let millionths = Int64(exactly: (value * 1_000_000).rounded()) else {
    return value.isFinite ? "\(value)" : "0"
  }
  guard millionths != 0 else { return "0" }
  let sign = millionths < 0 ? "-" : ""
  let magnitude = millionths.magnitude
  let whole = magnitude / 1_000_000
  var fraction = String(magnitude % 1_000_000)
  guard fraction != "0" else { return "\(sign)\(whole)" }
  fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
  while fraction.hasSuffix("0") { fraction.removeLast() }
  return "\(sign)\(whole).\(fraction)"
}

/// `#rrggbb`, lower case.
private func hexColor(_ color: RGBAColor) -> String {
  let digits = Array("0123456789abcdef")
  return "#"
    + [color.red, color.green, color.blue].map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 15)])" }
    .joined()
}
