/// The smart crops' look at a picture: a small upright RGB copy, and the upright size of
/// the picture it stands for.
package struct Look: Sendable {
  package var picture: SmallPicture
  /// The upright input's size in its own pixels (as stored, turned by EXIF).
  package var width: Int
  package var height: Int
}

extension Look {
  /// The long side a look is made at: a face needs about 20 pixels for the cascades to
  /// see it, so this finds faces down to 2 % of the long side (80 pixels of a 4032 pixel
  /// phone photo, 24 of a 1200 pixel one), on any aspect ratio. A phone photo's JPEG
  /// decodes at 1/4 to just under it (1008 × 756; 4000 × 3000 to 1000 × 750), which the
  /// look then takes as it is: no averaging. At 800, faces under 2.5 % were lost (6 of 56
  /// at 2 % found on the wide scenes of scripts/face_sizes.py; 36 at 1024),
  /// for 14 % more time on the phone photos of `make bench` (job h).
  package static let longSide = 1024
  /// The smallest long side a render's own decode may have to serve as the look. The
  /// render's decode is asked for no less than the look's
  /// (``HexMask/lookAndChoose(_:need:crop:shape:input:)``), so only a format that cannot
  /// decode that size falls short of it.
  package static let smallestDecode = 600

  /// Decodes `file` as small as its format allows (JPEG's 1/2…1/8, libwebp's scaling,
  /// a HEIF thumbnail), turns it upright, and averages it down to at most ``longSide``
  /// pixels, row by row: the whole picture is never held at full size unless its decoder
  /// must (HEIF without a thumbnail, a lossless WebP, an EXIF turn).
  package init(
    file: CFile, maxPixels: Int, autoOrient: Bool, memory: MemoryBudget?
  ) throws(ImageError) {
    let stored = try openDecoder(
      file: file, maxPixels: maxPixels, need: Self.need, memory: memory, autoOrient: autoOrient)
    try self.init(stored: stored, autoOrient: autoOrient)
  }

  /// What a look asks of the decoder: a short side of at least 600 (twice the largest
  /// side, shrink-on-load's rule), the whole picture. A phone photo's JPEG decodes at 1/4
  /// for it (756 or 750), not at 1/2: a short side of 768 would have asked for four times
  /// the pixels.
  static var need: PictureNeed {
    PictureNeed(largestSide: 300, smallestSide: nil, scalesWhole: true)
  }

  /// The look at `stored`, a decoder opened for ``need``, read to its end.
  init(stored: any ImageDecoder, autoOrient: Bool) throws(ImageError) {
    let metadata = stored.metadata
    let orientation = metadata.orientation(autoOrient: autoOrient)
    let upright = openOriented(stored, orientation: orientation)
    picture = try SmallPicture(averaging: upright, longSide: Self.longSide)
    (width, height) = stored.uprightStoredSize(orientation)
  }

  /// The square of the full upright picture that a square of the look stands for, as
  /// fractions of the width and height at its centre (what ``HexMask/CropChoice/focus(x:y:)``
  /// takes), so every decode size of the render finds the same place.
  func focus(of square: CropSquare) -> (x: Double, y: Double) {
    (
      (Double(square.left) + Double(square.side) / 2) / Double(max(picture.width, 1)),
      (Double(square.top) + Double(square.side) / 2) / Double(max(picture.height, 1))
    )
  }

  /// A box of the look in upright input pixels.
  package func inInput(_ box: PixelBox) -> (x: Int, y: Int, width: Int, height: Int) {
    let sx = Double(width) / Double(max(picture.width, 1))
    let sy = Double(height) / Double(max(picture.height, 1))
    func scaled(_ value: Int, _ factor: Double) -> Int {
      let result = (Double(value) * factor).rounded()
      return result < 1e15 ? Int(result) : 0
    }
    return (scaled(box.x, sx), scaled(box.y, sy), scaled(box.width, sx), scaled(box.height, sy))
  }
}

