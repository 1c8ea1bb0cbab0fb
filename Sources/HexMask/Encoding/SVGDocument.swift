/// The shape as an SVG document, so a web page can use exactly the geometry hexmask cuts
/// with: as an image, a CSS `mask-image`, or, inline, a `clip-path`.
///
/// The document is the canvas (`width`, `height` and `viewBox` of `canvasSide` px) with
/// - `<clipPath id="hexmask-clip">`: the shape, for `clip-path: url(#hexmask-clip)`;
/// - `<path id="hexmask-shape">`: the shape filled black (`#000000`). Black is only a
///   neutral choice: what matters is the outline, and as a mask its alpha is the shape;
/// - `<path id="hexmask-border">`, when the line width is above 0: the outline stroked
///   `lineWidth` wide in `borderColor` (`stroke-opacity` when not opaque), with mitred
///   joins, which matter only for sharp corners (r = 0), whose miter ratio, at most 2 for
///   3 or more sides, is within SVG's default limit of 4. For the seed layout it is
///   clipped by the shape, as the original's mask clips its border layer.
///
/// The path is the polygon's own: `M`, then `L` for each straight side and `Q` (control
/// point at the tip) for each corner, then `Z`; zero-length sides and sharp corners'
/// empty curves are left out, so every join has a direction. Numbers have at most 6
/// decimals (a micropixel), so the same shape always gives the same text.
///
/// ```swift
/// let shape = try MaskShape(options: RenderOptions(), canvasSide: 256)
/// let svg = svgDocument(for: shape, borderColor: .white)   // "<?xml version=…"
/// ```
///
/// - Complexity: O(sides).
public func svgDocument(for shape: MaskShape, borderColor: RGBAColor) -> String {
  let side = String(shape.canvasSide)
  let path = svgPathData(shape.polygon.segments)
  var lines = [
    #"<?xml version="1.0" encoding="UTF-8"?>"#,
    #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(side)" height="\#(side)" viewBox="0 0 \#(side) \#(side)">"#,
    #"  <defs>"#,
    #"    <clipPath id="hexmask-clip" clipPathUnits="userSpaceOnUse">"#,
    #"      <path d="\#(path)"/>"#,
    #"    </clipPath>"#,
    #"  </defs>"#,
    ##"  <path id="hexmask-shape" d="\##(path)" fill="#000000"/>"##,
  ]
  if shape.lineWidth > 0 {
    var stroke = #"stroke="\#(hexColor(borderColor))""#
    if borderColor.alpha < 255 {
      stroke += #" stroke-opacity="\#(svgNumber(Double(borderColor.alpha) / 255))""#
    }
    let clip = shape.layout == .seed ? #" clip-path="url(#hexmask-clip)""# : ""
    lines.append(
      #"  <path id="hexmask-border" d="\#(path)" fill="none" \#(stroke) stroke-width="\#(svgNumber(shape.lineWidth))" stroke-linejoin="miter"\#(clip)/>"#
    )
  }
  lines.append("</svg>")
  return lines.joined(separator: "\n") + "\n"
}

/// SVG path data for a closed outline made of `segments`, each starting where the last
/// one ended.
func svgPathData(_ segments: [PathSegment]) -> String {
  guard let first = segments.first else { return "" }
  let start = first.start
  // Anything shorter than the printed precision would be a segment with no direction.
  func isEmpty(_ a: Point, _ b: Point) -> Bool { (a - b).length < 1e-6 }
  var commands = ["M \(svgPoint(start))"]
  for (index, segment) in segments.enumerated() {
    let isLast = index == segments.count - 1
    switch segment {
    case .line(let from, let to):
      // The last side back to the start is drawn by Z.
      guard !isEmpty(from, to), !(isLast && isEmpty(to, start)) else { continue }
      commands.append("L \(svgPoint(to))")
    case .quad(let from, let control, let to):
      guard !(isEmpty(from, control) && isEmpty(control, to)) else { continue }
      // Ends exactly where the path started, so Z adds no segment of its own.
      commands.append("Q \(svgPoint(control)) \(svgPoint(isLast ? start : to))")
    }
  }
  commands.append("Z")
  return commands.joined(separator: " ")
}

private func svgPoint(_ point: Point) -> String { "\(svgNumber(point.x)) \(svgNumber(point.y))" }

/// `value` rounded to 6 decimals, without trailing zeros or a negative zero: "12.5", "-0.25", "3".
func svgNumber(_ value: Double) -> String {
  let millionths = Int64((value * 1_000_000).rounded())
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
