/// Puts a row of straight RGBA over an opaque `background`, for outputs that must be
/// opaque: JPEG always, PNG and WebP with ``HexMask/Output/background``.
///
/// Each channel is `c·a + bg·(1 − a)`, rounded to the nearest level, computed exactly in
/// integers; the background's own alpha is ignored (it is taken as opaque). `output` holds
/// 3 bytes (RGB) or 4 bytes (RGBA, alpha 255) per pixel of `row`.
///
/// ```swift
/// flatten(rgbaRow, onto: .white, into: rgbRow)   // transparent pixels become white
/// ```
///
/// - Complexity: O(pixels).
package func flatten(
  _ row: UnsafeBufferPointer<UInt8>, onto background: RGBAColor,
  into output: UnsafeMutableBufferPointer<UInt8>
) {
  let pixels = row.count / 4
  let stride = pixels == 0 ? 3 : output.count / pixels
  precondition(row.count == pixels * 4, "an RGBA row holds 4 bytes per pixel")
  precondition(
    (stride == 3 || stride == 4) && output.count == pixels * stride,
    "the flattened row holds 3 or 4 bytes per pixel of the input row")
  let backdrop = (UInt32(background.red), UInt32(background.green), UInt32(background.blue))
  for i in 0..<pixels {
    let p = 4 * i
    let q = stride * i
    let a = UInt32(row[p + 3])
    // (n + 127) / 255 rounds n / 255 to nearest; 255 is odd, so there are no ties.
    func over(_ value: UInt8, _ under: UInt32) -> UInt8 {
      UInt8((UInt32(value) * a + under * (255 - a) + 127) / 255)
    }
    output[q] = over(row[p], backdrop.0)
    output[q + 1] = over(row[p + 1], backdrop.1)
    output[q + 2] = over(row[p + 2], backdrop.2)
    if stride == 4 { output[q + 3] = 255 }
  }
}
