// An animation opened for a render: one of its frames read as a still picture (so the look,
// the plan and every still output treat it as any other picture), and the frames after it
// for an animated output, in order, one at a time.

/// Which frame of an animation a decode shows, and the limits on reading frames.
package struct FrameChoice: Sendable, Equatable {
  /// 0-based; nil: the first, and find out whether more follow (the render may animate).
  package var frame: Int?
  package var maxFrames: Int
  /// The most canvas pixels summed over the frames read.
  package var maxTotalPixels: Int
  /// The most frames the render reads: every frame (`Int.max`) for an output that moves,
  /// else those up to the one shown. A reader checks its limits against the frames its
  /// header declares, or as many as the render reads when fewer: the frames a still never
  /// reads are no work it does.
  package var readsAtMost = Int.max

  package init(
    frame: Int? = nil, maxFrames: Int = HexMask.Input.defaultMaxFrames,
    maxTotalPixels: Int = HexMask.Input().maxAnimationPixels
  ) {
    self.frame = frame
    self.maxFrames = maxFrames
    self.maxTotalPixels = maxTotalPixels
  }

  /// What `input` asks for.
  package init(_ input: HexMask.Input) {
    self.init(
      frame: input.frame, maxFrames: input.maxFrames, maxTotalPixels: input.maxAnimationPixels)
    if input.readsFewFrames { readsAtMost = (input.frame ?? 0) + 1 }
  }
}

/// One frame of an animation as a still picture, read row by row, and the frames after it.
///
/// Opening it composites frames up to the one chosen. Without a choice it shows the first
/// and learns whether a second follows (from the header's frame count, or for a GIF by
/// compositing the second frame, held for ``nextFrame()``), so ``ImageMetadata/isAnimated``
/// says whether an output may move.
final class AnimationPicture: ImageDecoder {
  let width: Int
  let height: Int
  private(set) var metadata: ImageMetadata
  var warnings: [Warning] { frames.warnings }
  /// True when every pixel of the shown frame is opaque: looked at, not guessed (a canvas
  /// around a smaller first frame is transparent).
  private(set) var isOpaque = false
  /// The frames, for the frames after the one shown.
  let frames: any FrameSource
  /// The frame shown, as the frame source composited it.
  let shown: ComposedFrame
  /// What the file is, for messages: "GIF", "animated PNG", "animated WebP".
  let formatName: String
  /// A copy of the shown frame's canvas, made when the source had to go on to the next.
  private var kept: UnsafeMutableBufferPointer<UInt8>?
  /// The frame after the shown one, composited to learn that it exists, or why it could
  /// not be.
  private var pending: ComposedFrame?
  private var pendingFailure: ImageError?
  private var rowsRead = 0

  init(_ frames: any FrameSource, choice: FrameChoice, formatName: String) throws(ImageError) {
    self.frames = frames
    self.formatName = formatName
    width = frames.canvasWidth
    height = frames.canvasHeight
    let wanted = choice.frame ?? 0
    var found: ComposedFrame?
    var count = 0
    while let frame = try frames.nextFrame() {
      count += 1
      if frame.index == wanted {
        found = frame
        break
      }
    }
    guard let found else {
      throw ImageError(
        .unsupported,
        "no frame \(wanted): the \(formatName) has \(count) frame\(count == 1 ? "" : "s") "
          + "(the first is 0)")
    }
    shown = found
    isOpaque = !stride(from: 3, to: found.canvas.count, by: 4).contains { found.canvas[$0] != 255 }
    metadata = frames.metadata
    (metadata.storedWidth, metadata.storedHeight) = (width, height)
    guard choice.frame == nil else {
      metadata.framesCounted = false
      return
    }
    if let declared = frames.declaredFrameCount {
      metadata.isAnimated = declared > 1
      return
    }
    // Only reading on tells whether a GIF has a second frame; the source reuses its canvas.
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: found.canvas.count)
    _ = copy.initialize(from: found.canvas)
    kept = copy
    do {
      pending = try frames.nextFrame()
      metadata.isAnimated = pending != nil
    } catch {
      // A second frame that is there but damaged: the animation moves (and fails when the
      // frame is drawn), a still of its first frame does not need it (as for an APNG, whose
      // header says it moves). Strict mode reads it, and fails.
      pendingFailure = error
      metadata.isAnimated = true
    }
  }

  deinit { kept?.deallocate() }

  /// The shown frame's canvas, straight RGBA.
  var shownCanvas: UnsafeBufferPointer<UInt8> {
    kept.map { UnsafeBufferPointer($0) } ?? shown.canvas
  }

  /// The frame after the last one handed out (the shown one first comes from
  /// ``shownCanvas``); nil after the last.
  func nextFrame() throws(ImageError) -> ComposedFrame? {
    if let frame = pending {
      pending = nil
      return frame
    }
    if let failure = pendingFailure { throw failure }
    return try frames.nextFrame()
  }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try checkRead(of: row, index: rowsRead)
    let canvas = shownCanvas
    let start = rowsRead * width * 4
    for index in 0..<width * 4 { row[index] = canvas[start + index] }
    rowsRead += 1
  }
}
