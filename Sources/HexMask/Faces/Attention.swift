/// The attention crop: where the interest of a picture is, with no model.
///
/// The picture is box-averaged down to at most `Attention.mapSide` pixels on its long side.
/// Each pixel of that map scores edges (Sobel on BT.601 luma), saturated colour, contrast
/// with the picture's mean colour, and skin tones; skin weighs most, because the point is
/// to keep people. The map is summed across the short axis into a profile along the long
/// one, and every position of the square is scored by that profile under a tent that is
/// highest at the square's centre, so the subject lands in the middle of the square rather
/// than at its edge. The best position is refined between map pixels by a parabola through
/// its neighbours' scores.
///
/// Everything is integer arithmetic, so the answer is the same on every run and thread.
extension SmallPicture {
  /// The square (side `min(width, height)`, in this picture's pixels) with the most
  /// interest: edges, saturated colour, contrast and, above all, skin tones. Only one of
  /// `left` and `top` can be other than 0. A flat picture, a square one, or one whose
  /// `rgb` does not hold `width * height` pixels gives the centred square.
  ///
  /// ```swift
  /// var rgb = [UInt8](repeating: 128, count: 400 * 200 * 3)
  /// // …a red disc centred at x = 250…
  /// SmallPicture(width: 400, height: 200, rgb: rgb).attentionSquare()
  /// // CropSquare(left: 150, top: 0, side: 200), give or take a pixel
  /// ```
  ///
  /// - Complexity: O(`width * height`) to reduce the picture, then O(`mapSide²`).
  package func attentionSquare() -> CropSquare {
    let centre = CropSquare(imageWidth: width, imageHeight: height, gravity: .center)
    guard width > 0, height > 0, width != height else { return centre }
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, pixels <= rgb.count / 3, rgb.count == pixels * 3 else { return centre }

    let map = InterestMap(self)
    let landscape = width > height
    let profile = map.profile(alongColumns: landscape)
    let window = landscape ? map.height : map.width
    guard
      let position = Attention.bestWindow(
        profile: profile, window: min(window, profile.count))
    else { return centre }

    let long = max(width, height)
    let short = min(width, height)
    let offset = Attention.offset(
      windowCentre256: position, mapLength: profile.count, long: long, short: short)
    return landscape
      ? CropSquare(left: offset, top: 0, side: short)
      : CropSquare(left: 0, top: offset, side: short)
  }
}

/// The constants of the attention crop, and its window search.
enum Attention {
  /// The long side of the interest map: enough to place the square within a few pixels
  /// (the window is refined between map pixels), small enough that everything after the
  /// reduction takes under a millisecond.
  static let mapSide = 128

  /// Weights of the features, each 0…255 per map pixel. Skin weighs most; saturated colour
  /// least, so that a bright flat object does not beat a face.
  static let edgeWeight = 8
  static let saturationWeight = 1
  static let contrastWeight = 3
  static let skinWeight = 24
  /// Skin counts in full only where the picture has detail within ``detailReach`` map
  /// pixels: a face has eyes, brows, a mouth and a hairline, while a smooth gradient or
  /// a plain wall in a skin colour has none. Below a Sobel magnitude (|gx| + |gy| of
  /// 8-bit luma) of ``flatGradient`` there is none; from there skin counts in proportion
  /// up to ``fullDetail`` more. On the wide scenes of scripts/face_sizes.py
  /// (seed 6) this kept 34 faces on gradient backgrounds where 25 were kept without it and
  /// libvips kept 32; from 96 to 288 the two sets' totals moved by at most four faces.
  static let flatGradient = 16
  static let fullDetail = 192
  static let detailReach = 3

  /// Sobel magnitudes (|gx| + |gy| of 8-bit luma, up to 2040) below this are texture
  /// (wood grain, noise, fabric) rather than the outline of a thing.
  static let edgeFloor = 64
  /// Chroma (max − min of R, G, B) below this is not saturated colour.
  static let saturationFloor = 96

  /// The position of the window over `profile` with the highest tent-weighted sum, in
  /// 1/256 map pixels of the window's centre; nil when every position scores the same
  /// (a flat picture), which means the centred square.
  ///
  /// Ties go to the position nearest the middle, then to the earlier one. The best
  /// position moves by up to half a map pixel towards its better neighbour, where a
  /// parabola through the three scores peaks.
  static func bestWindow(profile: [Int], window: Int) -> Int? {
    let length = profile.count
    guard window >= 1, window <= length else { return nil }
    // tent[i] is 1 at the window's edges and highest at its centre.
    let tent = (0..<window).map { min($0 + 1, window - $0) }
    let positions = length - window + 1
    var scores = [Int](repeating: 0, count: positions)
    for start in 0..<positions {
      var sum = 0
      for i in 0..<window { sum += profile[start + i] * tent[i] }
      scores[start] = sum
    }
    guard let highest = scores.max(), let lowest = scores.min(), highest != lowest else {
      return nil
    }
    // Twice the distance from the middle position, so that the middle of an even count
    // of positions is exact.
    let middle2 = positions - 1
    var best = 0
    for start in 1..<positions where scores[start] >= scores[best] {
      if scores[start] > scores[best]
        || abs(2 * start - middle2) < abs(2 * best - middle2)
      {
        best = start
      }
    }
    var shift256 = 0
    if best > 0, best < positions - 1 {
      let before = scores[best - 1]
      let at = scores[best]
      let after = scores[best + 1]
      let curvature = before - 2 * at + after
      if curvature < 0 {
        // The vertex of the parabola, (before − after) / (2 · curvature), is within
        // half a pixel because `at` is the highest of the three.
        shift256 = min(128, max(-128, (before - after) * 128 / curvature))
      }
    }
    return 256 * best + 128 * window + shift256
  }

