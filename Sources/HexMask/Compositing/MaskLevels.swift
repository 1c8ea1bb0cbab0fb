/// Turns one row of fill and border coverage into 8-bit mask levels: the alpha a normal
/// run gives an opaque image with an opaque border, for `--mask-only`.
///
/// `s + f·(1 − s)` by default (the border over the filled shape), `(s + (1 − s))·f` for
/// the seed layout (the mask clips the border, so only the fill counts), evaluated with
/// the same `Float` operations and rounding as ``Compositor``, so the levels equal its
/// alpha exactly, not just approximately.
///
/// ```swift
/// coverage.row(y, fill: &fill, stroke: &stroke)
/// maskLevels(fill: fill, stroke: stroke, layout: .centered, into: grayRow)
/// ```
///
/// - Complexity: O(width).
public func maskLevels(
  fill: [Float], stroke: [Float], layout: Layout, into output: UnsafeMutableBufferPointer<UInt8>
) {
  precondition(stroke.count == fill.count && output.count == fill.count)
  let clipsBorder = layout == .seed
  for i in 0..<fill.count {
    let f = fill[i]
    let s = stroke[i]
    // Compositor's alpha with image alpha 1 and border alpha 1; both factors are exact.
    let under: Float = clipsBorder ? 1 : f
    let scale: Float = clipsBorder ? f : 1
    let alpha = (s + under * (1 - s)) * scale
    output[i] = UInt8(min(255, max(0, (alpha * 255).rounded())))
  }
}
