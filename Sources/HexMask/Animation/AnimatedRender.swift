// The render of an animation (work in progress, not yet reached from the command): every
// frame gets the same square, the same shape and the same resize, so the edge of each frame
// is the still edge exactly. Frames are drawn one at a time: memory follows the canvas and
// the output side, never the number of frames.

extension HexMask {
  /// What an animated render made.
  package struct AnimationReport: Equatable, Sendable {
    package var side: Int
    package var frames: Int
    /// The sum of the frames' delays, as browsers play them.
    package var durationMilliseconds: Int
  }

  /// Draws every frame of `frames` as a `side` × `side` frame of the shape (nil: the
  /// square's own side) and hands each, straight RGBA, to `add` with its delay.
  ///
  /// The square is decided once, from the canvas size: a gravity or focus as for a still.
  /// A crop that needs a look at the picture (faces, attention) takes the centre for now.
  package static func renderFrames(
    _ frames: any FrameSource, side: Int?, shape: Shape, output: Output,
    add: (UnsafeBufferPointer<UInt8>, Int) throws(ImageError) -> Void
  ) throws(Error) -> AnimationReport {
    let decision = CropDecision(shape: shape, output: output) ?? .gravity(.center)
    let square = decision.square(width: frames.canvasWidth, height: frames.canvasHeight)
    let side = side ?? square.side
    let mask = try maskShape(shape, side: side)
    var pixels = [UInt8](repeating: 0, count: side * side * 4)
    var report = AnimationReport(side: side, frames: 0, durationMilliseconds: 0)
    while let frame = try decoding({ () throws(ImageError) in try frames.nextFrame() }) {
      let canvas = CanvasPicture(frame: frame, width: frames.canvasWidth, metadata: frames.metadata)
      let resized = ResizedDecoder(canvas, crop: square, side: side)
      var rows = RowPipeline(
        shape: mask, border: shape.borderColor, output: output, imageIsOpaque: false,
        colour: nil)
      for y in 0..<side {
        try decoding { () throws(ImageError) in try rows.read(from: resized) }
        rows.draw()
        rows.withRow { row in
          pixels.withUnsafeMutableBufferPointer { out in
            for index in 0..<side * 4 { out[y * side * 4 + index] = row[index] }
          }
        }
      }
      try encoding { () throws(ImageError) in
        try pixels.withUnsafeBufferPointer { (all) throws(ImageError) in
          try add(all, frame.delayMilliseconds)
        }
      }
      report.frames += 1
      report.durationMilliseconds += frame.delayMilliseconds
    }
    return report
  }
}

/// One composited frame's canvas, read row by row as a still picture.
final class CanvasPicture: ImageDecoder {
  let width: Int
  let height: Int
  let warnings: [Warning] = []
  let metadata: ImageMetadata
  private let canvas: UnsafeBufferPointer<UInt8>
  private var rowsRead = 0

  init(frame: ComposedFrame, width: Int, metadata: ImageMetadata) {
    self.width = width
    height = width > 0 ? frame.canvas.count / (width * 4) : 0
    canvas = frame.canvas
    self.metadata = metadata
  }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try checkRead(of: row, index: rowsRead)
    let start = rowsRead * width * 4
    for index in 0..<width * 4 { row[index] = canvas[start + index] }
    rowsRead += 1
  }
}
