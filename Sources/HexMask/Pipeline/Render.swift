#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads `input`, cuts it into the shape `options` describe, and writes a PNG to `output`.
///
/// Rows flow one way — decode → crop → coverage → composite → encode — with memory
/// proportional to the image width (except where a format forces more, such as Adam7 PNG).
/// The output appears only once complete; on any error nothing is left behind.
///
/// ```swift
/// try render(input: "photo.jpg", output: "avatar.png", options: RenderOptions())
/// ```
public func render(input: String, output: String, options: RenderOptions) throws(HexMaskError) {
  if sameFile(input, output) {
    throw HexMaskError(file: output, reason: "output is the input file; refusing to overwrite it")
  }
  guard let stream = fopen(input, "rb") else {
    throw HexMaskError(file: input, reason: "cannot open: \(systemError())")
  }
  defer { fclose(stream) }
  let decoder: any ImageDecoder
  do {
    decoder = try openDecoder(file: stream, maxPixels: options.maxPixels)
  } catch {
    throw HexMaskError(file: input, reason: error.reason)
  }
  let canvas = Canvas(
    imageWidth: decoder.width, imageHeight: decoder.height, layout: options.layout)
  let shape: MaskShape
  do {
    shape = try MaskShape(options: options, canvasSide: canvas.side)
  } catch {
    throw HexMaskError(file: input, reason: error.description, isUsage: true)
  }

  let destination = try OutputFile(path: output)
  let written = { (error: ImageError) in HexMaskError(file: output, reason: error.reason) }
  let writer: PNGWriter
  do {
    writer = try PNGWriter(file: destination.stream, width: canvas.side, height: canvas.side)
  } catch {
    throw written(error)
  }
  var coverage = ShapeCoverage(shape: shape)
  let compositor = Compositor(border: options.borderColor, layout: options.layout)
  var source = [UInt8](repeating: 0, count: decoder.width * 4)
  var result = [UInt8](repeating: 0, count: canvas.side * 4)
  var fill = [Float](repeating: 0, count: canvas.side)
  var stroke = fill
  // Rows below the canvas are never decoded: like vips' sequential access, stop early.
  for y in 0..<(canvas.top + canvas.side) {
    if let error = source.withUnsafeMutableBufferPointer({ row in
      catching { () throws(ImageError) in try decoder.readRow(into: row) }
    }) {
      throw HexMaskError(file: input, reason: error.reason)
    }
    guard y >= canvas.top else { continue }
    coverage.row(y - canvas.top, fill: &fill, stroke: &stroke)
    source.withUnsafeBufferPointer { row in
      result.withUnsafeMutableBufferPointer { out in
        let window = UnsafeBufferPointer(
          rebasing: row[(canvas.left * 4)..<((canvas.left + canvas.side) * 4)])
        compositor.composite(image: window, fill: fill, stroke: stroke, into: out)
      }
    }
    if let error = result.withUnsafeBufferPointer({ row in
      catching { () throws(ImageError) in try writer.writeRow(row) }
    }) {
      throw written(error)
    }
  }
  do {
    try writer.finish()
  } catch {
    throw written(error)
  }
  try destination.commit()
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

/// Runs `body` and hands back its error instead of throwing it, which keeps typed errors
/// out of the closures passed to `withUnsafe…BufferPointer`.
private func catching(_ body: () throws(ImageError) -> Void) -> ImageError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}
