/// Where in a colour picture a face can be: a face is skin-coloured, so the crop's
/// detector judges only the windows with enough skin colour in them, and at each scale
/// resizes only the part of the picture those windows cover. Most of a photo (sky,
/// foliage, walls, a blue shirt) is never run through the cascade at all.
///
/// Skin colour is the chroma box of Chai and Ngan (1999), which holds skin of every tone
/// because it ignores brightness: Cb 77…127 and Cr 133…173 (BT.601, full range). A picture
/// that carries little colour (a black-and-white photo, a grey scene, a sepia print has
/// skin chroma everywhere) is not gated: every window is judged, as without the gate.
///
/// ```swift
/// let gate = SkinGate(look)          // look: the detector's RGB picture
/// gate.candidates(scale: 1, window: 20, step: 2, lastX: 781, lastY: 581)
/// // the 20 × 20 windows two pixels apart with 30 % skin colour, or nil
/// ```
package struct SkinGate {
  /// The least share of a window's pixels with skin chroma: a face's 20 × 20 window
  /// (brows to mouth) is mostly skin; the fixtures' faces are 95 % skin-coloured.
  static let skinShare = 0.3
  /// The least share of a picture's pixels with any colour (chroma farther than
  /// ``colourless`` from grey), among those neither near black nor near white (luma 40 to
  /// 220, where colour can be seen), for the gate to apply.
  static let colourShare = 0.25
  static let colourless = 12

  /// The picture's size, in its pixels.
  let width: Int
  let height: Int
  /// Skin-coloured pixels above and left of each entry, (width + 1) × (height + 1); empty
  /// when the picture carries too little colour to gate.
  private let counts: [Int32]

  /// False for a picture with too little colour: then every window is judged.
  var isActive: Bool { !counts.isEmpty }

  package init(_ picture: SmallPicture) {
    let (width, height) = (picture.width, picture.height)
    (self.width, self.height) = (width, height)
    let stride = width + 1
    guard width > 0, height > 0, picture.rgb.count == width * height * 3 else {
      counts = []
      return
    }
    var counts = [Int32](repeating: 0, count: stride * (height + 1))
    var (coloured, lit) = (0, 0)
    picture.rgb.withUnsafeBufferPointer { rgb in
      counts.withUnsafeMutableBufferPointer { counts in
        for y in 0..<height {
          var rowCount: Int32 = 0
          for x in 0..<width {
            let p = 3 * (y * width + x)
            let (r, g, b) = (Int(rgb[p]), Int(rgb[p + 1]), Int(rgb[p + 2]))
            // BT.601 chroma in 16-bit fixed point, offset to 128.
            let cb = 128 + ((-11059 * r - 21709 * g + 32768 * b) >> 16)
            let cr = 128 + ((32768 * r - 27439 * g - 5329 * b) >> 16)
            // Colour counts where it can be seen: not in near-black or near-white.
            let luma = (r * 9798 + g * 19235 + b * 3735 + 16384) >> 15
            if (40...220).contains(luma) {
              lit += 1
              if abs(cb - 128) + abs(cr - 128) > Self.colourless { coloured += 1 }
            }
            if (77...127).contains(cb) && (133...173).contains(cr) { rowCount += 1 }
            counts[(y + 1) * stride + x + 1] = counts[y * stride + x + 1] + rowCount
          }
        }
      }
    }
    let enough = lit > 0 && Double(coloured) >= Self.colourShare * Double(lit)
    self.counts = enough ? counts : []
  }

  /// The windows of one scale worth judging: positions (x, y) of the scale's picture, in
  /// steps of `step` below `lastX` and `lastY`, whose window (`window` pixels of that
  /// picture, `scale` pixels of this one each) the gate admits. Nil when the gate admits
  /// nothing at this scale; otherwise the smallest rectangle of positions holding them
  /// all (`left` and `top` multiples of `step`) and which positions in it are admitted.
  func candidates(scale: Float, window: Int, step: Int, lastX: Int, lastY: Int)
    -> LevelCandidates?
  {
    let columns = (lastX + step - 1) / step
    let rows = (lastY + step - 1) / step
    guard columns > 0, rows > 0, isActive else { return nil }
    let side = roundEven(Float(window) * scale)
    let least = Int32(min(Double(Int32.max), (Self.skinShare * Double(side * side)).rounded(.up)))
    // Each column's and row's window edges in this picture's pixels, clamped to it.
    let stride = width + 1
    func edges(_ count: Int, _ limit: Int) -> (start: [Int], end: [Int]) {
      let start = (0..<count).map { max(0, min(roundEven(Float($0 * step) * scale), limit)) }
      return (start, start.map { min($0 + side, limit) })
    }
    let (xs, xe) = edges(columns, width)
    let (ys, ye) = edges(rows, height)
    // Rows padded with a block of zeros, so that eight neighbours read as one
    // (``LevelCandidates/lanes(x:y:)``).
    let padded = columns + WindowEvaluator.lanes
    var admitted = [UInt8](repeating: 0, count: padded * rows)
    var (left, top, right, bottom) = (Int.max, Int.max, -1, -1)
    counts.withUnsafeBufferPointer { counts in
      for row in 0..<rows {
        let (upper, lower) = (ys[row] * stride, ye[row] * stride)
        for column in 0..<columns {
          let (x0, x1) = (xs[column], xe[column])
          let skin =
            counts[lower + x1] &- counts[upper + x1] &- counts[lower + x0]
            &+ counts[upper + x0]
          guard skin >= least else { continue }
          admitted[row * padded + column] = 1
          (left, top) = (min(left, column), min(top, row))
          (right, bottom) = (max(right, column), max(bottom, row))
        }
      }
    }
    guard right >= 0 else { return nil }
    return LevelCandidates(
      firstColumn: left, firstRow: top, columns: right - left + 1, rows: bottom - top + 1,
      step: step, stride: padded, admitted: admitted)
  }
}

/// The positions of one scale the gate admits: the smallest rectangle holding them,
/// `columns` × `rows` positions `step` apart from column `firstColumn` and row `firstRow`
/// of the scale's grid, and which positions of the grid are admitted (1), rows of `stride`
/// bytes ending in a block of zeros.
package struct LevelCandidates {
  var firstColumn: Int
  var firstRow: Int
  var columns: Int
  var rows: Int
  var step: Int
  var stride: Int
  var admitted: [UInt8]

  /// The rectangle's corner in the scale's pixels.
  var left: Int { firstColumn * step }
  var top: Int { firstRow * step }

  /// True when the position (x, y), relative to (`left`, `top`), is admitted.
  @inline(__always)
  func admits(x: Int, y: Int) -> Bool {
    let (column, row) = (x / step, y / step)
    guard column >= 0, column < columns, row >= 0, row < rows else { return false }
    return admitted[(row + firstRow) * stride + column + firstColumn] != 0
  }

  /// Which of the eight positions from (x, y) on (relative to (`left`, `top`)), `step`
  /// apart, are admitted.
  @inline(__always)
  func lanes(x: Int, y: Int) -> SIMDMask<SIMD8<Int64>> {
    let (column, row) = (x / step, y / step)
    guard column >= 0, column < columns, row >= 0, row < rows else {
      return SIMDMask(repeating: false)
    }
    let bytes = admitted.withUnsafeBufferPointer { pointer -> SIMD8<UInt8> in
      guard let base = pointer.baseAddress else { return .zero }
      return UnsafeRawPointer(base + (row + firstRow) * stride + column + firstColumn)
        .loadUnaligned(as: SIMD8<UInt8>.self)
    }
    return SIMD8<Int64>(truncatingIfNeeded: bytes) .!= 0
  }
}
