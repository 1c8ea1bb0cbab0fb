#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The row buffers between the picture and the writer, reused for every row: one source
/// row in, one output row (RGBA, or gray for a mask) out.
struct RowPipeline {
  private let maskOnly: Bool
  private let layout: Layout
  private let compositor: Compositor
  private var imageIsOpaque: Bool
  /// Converts each picture row to sRGB before the border is drawn on it (the border's
  /// colour is sRGB already); nil leaves the rows as they are.
  private let colour: HexMask.ColourTransform?
  /// Flatten onto this before writing (PNG and WebP with a background colour; JPEG does it itself).
  private let flattenOnto: RGBAColor?
  private var coverage: ShapeCoverage
  private var y = 0
  private var source: [UInt8]
  private var composited: [UInt8]
  private var result: [UInt8]
  private var row: CoverageRow

  init(
    shape: MaskShape, border: RGBAColor, output: HexMask.Output, imageIsOpaque: Bool,
    colour: HexMask.ColourTransform?
  ) {
    self.colour = colour
    let side = shape.canvasSide
    maskOnly = output.maskOnly
    layout = shape.layout
    self.imageIsOpaque = imageIsOpaque
    compositor = Compositor(border: border, layout: shape.layout)
    coverage = ShapeCoverage(shape: shape)
    flattenOnto = output.format == .jpeg || output.maskOnly ? nil : output.background
    source = [UInt8](repeating: 0, count: output.maskOnly ? 0 : side * 4)
    composited = [UInt8](repeating: 0, count: output.maskOnly ? side : side * 4)
    result = flattenOnto == nil ? [] : [UInt8](repeating: 0, count: side * 4)
    row = CoverageRow(width: side)
  }

  /// Decodes the next picture row.
  mutating func read(from picture: any ImageDecoder) throws(ImageError) {
    try picture.readRow(into: &source)
    if let colour { source.withUnsafeMutableBufferPointer { colour.convert($0) } }
  }

  /// Draws the next output row from the last picture row (or from nothing, for a mask).
  mutating func draw() {
    coverage.row(y, into: &row)
    y += 1
    if maskOnly {
      composited.withUnsafeMutableBufferPointer { out in
        maskLevels(coverage: row, layout: layout, into: out)
      }
      return
    }
    source.withUnsafeBufferPointer { picture in
      composited.withUnsafeMutableBufferPointer { out in
        compositor.composite(
          image: picture, coverage: row, spans: coverage.spans, imageIsOpaque: imageIsOpaque,
          into: out)
      }
    }
    if let background = flattenOnto {
      composited.withUnsafeBufferPointer { row in
        result.withUnsafeMutableBufferPointer { out in flatten(row, onto: background, into: out) }
      }
    }
  }

  /// Starts again at the top row, for the next frame of an animation (whose picture is
  /// opaque or not): the shape, its coverage and the buffers stay.
  mutating func restart(imageIsOpaque: Bool) {
    y = 0
    self.imageIsOpaque = imageIsOpaque
  }

  /// Goes on at output row `row`, the rows before it left as they were drawn for the frame
  /// before (each row's coverage depends on nothing but its index).
  mutating func skip(to row: Int) {
    y = row
  }

  /// Hands the last drawn row (RGBA, or gray for a mask) to `body`.
  func withRow(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    (flattenOnto == nil ? composited : result).withUnsafeBufferPointer(body)
  }

  /// Writes the last drawn row.
  func write(to writer: any ImageWriter) throws(ImageError) {
    var failure: ImageError?
    (flattenOnto == nil ? composited : result).withUnsafeBufferPointer { row in
      do throws(ImageError) { try writer.writeRow(row) } catch { failure = error }
    }
    if let failure { throw failure }
  }
}
