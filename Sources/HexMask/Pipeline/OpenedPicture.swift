// The render's first step: the input opened for what the outputs need, upright, with the
// square decided (by the options, or by a look at the picture). Nothing is written yet;
// the plan (RenderPlan.swift) is made from this.

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

    init(
      stored: any ImageDecoder, autoOrient: Bool, decision: CropDecision, faces: [Face]?
    ) {
      self.stored = stored
      orientation = autoOrient ? stored.metadata.exif.map(Orientation.fromExif) ?? .up : .up
      upright = openOriented(stored, orientation: orientation)
      self.decision = decision
      self.faces = faces
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
        autoOrient: input.autoOrient)
    }
    if let decision = CropDecision(shape: shape, output: output) {
      return OpenedPicture(
        stored: try open(decision), autoOrient: input.autoOrient, decision: decision, faces: nil)
    }
    // The square depends on the picture: look first (decoding once where the render's
    // decode is small enough to keep), then open for the square chosen.
    let chosen = try lookAndChoose(
      source, need: need, crop: output.crop, shape: shape, input: input)
    let stored: any ImageDecoder
    if let kept = chosen.picture { stored = kept } else { stored = try open(chosen.decision) }
    return OpenedPicture(
      stored: stored, autoOrient: input.autoOrient, decision: chosen.decision,
      faces: chosen.faces)
  }
}
