#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The render's first step: the input opened for what the outputs need, upright, with the
// square decided (by the options, or by a look at the picture, a framed face's after it).
// Nothing is written yet; the plan (RenderPlan.swift) is made from this.

extension HexMask {
  /// The picture a render reads, opened, and where its square is.
  struct OpenedPicture {
    /// The decoder as the file stores the picture (or a kept upright copy of it).
    let stored: any ImageDecoder
    /// The EXIF turn applied (`.up` when not told to, or already upright).
    let orientation: Orientation
    /// `stored`, turned upright.
    let upright: any ImageDecoder
    /// Where the square goes, and the faces the look found (nil: no look for faces).
    let decision: CropDecision
    let faces: [Face]?
    /// How ``Output/faceSize`` framed the square; nil without it.
    let framing: Framing?

    init(
      stored: any ImageDecoder, autoOrient: Bool, decision: CropDecision, faces: [Face]?,
      framing: Framing? = nil
    ) {
      self.stored = stored
      orientation = stored.metadata.orientation(autoOrient: autoOrient)
      upright = openOriented(stored, orientation: orientation)
      self.decision = decision
      self.faces = faces
      self.framing = framing
    }

    /// The square in `upright`'s pixels: where a decoder that delivered only a window
    /// around it (WebP) says, or the decision applied to the size decoded.
    var square: CropSquare {
      (orientation == .up ? stored.chosenSquare : nil)
        ?? decision.square(width: upright.width, height: upright.height)
    }
  }

  /// Opens `source` for outputs of `sizes` (nil: the square's own), deciding the square
  /// first: from the options when they say where it is, otherwise by a look at the picture.
  static func openPicture(
    _ source: CFile, sizes: [Int?], shape: Shape, output: Output, input: Input
  ) throws(ImageError) -> OpenedPicture {
    // Shrink only as far as the largest output allows; nil (own size) forbids any.
    let fixedSizes = sizes.contains(nil) ? [] : sizes.compactMap { $0 }
    var need = PictureNeed(largestSide: fixedSizes.max(), smallestSide: fixedSizes.min())
    func open(_ decision: CropDecision) throws(ImageError) -> any ImageDecoder {
      need.square = decision.square
      return try openDecoder(
        file: source, maxPixels: input.maxPixels, need: need, memory: input.memoryBudget,
        autoOrient: input.autoOrient, frames: FrameChoice(input))
    }
    if let decision = CropDecision(shape: shape, output: output) {
      return OpenedPicture(
        stored: try open(decision), autoOrient: input.autoOrient, decision: decision, faces: nil)
    }
    // The square depends on the picture: look first (decoding once where the render's
    // decode is small enough to keep), then open for the square chosen.
    let start = ftello(source)
    var chosen = try lookAndChoose(
      source, need: need, crop: output.crop, shape: shape, input: input)
    var decision = chosen.decision
    var framing: Framing?
    if let faceSize = output.faceSize {
      (decision, framing) = decision.framed(faceSize: faceSize)
      // A decoder that shrinks the whole picture keeps the smaller square large enough.
      need.squareShare = decision.squareShare
      if let kept = chosen.picture, !servesFramed(kept, decision: decision, need: need) {
        // Kept for the full-side square, it is too small for the framed one: let it go (and
        // the memory it holds, before the next decode takes any), and decode again at the
        // size the smaller square needs (a JPEG's second decode, and its last).
        chosen.picture = nil
        try rewind(source, to: start)
      }
    }
    let stored: any ImageDecoder
    if let kept = chosen.picture { stored = kept } else { stored = try open(decision) }
    return OpenedPicture(
      stored: stored, autoOrient: input.autoOrient, decision: decision, faces: chosen.faces,
      framing: framing)
  }

  /// True when `picture`, the upright decode ``lookAndChoose(_:need:crop:shape:input:)``
  /// kept, serves the render of `decision`'s square: it is the picture at full size, no
  /// output size allows shrinking, or the square keeps at least twice the largest output
  /// side of its pixels (what the render's own decode would keep: shrink-on-load's rule).
  private static func servesFramed(
    _ picture: any ImageDecoder, decision: CropDecision, need: PictureNeed
  ) -> Bool {
    guard let largest = need.largestSide else { return true }
    let (width, height) = picture.uprightStoredSize(.up)
    if max(picture.width, picture.height) >= max(width, height) { return true }
    let square = decision.square(width: picture.width, height: picture.height)
    return square.side >= 2 * largest
  }
}
