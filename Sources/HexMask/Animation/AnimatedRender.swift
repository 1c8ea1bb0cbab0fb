#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The render of an animation into animated outputs (WebP, APNG): the plan made for its
// first frame (the square, each output's side and shape, the colour) holds for every frame,
// so each frame's edge is the still edge exactly. Frames are drawn one at a time: memory
// follows the canvas and the outputs' sides, never the number of frames.

extension HexMask.Output.Kind {
  /// True for the formats an animation stays animated in: WebP, and PNG without a
  /// palette (APNG). A mask, JPEG, AVIF or palette PNG shows one frame.
  package var canMove: Bool {
    switch self {
    case .webp: true
    case .png(let png): png.palette == nil
    case .jpeg, .avif, .mask: false
    }
  }
}

extension HexMask {
  /// Carries out `plan` for every frame of `animation`: each frame is resized into the
  /// square at each output's side, masked and bordered as the still would be, and added
  /// to that output's animated writer with its delay.
  static func carryOutAnimation(
    _ plan: RenderPlan, animation: AnimationPicture, files: [CFile], memory: MemoryBudget?
  ) throws(TargetedError) -> [Report] {
    var outputs: [AnimatedOutput] = []
    // Whatever happens, no frame is still being encoded when the files are let go.
    defer { for output in outputs { output.writer.drain() } }
    for (index, planned) in plan.outputs.enumerated() {
      do throws(Error) {
        outputs.append(
          try encoding { () throws(ImageError) in
            try AnimatedOutput(
              file: files[index], planned: planned, plan: plan, animation: animation,
              memory: memory)
          })
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    var frame = (canvas: animation.shownCanvas, delay: animation.shown.delayMilliseconds)
    var facts = Animation(frames: 0, durationMilliseconds: 0, loopCount: 0)
    while true {
      for index in outputs.indices {
        do throws(Error) {
          try outputs[index].draw(
            CanvasPicture(
              canvas: frame.canvas, width: animation.width, metadata: animation.metadata),
            square: plan.square, delayMilliseconds: frame.delay)
        } catch {
          if case .decoding = error { throw TargetedError(error: error, target: nil) }
          throw TargetedError(error: error, target: index)
        }
      }
      facts.frames += 1
      facts.durationMilliseconds += frame.delay
      let next: ComposedFrame?
      do throws(Error) {
        next = try decoding { () throws(ImageError) in try animation.nextFrame() }
      } catch {
        throw TargetedError(error: error, target: nil)
      }
      guard let next else { break }
      frame = (next.canvas, next.delayMilliseconds)
    }
    // A GIF's loop count may come after its first frame; the end knows it.
    facts.loopCount = animation.frames.loopCount
    // Each writer says how many plays its format holds (and warns when fewer) first.
    let plays = outputs.map { $0.writer.plays(facts.loopCount) }
    var reports = animationReports(plan, animation: animation, outputs: outputs, facts: facts)
    for index in reports.indices { reports[index].animation?.loopCount = plays[index] }
    if plan.strict, let first = reports.lazy.flatMap(\.warnings).first {
      throw TargetedError(error: .warningInStrictMode(first), target: nil)
    }
    for (index, output) in outputs.enumerated() {
      do throws(Error) {
        try encoding { () throws(ImageError) in try output.finish(loopCount: facts.loopCount) }
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    return reports
  }

  /// One report per output, as a still's, with the frames and their duration.
  private static func animationReports(
    _ plan: RenderPlan, animation: AnimationPicture, outputs: [AnimatedOutput],
    facts: Animation
  ) -> [Report] {
    let metadata = animation.metadata
    let readWarnings = metadata.warnings + animation.warnings + plan.colour.warnings
    var reports = outputs.map { output in
      Report(
        side: output.side, warnings: readWarnings + output.writer.warnings, crop: plan.inputCrop,
        faces: plan.faces, framing: plan.framing, colour: plan.colour.report, animation: facts)
    }
    let facts = PictureFacts(
      width: animation.width, height: animation.height,
      hasColorProfile: metadata.iccProfile != nil, isTurned: false,
      isClean: reports.allSatisfy(\.warnings.isEmpty))
    for index in reports.indices { reports[index].picture = facts }
    return reports
  }
}

/// One animated output: its writer, its row pipeline (the shape's coverage, made once) and
/// the frame it is drawing.
private struct AnimatedOutput {
  let side: Int
  let writer: any AnimationWriter
  private var rows: RowPipeline
  private var pixels: [UInt8]

  init(
    file: CFile, planned: HexMask.RenderPlan.Planned, plan: HexMask.RenderPlan,
    animation: AnimationPicture, memory: MemoryBudget?
  ) throws(ImageError) {
    side = planned.side
    writer = try makeAnimationWriter(
      file: file, side: planned.side, output: plan.output, profile: plan.colour.profile,
      tagsSRGB: plan.colour.tagsSRGB, frameCount: animation.frames.declaredFrameCount,
      loopCount: animation.frames.loopCount, memory: memory)
    rows = RowPipeline(
      shape: planned.mask, border: plan.border, output: plan.output, imageIsOpaque: false,
      colour: plan.colour.transform)
    pixels = [UInt8](repeating: 0, count: planned.side * planned.side * 4)
  }

  /// Draws one frame from `canvas` and adds it to the writer.
  mutating func draw(
    _ canvas: CanvasPicture, square: CropSquare, delayMilliseconds: Int
  ) throws(HexMask.Error) {
    let resized = ResizedDecoder(canvas, crop: square, side: side)
    rows.restart()
    let rowBytes = side * 4
    for y in 0..<side {
      try HexMask.decoding { () throws(ImageError) in try rows.read(from: resized) }
      rows.draw()
      rows.withRow { row in
        pixels.withUnsafeMutableBufferPointer { frame in
          _ = UnsafeMutableBufferPointer(rebasing: frame[(y * rowBytes)..<((y + 1) * rowBytes)])
            .update(fromContentsOf: row)
        }
      }
    }
    try HexMask.encoding { () throws(ImageError) in
      try pixels.withUnsafeBufferPointer { (frame) throws(ImageError) in
        try writer.addFrame(frame, delayMilliseconds: delayMilliseconds)
      }
    }
  }

  func finish(loopCount: Int) throws(ImageError) { try writer.finish(loopCount: loopCount) }
}

/// One composited frame's canvas, read row by row as a still picture.
final class CanvasPicture: ImageDecoder {
  let width: Int
  let height: Int
  let warnings: [Warning] = []
  let metadata: ImageMetadata
  private let canvas: UnsafeBufferPointer<UInt8>
  private var rowsRead = 0

  init(canvas: UnsafeBufferPointer<UInt8>, width: Int, metadata: ImageMetadata) {
    self.width = width
    height = width > 0 ? canvas.count / (width * 4) : 0
    self.canvas = canvas
    self.metadata = metadata
  }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try checkRead(of: row, index: rowsRead)
    let start = rowsRead * width * 4
    _ = row.update(fromContentsOf: canvas[start..<(start + width * 4)])
    rowsRead += 1
  }
}