extension SmallPicture {
  /// `decoder`'s rows averaged into boxes, so the long side is at most `longSide`: each
  /// source pixel counts once, in the box its position falls in.
  package init(averaging decoder: any ImageDecoder, longSide: Int) throws(ImageError) {
    let (sourceWidth, sourceHeight) = (decoder.width, decoder.height)
    guard sourceWidth > 0, sourceHeight > 0 else {
      throw ImageError(.corrupt, "the picture is \(sourceWidth)×\(sourceHeight)")
    }
    let long = max(sourceWidth, sourceHeight)
    let (width, height) =
      long <= longSide
      ? (sourceWidth, sourceHeight)
      : (
        max(1, sourceWidth * longSide / long), max(1, sourceHeight * longSide / long)
      )
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    if width == sourceWidth && height == sourceHeight {
      // Small enough already (a phone photo's 1/8 decode): each pixel is its own box.
      var row = [UInt8](repeating: 0, count: sourceWidth * 4)
      for y in 0..<sourceHeight {
        try decoder.readRow(into: &row)
        row.withUnsafeBufferPointer { row in
          rgb.withUnsafeMutableBufferPointer { rgb in
            let base = y * width * 3
            for x in 0..<width {
              let alpha = UInt32(row[4 * x + 3])
              for c in 0..<3 {
                let value = UInt32(row[4 * x + c])
                rgb[base + 3 * x + c] = UInt8(onWhite(value, alpha: alpha))
              }
            }
          }
        }
      }
      self.init(width: width, height: height, rgb: rgb)
      return
    }
    var sums = [UInt32](repeating: 0, count: width * 3)
    var counts = [UInt32](repeating: 0, count: width)
    var row = [UInt8](repeating: 0, count: sourceWidth * 4)
    let column = (0..<sourceWidth).map { $0 * width / sourceWidth }
    var outputRow = 0
    func flush() {
      rgb.withUnsafeMutableBufferPointer { rgb in
        sums.withUnsafeMutableBufferPointer { sums in
          counts.withUnsafeMutableBufferPointer { counts in
            let base = outputRow * width * 3
            for x in 0..<width where counts[x] > 0 {
              let (count, half) = (counts[x], counts[x] / 2)
              for c in 0..<3 { rgb[base + 3 * x + c] = UInt8((sums[3 * x + c] + half) / count) }
            }
            sums.update(repeating: 0)
            counts.update(repeating: 0)
          }
        }
      }
    }
    for y in 0..<sourceHeight {
      let target = y * height / sourceHeight
      if target != outputRow {
        flush()
        outputRow = target
      }
      try decoder.readRow(into: &row)
      // Pointers, not arrays, in the loop over pixels: it runs for every decoded pixel.
      row.withUnsafeBufferPointer { row in
        column.withUnsafeBufferPointer { column in
          sums.withUnsafeMutableBufferPointer { sums in
            counts.withUnsafeMutableBufferPointer { counts in
              for x in 0..<sourceWidth {
                let (r, g, b) = (UInt32(row[4 * x]), UInt32(row[4 * x + 1]), UInt32(row[4 * x + 2]))
                let alpha = UInt32(row[4 * x + 3])
                let slot = 3 * column[x]
                sums[slot] &+= onWhite(r, alpha: alpha)
                sums[slot + 1] &+= onWhite(g, alpha: alpha)
                sums[slot + 2] &+= onWhite(b, alpha: alpha)
                counts[column[x]] &+= 1
              }
            }
          }
        }
      }
    }
    flush()
    self.init(width: width, height: height, rgb: rgb)
  }
}

/// A channel as it shows over white: transparent pixels count so in the look, for a
/// cut-out's empty parts must not look like dark detail.
@inline(__always)
private func onWhite(_ value: UInt32, alpha: UInt32) -> UInt32 {
  alpha == 255 ? value : (value * alpha + 255 * (255 - alpha) + 127) / 255
}
