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
    /// The faces crop's choice where it found faces: the full-side square centred on (x, y)
    /// as ``focus(x:y:)`` places it, with the faces found, so that ``framed(faceSize:)``
    /// can cut a smaller square around them instead.
    case faces(x: Double, y: Double, found: FoundFaces)
    /// A framed face: a square whose side is `side` (0…1) of the picture's short side,
    /// centred on (x, y) as far as it fits.
    case framed(x: Double, y: Double, side: Double)

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
      case .focus(let x, let y), .faces(let x, let y, _):
        CropSquare(imageWidth: width, imageHeight: height, focus: (x, y))
      case .framed(let x, let y, let side):
        CropSquare(imageWidth: width, imageHeight: height, focus: (x, y), sideShare: side)
      }
    }

    /// The square's side as a share of the picture's short side: less than 1 only for a
    /// framed face, whose smaller square a decoder that shrinks the whole picture on load
    /// must keep large enough (``PictureNeed/squareShare``).
    var squareShare: Double {
      if case .framed(_, _, let side) = self { side } else { 1 }
    }

    /// This decision with the faces framed at `faceSize` (``Output/faceSize``), and how:
    /// around the faces found, or, where none were, the full-side square the look chose
    /// (attention's).
    func framed(faceSize: Double) -> (decision: CropDecision, framing: Framing) {
      guard case .faces(_, _, let found) = self,
        let frame = FaceFraming.frame(
          found.faces.map {
            FaceFraming.Box(
              x: Double($0.x), y: Double($0.y), width: Double($0.width),
              height: Double($0.height))
          }, width: found.width, height: found.height, faceSize: faceSize)
      else { return (self, .attention) }
      let (width, height) = (Double(found.width), Double(found.height))
      return (
        .framed(
          x: (frame.left + frame.side / 2) / width, y: (frame.top + frame.side / 2) / height,
          side: min(frame.side / min(width, height), 1)),
        frame.framing
      )
    }

    /// The faces a look found, in upright input pixels of the `width × height` picture.
    struct FoundFaces: Equatable {
      var faces: [Face]
      var width: Int
      var height: Int
    }
  }
}