  /// The offset along the long axis of a square of side `short` centred where the window
  /// centred at `windowCentre256` (1/256 map pixels) is, on a map of `mapLength` pixels
  /// that spans `long` picture pixels; kept inside the picture.
  static func offset(windowCentre256: Int, mapLength: Int, long: Int, short: Int) -> Int {
    guard mapLength > 0, long > short else { return 0 }
    // centre = windowCentre256 · long / (256 · mapLength); offset = round(centre − short / 2).
    let denominator = 512 * mapLength
    let numerator = 2 * windowCentre256 * long - short * 256 * mapLength + 256 * mapLength
    let rounded = floorDivide(numerator, denominator)
    return min(max(rounded, 0), long - short)
  }

  /// `a / b` rounded towards minus infinity, for `b > 0`.
  private static func floorDivide(_ a: Int, _ b: Int) -> Int {
    let quotient = a / b
    return a % b < 0 ? quotient - 1 : quotient
  }
}

/// The picture box-averaged down to at most `Attention.mapSide` pixels on its long side,
/// with an interest score per pixel split in two: `base` (edges, saturation, contrast) and
/// `skin`, which is weighted once the whole picture has been seen.
private struct InterestMap {
  var width: Int
  var height: Int
  /// Edges, saturation and contrast, already weighted.
  var base: [Int]
  /// Skin likelihood 0…255, thinned where the neighbourhood is not skin too.
  var skin: [Int]
  /// How much skin counts in this picture, 0…255: skin that covers much of the picture
  /// (a wooden table, a sandy beach, a close-up of fur) says little about where to look.
  var skinRarity: Int

  /// Expects `picture.rgb` to hold `width * height` pixels (checked by the caller).
  init(_ picture: SmallPicture) {
    let long = max(picture.width, picture.height)
    if long > Attention.mapSide {
      width = max(1, (picture.width * Attention.mapSide + long / 2) / long)
      height = max(1, (picture.height * Attention.mapSide + long / 2) / long)
    } else {
      width = picture.width
      height = picture.height
    }
    let count = width * height
    let colours = Self.reduce(picture, width: width, height: height)

    var luma = [Int](repeating: 0, count: count)
    var blueDifference = [Int](repeating: 0, count: count)
    var redDifference = [Int](repeating: 0, count: count)
    var chroma = [Int](repeating: 0, count: count)
    var lumaSum = 0
    var blueSum = 0
    var redSum = 0
    for index in 0..<count {
      let r = colours[3 * index]
      let g = colours[3 * index + 1]
      let b = colours[3 * index + 2]
      // BT.601 in 8 fractional bits; >> floors negative values too, so this is exact.
      let y = (77 * r + 150 * g + 29 * b + 128) >> 8
      let cb = 128 + ((-43 * r - 85 * g + 128 * b) >> 8)
      let cr = 128 + ((128 * r - 107 * g - 21 * b) >> 8)
      luma[index] = y
      blueDifference[index] = cb
      redDifference[index] = cr
      chroma[index] = max(r, g, b) - min(r, g, b)
      lumaSum += y
      blueSum += cb
      redSum += cr
    }
    let meanLuma = lumaSum / count
    let meanBlue = blueSum / count
    let meanRed = redSum / count

    var base = [Int](repeating: 0, count: count)
    var rawSkin = [Int](repeating: 0, count: count)
    var gradient = [Int](repeating: 0, count: count)
    for y in 0..<height {
      let up = max(y - 1, 0) * width
      let row = y * width
      let down = min(y + 1, height - 1) * width
      for x in 0..<width {
        let left = max(x - 1, 0)
        let right = min(x + 1, width - 1)
        let gx =
          (luma[up + right] + 2 * luma[row + right] + luma[down + right])
          - (luma[up + left] + 2 * luma[row + left] + luma[down + left])
        let gy =
          (luma[down + left] + 2 * luma[down + x] + luma[down + right])
          - (luma[up + left] + 2 * luma[up + x] + luma[up + right])
        let edge = min(255, max(0, abs(gx) + abs(gy) - Attention.edgeFloor) >> 1)

        let index = row + x
        gradient[index] = abs(gx) + abs(gy)
        let saturation = min(
          255,
          max(
            0, (chroma[index] - Attention.saturationFloor) * 255 / (255 - Attention.saturationFloor)
          ))
        let contrast = min(
          255,
          abs(luma[index] - meanLuma)
            + 2 * (abs(blueDifference[index] - meanBlue) + abs(redDifference[index] - meanRed)))
        base[index] =
          Attention.edgeWeight * edge + Attention.saturationWeight * saturation
          + Attention.contrastWeight * contrast
        rawSkin[index] = Self.skinLikelihood(
          luma: luma[index], blue: blueDifference[index], red: redDifference[index])
      }
    }

    // Skin counts where its 3×3 neighbourhood is skin too: a face is a patch, while
    // skin-coloured specks (reflections, wood grain, noise) are thinned out; and where
    // there is detail near it (``Attention/fullDetail``).
    var skin = [Int](repeating: 0, count: count)
    var skinSum = 0
    let reach = Attention.detailReach
    for y in 0..<height {
      for x in 0..<width {
        let centre = rawSkin[y * width + x]
        guard centre > 0 else { continue }
        var around = 0
        for dy in -1...1 {
          let row = min(max(y + dy, 0), height - 1) * width
          for dx in -1...1 { around += rawSkin[row + min(max(x + dx, 0), width - 1)] }
        }
        var sharpest = 0
        for dy in -reach...reach {
          let row = min(max(y + dy, 0), height - 1) * width
          for dx in -reach...reach {
            sharpest = max(sharpest, gradient[row + min(max(x + dx, 0), width - 1)])
          }
        }
        let detail = min(
          255, max(0, sharpest - Attention.flatGradient) * 255 / Attention.fullDetail)
        let value = centre * (around / 9) / 255 * detail / 255
        skin[y * width + x] = value
        skinSum += value
      }
    }
    self.base = base
    self.skin = skin
    // Full weight for a face or two; none once skin averages a quarter of the picture.
    skinRarity = max(0, 255 - 4 * skinSum / count)
  }

