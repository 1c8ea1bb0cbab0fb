/// Converts a row of CMYK pixels (4 bytes each, as libjpeg delivers them) to opaque
/// RGBA in place.
///
/// The naive conversion every viewer without colour management uses (libjpeg-turbo's
/// djpeg, browsers, Pillow): each ink darkens its complementary primary, and black
/// darkens all three,
///
///     R = (255 − C)(255 − K) / 255,   G = (255 − M)(255 − K) / 255,   B = (255 − Y)(255 − K) / 255,
///
/// rounded to the nearest integer. `inverted` data, as Adobe's software stores it (and
/// marks with an APP14 "Adobe" marker), holds 255 − ink, so there R = C·K / 255.
///
/// The fallback for a CMYK JPEG without a profile lcms2 can use: with one, the JPEG
/// decoder converts through it instead (`ColourTransform`).
///
/// ```swift
/// convertCMYKToRGBA(row, inverted: true)  // inverted [255, 255, 255, 255] (no ink) → white
/// ```
///
/// - Complexity: O(row.count).
func convertCMYKToRGBA(_ row: UnsafeMutableBufferPointer<UInt8>, inverted: Bool) {
  // round(a·b / 255) for a, b in 0…255; a·b/255 is never exactly halfway, as 255 is odd.
  @inline(__always) func product(_ a: UInt8, _ b: UInt8) -> UInt8 {
    UInt8(truncatingIfNeeded: (UInt32(a) * UInt32(b) + 127) / 255)
  }
  var index = 0
  while index + 3 < row.count {
    var (c, m, y, k) = (row[index], row[index + 1], row[index + 2], row[index + 3])
    if !inverted {
      (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k)
    }
    row[index] = product(c, k)
    row[index + 1] = product(m, k)
    row[index + 2] = product(y, k)
    row[index + 3] = 255
    index += 4
  }
}
