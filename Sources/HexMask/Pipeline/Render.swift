/// Reads `input`, cuts it into the shape `options` describe, and writes a PNG to `output`.
/// Either path may be `-` for standard input or output.
///
/// Rows flow one way — decode → orient → crop → coverage → composite → encode — with
/// memory proportional to the image width, except where the input forces a whole-image
/// buffer (Adam7 PNG, orientations that turn or flip vertically). The output appears only
/// once complete; on any error nothing is left behind and the input is never touched.
///
/// ```swift
/// let report = try render(input: "photo.jpg", output: "avatar.png", options: RenderOptions())
/// ```
@discardableResult
public func render(input: String, output: String, options: RenderOptions) throws(HexMaskError)
  -> RenderReport
{
  if input != "-" && output != "-" && sameFile(input, output) {
    throw HexMaskError(file: output, reason: "output is the input file; refusing to overwrite it")
  }
  let source = try InputFile(path: input)
  let stored = try attempt(source.name) { () throws(ImageError) in
    try openDecoder(file: source.stream, maxPixels: options.maxPixels)
  }
  let metadata = stored.metadata
  let orientation = options.autoOrient ? metadata.exif.map(Orientation.fromExif) ?? .up : .up
  let decoder = openOriented(stored, orientation: orientation)
  // EXIF, XMP and comments are never copied (privacy); the ICC profile is, unless --strip.
  let profile = options.keepColorProfile ? metadata.iccProfile : nil
  let canvas = Canvas(
    imageWidth: decoder.width, imageHeight: decoder.height, layout: options.layout)
  let shape: MaskShape
  do {
    shape = try MaskShape(options: options, canvasSide: canvas.side)
  } catch {
    throw HexMaskError(file: source.name, reason: error.description, isUsage: true)
  }

  let destination = try OutputFile(path: output)
  let writer = try attempt(destination.name) { () throws(ImageError) in
    try PNGWriter(
      file: destination.stream, width: canvas.side, height: canvas.side, iccProfile: profile)
  }
  var rows = RowPipeline(
    canvas: canvas, shape: shape, options: options, sourceWidth: decoder.width,
    sourceIsOpaque: decoder.isOpaque)
  for y in 0..<(canvas.top + canvas.side) {
    try attempt(source.name) { () throws(ImageError) in try rows.read(from: decoder) }
    guard y >= canvas.top else { continue }
    rows.composite(row: y - canvas.top)
    try attempt(destination.name) { () throws(ImageError) in try rows.write(to: writer) }
  }
  if options.strict {
    // Rows below the canvas are normally never decoded (like vips' sequential access);
    // --strict reads them too, so damage anywhere in the file is found.
    for _ in (canvas.top + canvas.side)..<decoder.height {
      try attempt(source.name) { () throws(ImageError) in try rows.read(from: decoder) }
    }
  }
  let warnings =
    (options.keepColorProfile ? metadata.warnings : []) + decoder.warnings + writer.warnings
  if options.strict, let first = warnings.first {
    throw HexMaskError(file: source.name, reason: "\(first) (--strict)")
  }
  try attempt(destination.name) { () throws(ImageError) in try writer.finish() }
  try destination.commit()
  return RenderReport(side: canvas.side, warnings: warnings)
}

/// Runs one codec step, naming `file` in the error if it fails.
private func attempt<T>(_ file: String, _ step: () throws(ImageError) -> T) throws(HexMaskError)
  -> T
{
  do {
    return try step()
  } catch {
    throw HexMaskError(file: file, reason: error.reason)
  }
}

/// The row buffers between decoder and writer, reused for every row.
private struct RowPipeline {
  let canvas: Canvas
  let compositor: Compositor
  var coverage: ShapeCoverage
  var source: [UInt8]
  var result: [UInt8]
  var fill: [Float]
  var stroke: [Float]

  let sourceIsOpaque: Bool

  init(
    canvas: Canvas, shape: MaskShape, options: RenderOptions, sourceWidth: Int, sourceIsOpaque: Bool
  ) {
    self.canvas = canvas
    self.sourceIsOpaque = sourceIsOpaque
    compositor = Compositor(border: options.borderColor, layout: options.layout)
    coverage = ShapeCoverage(shape: shape)
    source = [UInt8](repeating: 0, count: sourceWidth * 4)
    result = [UInt8](repeating: 0, count: canvas.side * 4)
    fill = [Float](repeating: 0, count: canvas.side)
    stroke = fill
  }

  /// Decodes the next source row.
  mutating func read(from decoder: any ImageDecoder) throws(ImageError) {
    var failure: ImageError?
    source.withUnsafeMutableBufferPointer { row in
      do throws(ImageError) { try decoder.readRow(into: row) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Composites canvas row `y` from the last decoded source row.
  mutating func composite(row y: Int) {
    coverage.row(y, fill: &fill, stroke: &stroke)
    let start = canvas.left * 4
    let end = start + canvas.side * 4
    source.withUnsafeBufferPointer { row in
      result.withUnsafeMutableBufferPointer { out in
        compositor.composite(
          image: UnsafeBufferPointer(rebasing: row[start..<end]), fill: fill, stroke: stroke,
          spans: coverage.spans, imageIsOpaque: sourceIsOpaque, into: out)
      }
    }
  }

  /// Writes the last composited row.
  func write(to writer: PNGWriter) throws(ImageError) {
    var failure: ImageError?
    result.withUnsafeBufferPointer { row in
      do throws(ImageError) { try writer.writeRow(row) } catch { failure = error }
    }
    if let failure { throw failure }
  }
}

/// The square of the image the shape is cut from: centred, or top-left for the seed layout.
struct Canvas: Equatable {
  var left: Int
  var top: Int
  var side: Int

  init(imageWidth: Int, imageHeight: Int, layout: Layout) {
    side = min(imageWidth, imageHeight)
    switch layout {
    case .centered:
      left = (imageWidth - side) / 2
      top = (imageHeight - side) / 2
    case .seed:
      left = 0
      top = 0
    }
  }
}
