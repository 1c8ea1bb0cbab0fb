#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The render itself over C streams: decode, orient, crop, then draw every output in turns.
// The entry points (EntryPoints.swift) open the streams; the writers come from
// WriterFactory.swift.

extension HexMask {
  /// One output of a render: its size (nil: the square's own) and the C stream it is
  /// written to.
  struct Target {
    var size: Int?
    var file: CFile
  }

  /// A failure of a render with several outputs, and which of them it is about (nil: the
  /// input, or all of them).
  package struct TargetedError: Swift.Error, Sendable {
    package var error: Error
    package var target: Int?
  }

  /// The pipeline over C streams, for one output.
  static func render(
    from source: CFile, to destination: CFile, shape: Shape, output: Output, input: Input
  ) throws(Error) -> Report {
    do {
      let reports = try render(
        from: source, to: [Target(size: output.size, file: destination)], shape: shape,
        output: output, input: input)
      return reports[0]
    } catch {
      throw error.error
    }
  }

  /// The pipeline over C streams: decode once (shrunk on load when a JPEG is much larger
  /// than the largest output needs) → orient → crop → for each target: resize → coverage
  /// → composite → encode. The targets' rows are made in turns, each target's next row
  /// when it is the furthest behind (relative to its size), so they read the decoded rows
  /// at the same pace and only a few filter heights of rows are kept (``SharedRows``).
  /// `output.size` is not used: each target has its own.
  static func render(
    from source: CFile, to targets: [Target], shape: Shape, output: Output, input: Input
  ) throws(TargetedError) -> [Report] {
    func forInput(_ error: Error) -> TargetedError { TargetedError(error: error, target: nil) }
    do throws(Error) { try checkOutput(output) } catch { throw forInput(error) }
    var output = output
    var faces: [Face]? = nil
    if output.crop.looksAtPicture && shape.layout != .seed && !output.maskOnly {
      guard isSeekable(source) else {
        // A pipe is read once: keep its bytes, then look and render from memory.
        let bytes: [UInt8]
        do throws(Error) {
          bytes = try decoding { () throws(ImageError) in
            try readWhole(source, after: [], maxPixels: input.maxPixels)
          }
        } catch {
          throw forInput(error)
        }
        return try readingBytes(targeted: bytes) { memory throws(TargetedError) in
          try render(from: memory, to: targets, shape: shape, output: output, input: input)
        }
      }
    }
    let sizes = targets.map(\.size)
    // Shrink only as far as the largest output allows; nil (own size) forbids any.
    let fixedSizes = sizes.contains(nil) ? [] : sizes.compactMap { $0 }
    let need = PictureNeed(largestSide: fixedSizes.max(), smallestSide: fixedSizes.min()) {
      width, height in
      // The seed crops the top-left square, as UIKit's view bounds do.
      shape.layout == .seed
        ? CropSquare(left: 0, top: 0, side: min(width, height))
        : output.crop.square(width: width, height: height)
    }
    let stored: any ImageDecoder
    do throws(Error) {
      stored = try decoding { () throws(ImageError) in
        guard output.crop.looksAtPicture && shape.layout != .seed && !output.maskOnly else {
          return try openDecoder(
            file: source, maxPixels: input.maxPixels, need: need, memory: input.memoryBudget,
            autoOrient: input.autoOrient)
        }
        // The square depends on the picture: look first (decoding once where the render's
        // decode is small enough to keep), then render the square chosen.
        let chosen = try lookAndChoose(
          source, need: need, shape: shape, output: output, input: input)
        (output.crop, faces) = (chosen.crop, chosen.faces)
        if let picture = chosen.picture { return picture }
        return try openDecoder(
          file: source, maxPixels: input.maxPixels, need: need, memory: input.memoryBudget,
          autoOrient: input.autoOrient)
      }
    } catch {
      throw forInput(error)
    }
    let metadata = stored.metadata
    let orientation = input.autoOrient ? metadata.exif.map(Orientation.fromExif) ?? .up : .up
    let upright = openOriented(stored, orientation: orientation)
    // A decoder that delivered only a window around the square (WebP) says where it is.
    let crop =
      (orientation == .up ? stored.chosenSquare : nil)
      ?? (need.square?(upright.width, upright.height)
        ?? CropSquare(imageWidth: upright.width, imageHeight: upright.height))
    // Every size must fit the shape before anything is written.
    var shapes: [(side: Int, mask: MaskShape)] = []
    for (index, target) in targets.enumerated() {
      var side = target.size ?? crop.side
      if !output.upscale { side = min(side, crop.side) }
      do throws(Error) {
        try checkOutputSize(side: side, output: output, input: input)
        shapes.append((side, try maskShape(shape, side: side)))
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    // EXIF, XMP and comments are never copied (privacy); the ICC profile is, unless told.
    let profile = output.keepColorProfile && !output.maskOnly ? metadata.iccProfile : nil
    let shared = SharedRows(upright)
    var outputs: [TargetRender] = []
    for (index, (side, mask)) in shapes.enumerated() {
      let branch = shared.branch()
      let picture = ResizedDecoder(branch, crop: crop, side: side)
      do throws(Error) {
        let writer = try encoding { () throws(ImageError) in
          try makeWriter(
            file: targets[index].file, side: side, output: output, profile: profile,
            memory: input.memoryBudget)
        }
        outputs.append(
          TargetRender(
            branch: branch, picture: picture, writer: writer,
            rows: RowPipeline(
              shape: mask, border: shape.borderColor, output: output,
              imageIsOpaque: picture.isOpaque)))
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    guard !outputs.isEmpty else { return [] }

    let picture = outputs[try drawInTurns(&outputs, readsPicture: !output.maskOnly)].picture
    if input.strict && !output.maskOnly {
      // Rows below the crop are normally never decoded (like vips' sequential access);
      // strict mode reads them too, so damage anywhere in the file is found.
      do throws(Error) {
        try decoding { () throws(ImageError) in try picture.readRemainingSourceRows() }
      } catch {
        throw forInput(error)
      }
    }
    let readWarnings = (output.keepColorProfile ? metadata.warnings : []) + picture.warnings
    let inputCrop = cropInInput(
      stored: stored, orientation: orientation, shape: shape, crop: output.crop)
    var reports = outputs.map { target in
      Report(
        side: target.side, warnings: readWarnings + target.writer.warnings, crop: inputCrop,
        faces: faces)
    }
    let (width, height) = stored.uprightStoredSize(orientation)
    let facts = PictureFacts(
      width: width, height: height, hasColorProfile: metadata.iccProfile != nil,
      isTurned: (metadata.exif.map(Orientation.fromExif) ?? .up) != .up,
      isClean: picture.hasReadEverySourceRow && metadata.warnings.isEmpty
        && reports.allSatisfy(\.warnings.isEmpty))
    for index in reports.indices { reports[index].picture = facts }
    if input.strict, let first = reports.lazy.flatMap(\.warnings).first {
      throw forInput(.warningInStrictMode(first))
    }
    for (index, target) in outputs.enumerated() {
      do throws(Error) {
        try encoding { () throws(ImageError) in try target.writer.finish() }
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    return reports
  }

  /// The mask of a `side` canvas, written to `destination`.
  static func renderMask(
    side: Int, to destination: CFile, shape: Shape, output: Output, input: Input
  ) throws(Error) -> Report {
    try checkOutput(output)
    try checkOutputSize(side: side, output: output, input: input)
    let mask = try maskShape(shape, side: side)
    let writer = try encoding { () throws(ImageError) in
      try makeWriter(
        file: destination, side: side, output: output, profile: nil, memory: input.memoryBudget)
    }
    var rows = RowPipeline(
      shape: mask, border: shape.borderColor, output: output, imageIsOpaque: true)
    for _ in 0..<side {
      rows.draw()
      try encoding { () throws(ImageError) in try rows.write(to: writer) }
    }
    try encoding { () throws(ImageError) in try writer.finish() }
    return Report(side: side, warnings: [])
  }

  /// The shape on a `side` canvas; a shape that does not fit is the shape's error.
  static func maskShape(_ shape: Shape, side: Int) throws(Error) -> MaskShape {
    do {
      return try MaskShape(shape, canvasSide: side)
    } catch {
      throw .shape(error)
    }
  }
}
