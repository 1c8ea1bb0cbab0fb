// Where the square goes, once decided. A crop that looks at the picture (faces, attention)
// decides only after its look; the others decide from the options alone. Either way the
// render holds one decision and applies it to whatever size it decodes at, instead of
// reading a `CropChoice` that the look rewrote.

extension HexMask {
  /// The rule that places the square in an upright picture of any size, so the square the
  /// look chose on a small copy is the same place in every decode.
  enum CropDecision: Equatable {
    /// The top-left square, as UIKit's view bounds do (the seed layout).
    case topLeft
    /// A side, corner or the centre.
    case gravity(Gravity)
    /// Centred on this point (fractions 0…1 of the width and height) as far as it fits.
    case focus(x: Double, y: Double)

    /// The decision that needs no look at the picture; nil when the crop must look first
    /// (faces or attention on a picture that is drawn).
    init?(shape: Shape, output: Output) {
      if shape.layout == .seed {
        self = .topLeft
        return
      }
      switch output.crop {
      case .gravity(let gravity): self = .gravity(gravity)
      case .focus(let x, let y): self = .focus(x: x, y: y)
      case .faces, .attention:
        // A mask shows no picture, so nothing is looked at: the centre, as by default.
        guard output.maskOnly else { return nil }
        self = .gravity(.center)
      }
    }

    /// The square of an upright `width × height` picture.
    func square(width: Int, height: Int) -> CropSquare {
      switch self {
      case .topLeft: CropSquare(left: 0, top: 0, side: min(width, height))
      case .gravity(let gravity):
        CropSquare(imageWidth: width, imageHeight: height, gravity: gravity)
      case .focus(let x, let y): CropSquare(imageWidth: width, imageHeight: height, focus: (x, y))
      }
    }
  }
}
