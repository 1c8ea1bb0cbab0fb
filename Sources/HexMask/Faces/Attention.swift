#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``HexMask/CropChoice/attention``: where the interest of a picture is, with no model.
///
/// On a copy at most 128 pixels long, each pixel's interest is its edge strength (luma
/// differences across and down, capped), plus its colour saturation where that is
/// strong, plus a large bonus for skin tones (the YCbCr box of Chai and Ngan), since the
/// point is to keep people. The square slides along the long side; its score weighs the
/// interest by a Gaussian around its centre (σ = 0.15 of the side), so the subject lands
/// in the middle rather than at an edge, and leans a little to the picture's centre (up to
/// 20 % at the far ends), so that a texture spread over the whole picture (wood, fur)
/// does not pull the square aside. Integer maps, Double sums in a fixed order: the same
/// square on every run and thread.
extension SmallPicture {
  /// The square (side `min(width, height)`, in this picture's pixels) with the most
  /// interest. Only one of `left` and `top` can be other than 0.
  package func attentionSquare() -> CropSquare {
    let centre = CropSquare(imageWidth: width, imageHeight: height, gravity: .center)
    guard width > 1 || height > 1, width != height else { return centre }
    let small = shrunk(longSide: 128)
    let (w, h) = (small.width, small.height)
    let horizontal = w > h
    let length = horizontal ? w : h
    let side = min(w, h)
    guard length > side else { return centre }
    let profile = small.interestProfile(alongWidth: horizontal)

    let sigma = max(Double(side) * 0.15, 0.5)
    let range = length - side
    var best = (offset: range / 2, score: -1.0)
    for offset in 0...range {
      let middle = Double(offset) + Double(side) / 2
      var score = 0.0
      for index in offset..<(offset + side) {
        let distance = (Double(index) + 0.5 - middle) / sigma
        score += profile[index] * exp(-0.5 * distance * distance)
      }
      let lean = Double(abs(2 * offset - range)) / Double(max(range, 1))
      score *= 1 - 0.2 * lean
      if score > best.score + 1e-9 { best = (offset, score) }
    }
    // Back to this picture's pixels: the same fraction of the long side.
    let fullLength = horizontal ? width : height
    let fullSide = min(width, height)
    let start = min(
      max(0, (best.offset * fullLength + length / 2) / length), fullLength - fullSide)
    return horizontal
      ? CropSquare(left: start, top: 0, side: fullSide)
      : CropSquare(left: 0, top: start, side: fullSide)
  }

  /// The interest of each column (or row), summed across the picture.
  private func interestProfile(alongWidth: Bool) -> [Double] {
    var profile = [Double](repeating: 0, count: alongWidth ? width : height)
    func luma(_ x: Int, _ y: Int) -> Int {
      let i = 3 * (y * width + x)
      return (299 * Int(rgb[i]) + 587 * Int(rgb[i + 1]) + 114 * Int(rgb[i + 2])) / 1000
    }
    for y in 0..<height {
      for x in 0..<width {
        let i = 3 * (y * width + x)
        let (r, g, b) = (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
        let across = x > 0 && x < width - 1 ? abs(luma(x + 1, y) - luma(x - 1, y)) : 0
        let down = y > 0 && y < height - 1 ? abs(luma(x, y + 1) - luma(x, y - 1)) : 0
        let edge = min(across + down, 120)
        let saturation = max(r, g, b) - min(r, g, b)
        let y601 = (299 * r + 587 * g + 114 * b) / 1000
        let cb = 128 + (-168_736 * r - 331_264 * g + 500_000 * b) / 1_000_000
        let cr = 128 + (500_000 * r - 418_688 * g - 81_312 * b) / 1_000_000
        let skin = (77...127).contains(cb) && (133...173).contains(cr) && (41...239).contains(y601)
        let interest =
          0.5 * Double(edge) + (saturation > 40 ? 0.1 * Double(saturation) : 0)
          + (skin ? 2.0 * 255 : 0)
        profile[alongWidth ? x : y] += interest
      }
    }
    return profile
  }
}
