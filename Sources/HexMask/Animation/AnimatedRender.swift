// What an animation adds to the render's one road (Render.swift): the frames after the
// first, each turned as the first was, and outputs that take whole frames. The plan made
// for the first frame (the square, each output's side and shape, the colour) holds for
// every frame, so each frame's edge is the still edge exactly. Frames are drawn one at a
// time: memory follows the canvas and the outputs' sides, never the number of frames.

extension HexMask.Output.Kind {
  /// True for the formats an animation stays animated in: WebP, JPEG XL, and PNG without a
  /// palette (APNG). A mask, JPEG, AVIF or palette PNG shows one frame.
  package var canMove: Bool {
    switch self {
    case .webp, .jxl: true
    case .png(let png): png.palette == nil
    case .jpeg, .avif, .mask: false
    }
  }
}

extension HexMask {
  /// The frames an animated render draws after the first, and the turn that makes each
  /// upright: the same rule (``ImageMetadata/orientation(autoOrient:)``) as the first's.
  struct Frames {
    let animation: AnimationPicture
    let orientation: Orientation

    /// `frame`, read upright without a copy.
    func turned(_ frame: ComposedFrame) -> any ImageDecoder {
      TurnedCanvas(
        frame.canvas, storedWidth: animation.width, orientation: orientation,
        metadata: animation.metadata, source: animation)
    }

    /// The upright rows and columns that changed since the frame before; nil when the
    /// reader cannot tell.
    func uprightChange(_ frame: ComposedFrame) -> (rows: Range<Int>, columns: Range<Int>)? {
      guard let changed = frame.changed, animation.width > 0 else { return nil }
      return orientation.upright(
        rows: changed.rowRange, columns: changed.columnRange, width: animation.width,
        height: frame.canvas.count / (animation.width * 4))
    }
  }

  /// One output of a render for all its frames: its side, its writer and its row buffers
  /// (the shape's coverage, made once).
  struct PlannedOutput {
    let side: Int
    /// Takes the rows of each frame: the still writer, or ``moving``.
    let writer: any ImageWriter
    /// The animated writer's frame, when the output moves.
    let moving: MovingFrames?
    var rows: RowPipeline

    init(
      _ planned: RenderPlan.Planned, plan: RenderPlan, file: CFile, frames: (any FrameSource)?,
      memory: MemoryBudget?
    ) throws(ImageError) {
      side = planned.side
      if let frames {
        let moving = try MovingFrames(
          makeAnimationWriter(
            file: file, side: planned.side, output: plan.output, profile: plan.colour.profile,
            tagsSRGB: plan.colour.tagsSRGB, frameCount: frames.declaredFrameCount,
            loopCount: frames.loopCount, memory: memory), side: planned.side)
        self.moving = moving
        writer = moving
      } else {
        moving = nil
        writer = try makeWriter(
          file: file, side: planned.side, output: plan.output, profile: plan.colour.profile,
          tagsSRGB: plan.colour.tagsSRGB, memory: memory)
      }
      rows = RowPipeline(
        shape: planned.mask, border: plan.border, output: plan.output, imageIsOpaque: false,
        colour: plan.colour.transform)
    }
  }
}

/// The rows of one frame gathered for an animated writer, which takes whole frames.
final class MovingFrames: ImageWriter {
  let writer: any AnimationWriter
  private var pixels: [UInt8]
  private let rowBytes: Int
  private var rowsWritten = 0

  init(_ writer: any AnimationWriter, side: Int) {
    self.writer = writer
    rowBytes = side * 4
    pixels = [UInt8](repeating: 0, count: side * side * 4)
  }

  var warnings: [Warning] { writer.warnings }

  func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {
    let start = rowsWritten * rowBytes
    guard row.count == rowBytes, start + rowBytes <= pixels.count else {
      throw ImageError(.unreadable, "a frame row of \(row.count) bytes, not \(rowBytes)")
    }
    pixels.withUnsafeMutableBufferPointer { frame in
      _ = UnsafeMutableBufferPointer(rebasing: frame[start..<(start + rowBytes)])
        .update(fromContentsOf: row)
    }
    rowsWritten += 1
  }

  /// Goes on at row `row`: the rows before it stay as the frame before had them.
  func skip(to row: Int) {
    rowsWritten = min(max(row, 0), pixels.count / max(rowBytes, 1))
  }

  /// Hands the frame drawn to the writer, shown for `delayMilliseconds`.
  func endFrame(delayMilliseconds: Int) throws(ImageError) {
    rowsWritten = 0
    try pixels.withUnsafeBufferPointer { (frame) throws(ImageError) in
      try writer.addFrame(frame, delayMilliseconds: delayMilliseconds)
    }
  }

  /// The animated writer ends its file with the loop count, which only the last frame
  /// knows: ``AnimationWriter/finish(loopCount:)``, never this.
  func finish() throws(ImageError) {}

  func drain() { writer.drain() }
}
