/// How much a JPEG may be shrunk while it is decoded, before the Lanczos filter
/// finishes the job: the largest `d` of 1, 2, 4 and 8 that leaves the short side at
/// least twice `targetSide` (`sourceShortSide / d ≥ 2 · targetSide`).
///
/// libjpeg shrinks by 1/d in its inverse DCT, which is fast but only box-filter
/// quality; leaving the filter at least a factor of 2 to do keeps its quality (the same
/// rule as libvips' `vipsthumbnail`). Sources smaller than `4 · targetSide` are decoded
/// at full size.
///
/// ```swift
/// shrinkFactor(sourceShortSide: 3024, targetSide: 256)  // 4: decoded at 1008×756, then filtered
/// shrinkFactor(sourceShortSide: 427, targetSide: 256)   // 1
/// ```
///
/// - Complexity: O(1).
package func shrinkFactor(sourceShortSide: Int, targetSide: Int) -> Int {
  guard targetSide > 0 else { return 1 }
  return [8, 4, 2].first { sourceShortSide >= 2 * targetSide * $0 } ?? 1
}
