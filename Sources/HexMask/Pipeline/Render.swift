#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The render itself over C streams: open the picture and decide the square
// (OpenedPicture.swift), plan every output (RenderPlan.swift), then carry the plan out,
// drawing every output in turns. The entry points (EntryPoints.swift) open the streams;
// the writers come from WriterFactory.swift.

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
  /// → composite → encode. The picture is opened and the square decided first
  /// (``OpenedPicture``), then everything else (``RenderPlan``), before any writer exists.
  /// `output.size` is not used: each target has its own.
  static func render(
    from source: CFile, to targets: [Target], shape: Shape, output: Output, input: Input
  ) throws(TargetedError) -> [Report] {
    func forInput(_ error: Error) -> TargetedError { TargetedError(error: error, target: nil) }
    do throws(Error) { try checkOutput(output) } catch { throw forInput(error) }
    if CropDecision(shape: shape, output: output) == nil && !isSeekable(source) {
      // A pipe is read once, and whether the look needs a second decode (a picture too
      // large to keep) is known only after the first has read it: keep its bytes, then
      // look and render from memory.
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
    let sizes = targets.map(\.size)
    // One reservation for the decode and the encode (the budget's first request takes
    // both): the outputs are priced from the picture's size before any pixel exists.
    var input = input
    let stillFrame = input.frame != nil
    if stillFrame || !output.kind.canMove || output.maskOnly, !input.strict {
      // A still output reads the frames up to its own, never the rest: how many the file
      // holds is no work it does, whether a header says so (APNG, WebP) or not (GIF).
      // Strict mode reads every frame, and so holds the file to the limit.
      if let frame = input.frame, frame >= input.maxFrames {
        throw forInput(.decoding(.frameBeyondLimit(frame, limit: input.maxFrames)))
      }
      input.maxFrames = Int.max
      input.readsFewFrames = true
    }
    let budget = input.memoryBudget?.forRender { picture in
      encodingBytes(of: picture, sizes: sizes, output: output, stillFrame: stillFrame)
    }
    input.memoryBudget = budget
    let start = ftello(source)
    let picture: OpenedPicture
    do throws(Error) {
      picture = try decoding { () throws(ImageError) in
        try openPicture(source, sizes: sizes, shape: shape, output: output, input: input)
      }
    } catch {
      throw forInput(error)
    }
    let plan = try RenderPlan(
      picture: picture, sizes: sizes, shape: shape, output: output, input: input)
    do throws(Error) {
      // A picture read row by row reserved nothing: the outputs take theirs now.
      let kind = plan.output.kind
      let sides = plan.outputs.map(\.side)
      try encoding { () throws(ImageError) in
        try budget?.reserveEncoding(
          kind.encodingBytes(sides: sides, moving: plan.animates),
          purpose: sides.count == 1
            ? "to encode a \(sides[0])×\(sides[0]) \(kind.encodingName(moving: plan.animates))"
            : "to encode \(sides.count) outputs")
      }
    } catch {
      throw TargetedError(error: error, target: plan.outputs.count == 1 ? 0 : nil)
    }
    var frames: Frames?
    if plan.animates {
      do throws(Error) {
        frames = try decoding { () throws(ImageError) in
          let animation = try reopenedAnimation(picture, source: source, start: start, input: input)
          return Frames(
            animation: animation,
            orientation: animation.metadata.orientation(autoOrient: input.autoOrient))
        }
      } catch {
        throw forInput(error)
      }
    }
    return try carryOut(
      plan, picture: picture, frames: frames, files: targets.map(\.file),
      memory: input.memoryBudget)
  }

  /// What outputs of `sizes` will hold while they are encoded, for a picture of `picture`'s
  /// size: at most, since the square is not chosen yet (it is never larger than the
  /// picture's short side), and moving when the picture is an animation whose outputs move
  /// (as ``RenderPlan`` decides: not when a `stillFrame` is chosen).
  private static func encodingBytes(
    of picture: PictureSize, sizes: [Int?], output: Output, stillFrame: Bool
  ) -> Int {
    let squareSide = min(picture.width, picture.height)
    let moving = picture.isAnimation && !stillFrame && output.kind.canMove && !output.maskOnly
    return output.kind.encodingBytes(
      sides: sizes.map { outputSide(size: $0, upscale: output.upscale, squareSide: squareSide) },
      moving: moving)
  }

  /// The animation `picture` shows the first frame of, ready for the frames after it: the
  /// decoder itself, or (when a look at the picture kept a copy of that frame instead) the
  /// file opened again.
  private static func reopenedAnimation(
    _ picture: OpenedPicture, source: CFile, start: off_t, input: Input
  ) throws(ImageError) -> AnimationPicture {
    if let animation = picture.stored as? AnimationPicture { return animation }
    try rewind(source, to: start)
    let opened = try openDecoder(
      file: source, maxPixels: input.maxPixels, need: nil, memory: input.memoryBudget,
      autoOrient: false, frames: FrameChoice(input))
    guard let animation = opened as? AnimationPicture else {
      throw ImageError(.unreadable, "the input changed while it was read")
    }
    return animation
  }

  /// Carries out `plan`, the one road of a still and an animation alike: each output's
  /// writer, then every row of every output in turns, frame by frame (a still is one frame;
  /// each frame after the first is turned as the first was), strict mode's reading on, and
  /// the files finished.
  ///
  /// Rows of one frame are drawn in turns (each target's next row when it is the furthest
  /// behind, relative to its size, so they read the decoded rows at the same pace and only
  /// a few filter heights of rows are kept: ``SharedRows``).
  private static func carryOut(
    _ plan: RenderPlan, picture: OpenedPicture, frames: Frames?, files: [CFile],
    memory: MemoryBudget?
  ) throws(TargetedError) -> [Report] {
    var outputs = try startOutputs(plan, frames: frames, files: files, memory: memory)
    // Whatever happens, no frame is still being encoded when the files are let go.
    defer { for output in outputs { output.moving?.drain() } }
    guard !outputs.isEmpty else { return [] }
    var frame = (
      rows: FrameRows.decoded(picture.upright),
      delay: frames?.animation.shown.delayMilliseconds ?? 0
    )
    var played = Animation(frames: 0, durationMilliseconds: 0, loopCount: 0)
    var last: ResizedDecoder
    while true {
      last = try draw(frame.rows, plan: plan, outputs: &outputs)
      guard let frames else { break }
      for (index, output) in outputs.enumerated() {
        do throws(Error) {
          try encoding { () throws(ImageError) in
            try output.moving?.endFrame(delayMilliseconds: frame.delay)
          }
        } catch {
          throw TargetedError(error: error, target: index)
        }
      }
      played.frames += 1
      played.durationMilliseconds += frame.delay
      let next: ComposedFrame?
      do throws(Error) {
        next = try decoding { () throws(ImageError) in try frames.animation.nextFrame() }
      } catch {
        throw TargetedError(error: error, target: nil)
      }
      guard let next else { break }
      frame = (.canvas(next, frames), next.delayMilliseconds)
    }
    if plan.strict && plan.readsPicture {
      // Rows below the crop are normally never decoded (like vips' sequential access);
      // strict mode reads them too, so damage anywhere in the file is found.
      do throws(Error) {
        try decoding { () throws(ImageError) in try last.readRemainingSourceRows() }
      } catch {
        throw TargetedError(error: error, target: nil)
      }
    }
    if plan.strict, frames == nil, let animation = picture.stored as? AnimationPicture {
      // Likewise the frames after the one shown: a still of a damaged animation fails.
      do throws(Error) {
        try decoding { () throws(ImageError) in
          while try animation.nextFrame() != nil {}
        }
      } catch {
        throw TargetedError(error: error, target: nil)
      }
    }
    // A GIF's loop count may come after its first frame; the end knows it. Each writer
    // says how many plays its format holds (and warns when fewer) before the reports.
    played.loopCount = frames?.animation.frames.loopCount ?? 0
    let plays = outputs.map { $0.moving?.writer.plays(played.loopCount) }
    var reports = reports(plan, picture: picture, read: last, outputs: outputs)
    if frames != nil {
      for index in reports.indices {
        reports[index].animation = played
        reports[index].animation?.loopCount = plays[index] ?? played.loopCount
      }
    }
    if plan.strict,
      let first = reports.lazy.flatMap(\.warnings).first(where: \.kind.isAboutTheInput)
    {
      throw TargetedError(error: .warningInStrictMode(first), target: nil)
    }
    for (index, output) in outputs.enumerated() {
      do throws(Error) {
        try encoding { () throws(ImageError) in
          if let moving = output.moving {
            try moving.writer.finish(loopCount: played.loopCount)
          } else {
            try output.writer.finish()
          }
        }
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    return reports
  }

  /// The rows of one frame as the outputs read them.
  enum FrameRows {
    /// The first frame (or a still), upright: decoded once, its rows shared by the outputs.
    case decoded(any ImageDecoder)
    /// A later frame: its canvas, which each output reads for itself, drawing only the
    /// rows that what changed since the frame before reaches.
    case canvas(ComposedFrame, Frames)
  }

  /// Draws one frame into every output in turns.
  ///
  /// - Returns: the resized picture of the output that finished last (strict mode reads on
  ///   through it).
  private static func draw(
    _ frame: FrameRows, plan: RenderPlan, outputs: inout [PlannedOutput]
  ) throws(TargetedError) -> ResizedDecoder {
    let readers: [(picture: any ImageDecoder, branch: SharedRows.Branch?)]
    var change: (rows: Range<Int>, columns: Range<Int>)?
    switch frame {
    case .decoded(let picture):
      let shared = SharedRows(picture)
      readers = outputs.map { _ in
        let branch = shared.branch()
        return (branch, branch)
      }
    case .canvas(let canvas, let frames):
      readers = outputs.map { _ in (frames.turned(canvas), nil) }
      change = frames.uprightChange(canvas)
    }
    var renders: [TargetRender] = zip(outputs, readers).map { output, reader in
      let resized = ResizedDecoder(reader.picture, crop: plan.square, side: output.side)
      var rows = output.rows
      rows.restart(imageIsOpaque: resized.isOpaque)
      return TargetRender(
        branch: reader.branch, picture: resized, writer: output.writer, rows: rows,
        drawn: change.map { resized.outputRows(reachedBy: $0.rows, columns: $0.columns) },
        moving: output.moving)
    }
    let last = try drawInTurns(&renders, readsPicture: plan.readsPicture)
    for index in outputs.indices { outputs[index].rows = renders[index].rows }
    return renders[last].picture
  }

  /// Each planned output's writer (animated where the frames move) and row buffers, in
  /// order.
  private static func startOutputs(
    _ plan: RenderPlan, frames: Frames?, files: [CFile], memory: MemoryBudget?
  ) throws(TargetedError) -> [PlannedOutput] {
    var outputs: [PlannedOutput] = []
    for (index, planned) in plan.outputs.enumerated() {
      do throws(Error) {
        outputs.append(
          try encoding { () throws(ImageError) in
            try PlannedOutput(
              planned, plan: plan, file: files[index], frames: frames?.animation.frames,
              memory: memory)
          })
      } catch {
        // No frame is being encoded yet, but the writers made so far may hold threads.
        for output in outputs { output.moving?.drain() }
        throw TargetedError(error: error, target: index)
      }
    }
    return outputs
  }

  /// One report per output: the warnings of reading and of its writer, the square in the
  /// input, the faces found, and what the picture is (`read`: the picture read furthest).
  private static func reports(
    _ plan: RenderPlan, picture: OpenedPicture, read: ResizedDecoder, outputs: [PlannedOutput]
  ) -> [Report] {
    let metadata = picture.stored.metadata
    // A profile dropped while reading counts whatever the mode: stripping converts, so a
    // profile it could not read changes how the picture looks.
    let readWarnings =
      metadata.warnings + read.warnings + plan.colour.warnings + plan.frameWarnings
    var reports = outputs.map { output in
      Report(
        side: output.side, warnings: readWarnings + output.writer.warnings, crop: plan.inputCrop,
        faces: plan.faces, framing: plan.framing, colour: plan.colour.report)
    }
    let (width, height) = picture.stored.uprightStoredSize(picture.orientation)
    let facts = PictureFacts(
      width: width, height: height, hasColorProfile: metadata.iccProfile != nil,
      isTurned: metadata.storedOrientation != .up,
      isClean: read.hasReadEverySourceRow && metadata.warnings.isEmpty
        && reports.allSatisfy(\.warnings.isEmpty),
      isStill: metadata.framesCounted && !metadata.isAnimated)
    for index in reports.indices { reports[index].picture = facts }
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
        file: destination, side: side, output: output, profile: nil, tagsSRGB: false,
        memory: input.memoryBudget)
    }
    var rows = RowPipeline(
      shape: mask, border: shape.borderColor, output: output, imageIsOpaque: true, colour: nil)
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
