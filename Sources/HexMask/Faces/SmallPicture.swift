/// A small upright copy of the whole picture, 8-bit RGB, that the smart crops look at:
/// the face detector (as gray) and the attention heuristic. It is made from a reduced
/// decode (JPEG's DCT scaling, libwebp's scaled decode, a HEIF thumbnail) or, where the
/// format has none, by averaging boxes of rows as they stream past, so it never costs a
/// second full-size picture in memory.
///
/// ```swift
/// let look = SmallPicture(width: 2, height: 1, rgb: [255, 0, 0, 0, 0, 255])
/// look.gray   // [76, 29]: BT.601 luma, as OpenCV's cvtColor computes it
/// ```
package struct SmallPicture: Sendable, Equatable {
  /// Pixels per row.
  package var width: Int
  /// Rows.
  package var height: Int
  /// `width * height * 3` bytes, rows top to bottom, R G B.
  package var rgb: [UInt8]

  package init(width: Int, height: Int, rgb: [UInt8]) {
    self.width = width
    self.height = height
    self.rgb = rgb
  }

  /// BT.601 luma in OpenCV's fixed point (`COLOR_RGB2GRAY`: 15 fractional bits, rounded),
  /// so the detector sees the gray picture OpenCV would.
  package var gray: [UInt8] {
    var out = [UInt8](repeating: 0, count: width * height)
    rgb.withUnsafeBufferPointer { source in
      for index in 0..<out.count {
        let r = Int(source[3 * index])
        let g = Int(source[3 * index + 1])
        let b = Int(source[3 * index + 2])
        out[index] = UInt8((r * 9798 + g * 19235 + b * 3735 + 16384) >> 15)
      }
    }
    return out
  }

  /// This picture averaged down so its long side is at most `longSide` (itself if it is).
  package func shrunk(longSide: Int) -> SmallPicture {
    let long = max(width, height)
    guard long > longSide, longSide > 0 else { return self }
    let w = max(1, width * longSide / long)
    let h = max(1, height * longSide / long)
    var sums = [UInt32](repeating: 0, count: w * h * 3)
    var counts = [UInt32](repeating: 0, count: w * h)
    let column = (0..<width).map { $0 * w / width }
    // Pointers, not arrays, in the loops over pixels.
    rgb.withUnsafeBufferPointer { rgb in
      sums.withUnsafeMutableBufferPointer { sums in
        counts.withUnsafeMutableBufferPointer { counts in
          for y in 0..<height {
            let row = y * h / height * w
            for x in 0..<width {
              let target = row + column[x]
              let source = 3 * (y * width + x)
              sums[3 * target] &+= UInt32(rgb[source])
              sums[3 * target + 1] &+= UInt32(rgb[source + 1])
              sums[3 * target + 2] &+= UInt32(rgb[source + 2])
              counts[target] &+= 1
            }
          }
        }
      }
    }
    var out = [UInt8](repeating: 0, count: w * h * 3)
    out.withUnsafeMutableBufferPointer { out in
      for index in 0..<(w * h) where counts[index] > 0 {
        let (count, half) = (counts[index], counts[index] / 2)
        for c in 0..<3 { out[3 * index + c] = UInt8((sums[3 * index + c] + half) / count) }
      }
    }
    return SmallPicture(width: w, height: h, rgb: out)
  }
}
