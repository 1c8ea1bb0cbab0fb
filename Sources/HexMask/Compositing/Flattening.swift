/// Puts a row of straight RGBA over `background`: JPEG always (opaque), PNG and WebP with
/// ``HexMask/Output/Kind/background``.
///
/// Each channel is `c·a + bg·(1 − a)`, rounded to the nearest level, computed exactly in
/// integers. `output` holds 3 bytes (RGB; the background's alpha is ignored, taken as
/// opaque) or 4 bytes (RGBA) per pixel of `row`. With 4 bytes a background that is not
/// opaque keeps its transparency: the pixel is the picture `over` it, in straight alpha
/// (see ``overTranslucent(_:_:)``).
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
  // RowPipeline and the JPEG writer size both rows from one width: an output row of 4 bytes
  // a pixel keeps alpha, of 3 drops it. Rows of other lengths get the pixels that fit.
  let stride = output.count == row.count && row.count > 0 ? 4 : 3
  let pixels = min(row.count / 4, output.count / stride)
  if stride == 4 && background.alpha < 255 {
    for i in 0..<pixels {
      let pixel = UnsafeBufferPointer(rebasing: row[(4 * i)..<(4 * i + 4)])
      for (channel, value) in overTranslucent(pixel, background).enumerated() {
        output[4 * i + channel] = value
      }
    }
    return
  }
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

/// One straight RGBA `pixel` over a `background` that is not opaque, in straight alpha:
/// alpha `a + ba·(1 − a)`, each channel `(c·a + bc·ba·(1 − a)) / alpha`, both rounded to the
/// nearest level, exactly in integers. A pixel left fully transparent is `(0, 0, 0, 0)`.
package func overTranslucent(_ pixel: UnsafeBufferPointer<UInt8>, _ background: RGBAColor)
  -> [UInt8]
{
  let a = UInt32(pixel[3])
  let under = UInt32(background.alpha) * (255 - a)
  // Alpha scaled by 255: at most 255 · 255.
  let alpha = a * 255 + under
  let level = (alpha + 127) / 255
  guard level > 0 else { return [0, 0, 0, 0] }
  func channel(_ value: UInt8, _ backdrop: UInt8) -> UInt8 {
    let weighted = UInt32(value) * a * 255 + UInt32(backdrop) * under
    return UInt8(min(255, (2 * weighted + alpha) / (2 * alpha)))
  }
  return [
    channel(pixel[0], background.red), channel(pixel[1], background.green),
    channel(pixel[2], background.blue), UInt8(level),
  ]
}
