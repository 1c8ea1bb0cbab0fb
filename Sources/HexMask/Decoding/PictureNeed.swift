/// What the outputs need of a picture, so that a decoder able to crop and scale while it
/// decodes (libwebp) delivers only that, and its memory follows the outputs, not the
/// size the file's header claims.
///
/// ```swift
/// let need = PictureNeed(largestSide: 256, smallestSide: 64) { width, height in
///   CropSquare(imageWidth: width, imageHeight: height, gravity: .north)
/// }
/// ```
package struct PictureNeed {
  /// The largest output side; nil when an output is the square's own size, which forbids
  /// any shrinking.
  package var largestSide: Int?
  /// The smallest output side, which sets how far the resizer reaches beyond the square.
  package var smallestSide: Int?
  /// The square an upright `width × height` picture shows; nil: the decoder cannot know,
  /// so it delivers the whole picture.
  package var square: ((_ width: Int, _ height: Int) -> CropSquare)?
  /// With no `square`: the whole picture may still be scaled down (to twice
  /// `largestSide` on its short side, when that is at most half of it), as a smart crop's
  /// look at the whole picture wants.
  package var scalesWhole = false
  /// The square's side as a share of the picture's short side: 1 unless a face is framed
  /// (``HexMask/Output/faceSize``). A decoder that shrinks the whole picture on load (a
  /// JPEG's DCT scaling, a HEIF thumbnail) aims at ``wholeTargetSide``, so that the smaller
  /// square still keeps twice `largestSide` of its pixels.
  package var squareShare = 1.0

  /// The side a decoder that shrinks the whole picture aims its short side at:
  /// `largestSide` over ``squareShare``, rounded up (nil: no shrinking).
  package var wholeTargetSide: Int? {
    guard let largestSide else { return nil }
    guard squareShare > 0 && squareShare < 1 else { return largestSide }
    // At most 2³¹: the shrink rule doubles it and multiplies by 8 without overflow, and no
    // picture is that large, so it simply forbids any shrinking.
    let target = (Double(largestSide) / squareShare).rounded(.up)
    return target < 0x1p31 ? Int(target) : 1 << 31
  }

  package init(
    largestSide: Int?, smallestSide: Int?, scalesWhole: Bool = false,
    square: ((_ width: Int, _ height: Int) -> CropSquare)? = nil
  ) {
    self.largestSide = largestSide
    self.smallestSide = smallestSide
    self.scalesWhole = scalesWhole
    self.square = square
  }
}

/// The part of a stored picture a decoder delivers and at what size: the square the
/// outputs show and a margin around it for the resizer, or only the square, scaled.
///
/// Without scaling, the margin is wider than the Lanczos filter reaches (3 source pixels
/// per output pixel, at least 3), so the resized square is exactly what the whole
/// picture would give. With it, the square alone is scaled to 2 × the largest output side
/// (when it is at least 4 × as large, the rule JPEG's shrink-on-load follows), leaving the
/// filter a factor of 2 to do, as vipsthumbnail does. `left` and `top` are even: libwebp
/// rounds odd crop offsets down, so hexmask does it first and knows where the square is.
struct DecodeWindow: Equatable {
  /// Stored pixels left of and above the window.
  var left = 0
  var top = 0
  /// The window in stored pixels.
  var width: Int
  var height: Int
  /// The window's size as delivered: `width × height`, or smaller when scaled.
  var outputWidth: Int
  var outputHeight: Int
  /// The square the outputs show, in delivered pixels; nil when the window is the whole
  /// picture as stored and the caller chooses the square itself.
  var square: CropSquare?

  /// The window of a stored `width × height` picture that `need` asks for.
  init(width: Int, height: Int, need: PictureNeed?) {
    (self.width, self.height, outputWidth, outputHeight) = (width, height, width, height)
    guard let need else { return }
    guard let choose = need.square else {
      let short = min(width, height)
      if need.scalesWhole, let largest = need.largestSide, largest > 0, largest <= short / 4 {
        // The whole picture, its short side scaled to 2 × largest.
        let factor = Double(2 * largest) / Double(short)
        outputWidth = max(1, Int((Double(width) * factor).rounded()))
        outputHeight = max(1, Int((Double(height) * factor).rounded()))
      }
      return
    }
    let square = choose(width, height)
    guard square.side > 0, square.left >= 0, square.top >= 0,
      square.left <= width - square.side, square.top <= height - square.side
    else { return }
    if let largest = need.largestSide, largest > 0, largest <= square.side / 4 {
      // Scaled: the square alone, its corner moved to even offsets (at most one pixel).
      left = square.left & ~1
      top = square.top & ~1
      (self.width, self.height) = (square.side, square.side)
      (outputWidth, outputHeight) = (2 * largest, 2 * largest)
      self.square = CropSquare(left: 0, top: 0, side: 2 * largest)
      return
    }
    let smallest = max(1, min(need.smallestSide ?? square.side, square.side))
    let reach = (square.side + smallest - 1) / smallest
    let margin = 3 * reach + 2
    left = max(0, square.left - margin) & ~1
    top = max(0, square.top - margin) & ~1
    let right = square.left + square.side + min(margin, width - square.left - square.side)
    let bottom = square.top + square.side + min(margin, height - square.top - square.side)
    (self.width, self.height) = (right - left, bottom - top)
    (outputWidth, outputHeight) = (self.width, self.height)
    self.square = CropSquare(left: square.left - left, top: square.top - top, side: square.side)
  }

  /// True when the window is less than the whole stored `width × height` picture.
  func crops(width: Int, height: Int) -> Bool {
    left != 0 || top != 0 || self.width != width || self.height != height
  }

  /// True when the window is delivered smaller than it is stored.
  var scales: Bool { outputWidth != width || outputHeight != height }
}