  /// The interest summed across the short axis: per column (`alongColumns`) or per row.
  func profile(alongColumns: Bool) -> [Int] {
    var baseProfile = [Int](repeating: 0, count: alongColumns ? width : height)
    var skinProfile = baseProfile
    for y in 0..<height {
      for x in 0..<width {
        let slot = alongColumns ? x : y
        baseProfile[slot] += base[y * width + x]
        skinProfile[slot] += skin[y * width + x]
      }
    }
    return zip(baseProfile, skinProfile).map { base, skin in
      base + Attention.skinWeight * skinRarity * skin / 255
    }
  }

  /// How skin-like a colour is, 0…255: an ellipse in the CbCr plane around the tones of
  /// human skin, light to dark, with its long axis along the line from pale to deep skin,
  /// which also keeps out the grays (Cb ≈ Cr ≈ 128) and the orange of wood and tan.
  static func skinLikelihood(luma: Int, blue: Int, red: Int) -> Int {
    guard luma >= 40, luma <= 250 else { return 0 }
    // Across the ellipse (pale to deep skin: Cr up as Cb goes down) and along it.
    let along = (red - 150) - (blue - 110) + 3
    let across = (red - 150) + (blue - 110)
    // (along / 22)² + (across / 14)², scaled by 22² · 14² = 94864.
    let distance = along * along * 196 + across * across * 484
    return max(0, 255 - 255 * distance / 94864)
  }

  /// The picture's R, G, B averaged over `width` × `height` boxes, rounded; box edges at
  /// `i * picture.width / width`, so every box holds at least one pixel.
  private static func reduce(_ picture: SmallPicture, width: Int, height: Int) -> [Int] {
    let columnStarts = (0...width).map { $0 * picture.width / width }
    let rowStarts = (0...height).map { $0 * picture.height / height }
    var out = [Int](repeating: 0, count: width * height * 3)
    var sums = [Int](repeating: 0, count: width * 3)
    picture.rgb.withUnsafeBufferPointer { source in
      for j in 0..<height {
        for i in 0..<sums.count { sums[i] = 0 }
        for y in rowStarts[j]..<rowStarts[j + 1] {
          let rowBase = y * picture.width * 3
          for i in 0..<width {
            var r = 0
            var g = 0
            var b = 0
            for x in columnStarts[i]..<columnStarts[i + 1] {
              let at = rowBase + 3 * x
              r += Int(source[at])
              g += Int(source[at + 1])
              b += Int(source[at + 2])
            }
            sums[3 * i] += r
            sums[3 * i + 1] += g
            sums[3 * i + 2] += b
          }
        }
        let rows = rowStarts[j + 1] - rowStarts[j]
        for i in 0..<width {
          let area = rows * (columnStarts[i + 1] - columnStarts[i])
          for channel in 0..<3 {
            out[(j * width + i) * 3 + channel] = (sums[3 * i + channel] + area / 2) / area
          }
        }
      }
    }
    return out
  }
}
