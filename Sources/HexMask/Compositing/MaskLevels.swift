/// Turns one row of coverage into 8-bit mask levels: the alpha a normal run gives an
/// opaque picture with an opaque border, for ``HexMask/Output/maskOnly``.
///
/// That is the area the shape and its border cover: `outer` by default, `fill` for the
/// seed layout (the mask clips the border). It is evaluated with the same `Float`
/// operations and rounding as ``Compositor``, so the levels equal its alpha exactly, not
/// just approximately.
///
/// ```swift
/// coverage.row(y, into: &row)
/// maskLevels(coverage: row, layout: .centered, into: grayRow)
/// ```
///
/// - Complexity: O(width).
package func maskLevels(
  coverage: CoverageRow, layout: Layout, into output: UnsafeMutableBufferPointer<UInt8>
) {
  // RowPipeline sizes both rows from the same canvas side; a shorter row gets what fits.
  let clipsBorder = layout == .seed
  for i in 0..<min(coverage.width, output.count) {
    let weights = AreaWeights(
      inner: coverage.inner[i], fill: coverage.fill[i], outer: coverage.outer[i],
      clipsBorder: clipsBorder)
    // Compositor's alpha with picture alpha 1 and border alpha 1.
    let (picture, border) = weights.shares(borderAlpha: 1)
    let alpha = 1 * picture + 1 * border
    output[i] = UInt8(min(255, max(0, (alpha * 255).rounded())))
  }
}
