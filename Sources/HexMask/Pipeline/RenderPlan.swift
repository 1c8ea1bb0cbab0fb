// What a render will do, decided before any writer exists: the square, each output's side
// and shape, the colour profile and the encoder settings. A plan that cannot be carried
// out (a side too large for the pixel limit or the format, a shape that does not fit)
// fails here, so nothing is written; the draw loop (Render.swift) then carries it out.

extension HexMask {
  /// A render decided, as plain values.
  struct RenderPlan {
    /// One output: its side, and the shape on a canvas of that side.
    struct Planned {
      var side: Int
      var mask: MaskShape
    }

    /// Where the square goes, the square in the decoded upright picture, and the same
    /// square in upright input pixels (as reports give it).
    var decision: CropDecision
    var square: CropSquare
    var inputCrop: Crop
    /// The faces the look found (nil: no look for faces).
    var faces: [Face]?
    /// How a face was framed (nil: no ``Output/faceSize``).
    var framing: Framing?
    /// One per target, in order.
    var outputs: [Planned]
    /// The colour conversion and the profile or tag written into every output.
    var colour: ColourPlan
    /// The encoder settings, the same for every output at its own side; its background is
    /// in the output's colour space (see ``border``).
    var output: Output
    /// The border's colour in the numbers of the output's colour space: as given (sRGB),
    /// or turned into the kept profile's, so a viewer shows the colour asked for.
    var border: RGBAColor
    /// False for a mask: the picture's rows are never read.
    var readsPicture: Bool
    /// Strict mode: the rows below the square are read too, and any warning fails.
    var strict: Bool
    /// True when every frame of an animation is drawn into animated outputs.
    var animates: Bool
    /// What a still output of an animation says: that it shows the first frame only.
    var frameWarnings: [Warning]

    /// The plan for `picture` with outputs of `sizes` (nil: the square's own); the first
    /// size that does not fit fails, naming its index.
    init(
      picture: OpenedPicture, sizes: [Int?], shape: Shape, output: Output, input: Input
    ) throws(TargetedError) {
      square = picture.square
      outputs = []
      for (index, size) in sizes.enumerated() {
        let side = HexMask.outputSide(size: size, upscale: output.upscale, squareSide: square.side)
        do throws(Error) {
          try HexMask.checkOutputSize(side: side, output: output, input: input)
          outputs.append(Planned(side: side, mask: try HexMask.maskShape(shape, side: side)))
        } catch {
          throw TargetedError(error: error, target: index)
        }
      }
      decision = picture.decision
      inputCrop = HexMask.cropInInput(
        stored: picture.stored, orientation: picture.orientation, decision: decision)
      faces = picture.faces
      framing = picture.framing
      // EXIF, XMP and comments are never copied (privacy); the ICC profile is, unless told.
      colour = ColourPlan(metadata: picture.stored.metadata, output: output)
      border = colour.inOutputSpace(shape.borderColor)
      self.output = output
      self.output.kind = output.kind.changingBackground(colour.inOutputSpace)
      readsPicture = !output.maskOnly
      strict = input.strict
      let isAnimated = picture.stored.metadata.isAnimated && input.frame == nil
      animates = isAnimated && output.kind.canMove && !output.maskOnly
      // A mask is the same for every frame: nothing to say.
      frameWarnings =
        isAnimated && !animates && !output.maskOnly
        ? [
          Warning(
            .firstFrameOnly,
            "an animation: \(stillKindName(output.kind)) cannot move, so it shows the first "
              + "frame only")
        ] : []
    }
  }
}

/// What a still output is called in a warning: "a JPEG", "a palette PNG".
private func stillKindName(_ kind: HexMask.Output.Kind) -> String {
  switch kind {
  case .jpeg: "a JPEG"
  case .avif: "an AVIF"
  case .jxl: "a JPEG XL"
  case .png: "a palette PNG"
  case .webp: "a WebP"
  case .mask: "a mask"
  }
}
