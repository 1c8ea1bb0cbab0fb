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
/// gate.admits(x: 10, y: 10, side: 20) // true when 30 % of that square is skin-coloured
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

  /// True when the square at (x, y), `side` pixels, has enough skin to hold a face (always,
  /// for an ungated picture). Parts outside the picture count as not skin.
  func admits(x: Int, y: Int, side: Int) -> Bool {
    guard isActive else { return true }
    let (x0, y0) = (max(0, min(x, width)), max(0, min(y, height)))
    let (x1, y1) = (max(0, min(x + side, width)), max(0, min(y + side, height)))
    let stride = width + 1
    let skin =
      counts[y1 * stride + x1] - counts[y0 * stride + x1] - counts[y1 * stride + x0]
      + counts[y0 * stride + x0]
    return Double(skin) >= Self.skinShare * Double(side * side)
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
    var admitted = [Bool](repeating: false, count: columns * rows)
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
          admitted[row * columns + column] = true
          let (x, y) = (column * step, row * step)
          (left, top) = (min(left, x), min(top, y))
          (right, bottom) = (max(right, x), max(bottom, y))
        }
      }
    }
    guard right >= 0 else { return nil }
    // The admitted positions of the rectangle, each row padded with a block of zeros so
    // that eight neighbours read as one (``LevelCandidates/lanes(x:y:)``).
    let (first, last) = (left / step, right / step)
    let span = last - first + 1
    let padded = span + WindowEvaluator.lanes
    var inside = [UInt8](repeating: 0, count: padded * ((bottom - top) / step + 1))
    for (index, row) in ((top / step)...(bottom / step)).enumerated() {
      for column in first...last where admitted[row * columns + column] {
        inside[index * padded + column - first] = 1
      }
    }
    return LevelCandidates(
      left: left, top: top, columns: span, rows: (bottom - top) / step + 1, step: step,
      admitted: inside)
  }
}

/// The positions of one scale the gate admits: a rectangle of positions, `columns` ×
/// `rows` of them `step` apart from (`left`, `top`), and which of them are admitted (1),
/// rows of `columns` plus eight zeros.
package struct LevelCandidates {
  var left: Int
  var top: Int
  var columns: Int
  var rows: Int
  var step: Int
  var admitted: [UInt8]

  /// True when the position (x, y), relative to (`left`, `top`), is admitted.
  @inline(__always)
  func admits(x: Int, y: Int) -> Bool {
    let (column, row) = (x / step, y / step)
    guard column >= 0, column < columns, row >= 0, row < rows else { return false }
    return admitted[row * (columns + WindowEvaluator.lanes) + column] != 0
  }

  /// Which of the eight positions from (x, y) on, `step` apart, are admitted.
  @inline(__always)
  func lanes(x: Int, y: Int) -> SIMDMask<SIMD8<Int64>> {
    let (column, row) = (x / step, y / step)
    guard column >= 0, column < columns, row >= 0, row < rows else {
      return SIMDMask(repeating: false)
    }
    let bytes = admitted.withUnsafeBufferPointer { pointer -> SIMD8<UInt8> in
      guard let base = pointer.baseAddress else { return .zero }
      return UnsafeRawPointer(base + row * (columns + WindowEvaluator.lanes) + column)
        .loadUnaligned(as: SIMD8<UInt8>.self)
    }
    return SIMD8<Int64>(truncatingIfNeeded: bytes) .!= 0
  }
}
