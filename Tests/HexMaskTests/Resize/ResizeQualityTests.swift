import Testing

@testable import HexMask

/// A synthetic image: every pixel is `pixel(x, y)`. Counts the rows read and can fail
/// at one row, like a damaged file.
final class PatternDecoder: ImageDecoder {
  let width: Int
  let height: Int
  let warnings = [Warning(.damagedInput, "pattern warning")]
  let metadata = ImageMetadata()
  private(set) var rowsRead = 0
  let failingRow: Int?
  let pixel: (Int, Int) -> SIMD4<UInt8>

  init(
    width: Int, height: Int, failingRow: Int? = nil,
    pixel: @escaping (_ x: Int, _ y: Int) -> SIMD4<UInt8>
  ) {
    self.width = width
    self.height = height
    self.failingRow = failingRow
    self.pixel = pixel
  }

  /// An image of one colour.
  convenience init(width: Int, height: Int, uniform colour: SIMD4<UInt8>) {
    self.init(width: width, height: height) { _, _ in colour }
    uniformRow = Array(repeating: [colour.x, colour.y, colour.z, colour.w], count: width).flatMap {
      $0
    }
  }

  /// Every row, for a uniform image (copied fast even in debug builds).
  private var uniformRow: [UInt8]?

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    precondition(row.count == width * 4 && rowsRead < height)
    if rowsRead == failingRow { throw ImageError(.corrupt, "pattern row \(rowsRead) is damaged") }
    if let uniformRow {
      _ = row.update(fromContentsOf: uniformRow)
      rowsRead += 1
      return
    }
    for x in 0..<width {
      let value = pixel(x, rowsRead)
      for channel in 0..<4 { row[x * 4 + channel] = value[channel] }
    }
    rowsRead += 1
  }
}

/// Every pixel of `decoder`, RGBA8 rows top to bottom.
func readPixels(_ decoder: any ImageDecoder) throws(ImageError) -> [SIMD4<UInt8>] {
  var pixels: [SIMD4<UInt8>] = []
  pixels.reserveCapacity(decoder.width * decoder.height)
  var row = [UInt8](repeating: 0, count: decoder.width * 4)
  for _ in 0..<decoder.height {
    try row.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
      try decoder.readRow(into: buffer)
    }
    for x in 0..<decoder.width {
      pixels.append(SIMD4(row[x * 4], row[x * 4 + 1], row[x * 4 + 2], row[x * 4 + 3]))
    }
  }
  return pixels
}

/// Whether every pixel of `decoder` is `colour`; compares whole rows, which is fast
/// in debug builds too.
func isUniform(_ decoder: any ImageDecoder, _ colour: SIMD4<UInt8>) throws(ImageError) -> Bool {
  let expected = Array(repeating: [colour.x, colour.y, colour.z, colour.w], count: decoder.width)
    .flatMap { $0 }
  var row = [UInt8](repeating: 0, count: decoder.width * 4)
  var uniform = true
  for _ in 0..<decoder.height {
    try row.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
      try decoder.readRow(into: buffer)
    }
    uniform = uniform && row == expected
  }
  return uniform
}

/// `source` resized to `side`, from its centred square.
func resized(_ source: any ImageDecoder, side: Int) throws(ImageError) -> [SIMD4<UInt8>] {
  let crop = CropSquare(imageWidth: source.width, imageHeight: source.height)
  return try readPixels(ResizedDecoder(source, crop: crop, side: side))
}

@Suite("Resize quality")
struct ResizeQualityTests {
  static let sources = [(1, 1), (2, 3), (7, 5), (64, 64), (640, 427), (300, 1000)]
  static let sides = [1, 2, 3, 64, 255, 256]

  @Test(
    "a uniform image stays exactly uniform",
    arguments: sources.flatMap { source in sides.map { (source.0, source.1, $0) } })
  func uniform(width: Int, height: Int, side: Int) throws {
    for colour in [
      SIMD4<UInt8>(200, 100, 50, 255), SIMD4(10, 200, 31, 77), SIMD4(255, 255, 255, 1),
    ] {
      let source = PatternDecoder(width: width, height: height, uniform: colour)
      let square = CropSquare(imageWidth: width, imageHeight: height)
      let output = ResizedDecoder(source, crop: square, side: side)
      #expect(output.width == side && output.height == side)
      #expect(try isUniform(output, colour), "\(colour) from \(width)×\(height) to \(side)")
    }
  }

  // Shrinking 4100×4097 to 4096 passes as well, but takes some 20 s in a debug build.
  @Test(
    "a uniform image stays exactly uniform at 4096",
    arguments: [(1, 1), (3, 2), (500, 333)])
  func uniformLarge(width: Int, height: Int) throws {
    let colour = SIMD4<UInt8>(13, 180, 250, 200)
    let source = PatternDecoder(width: width, height: height, uniform: colour)
    let square = CropSquare(imageWidth: width, imageHeight: height)
    #expect(try isUniform(ResizedDecoder(source, crop: square, side: 4096), colour))
  }

  /// A 1-pixel checkerboard of black and white, shrunk by factors that are not whole
  /// numbers, averages to mid-grey everywhere: no moiré, no pattern left. The crop
  /// lies inside a larger board, so the filter sees the pattern go on beyond it.
  @Test(
    "a fine checkerboard shrinks to even mid-grey",
    arguments: [(300, 200), (640, 427), (1000, 333), (999, 256), (700, 64)])
  func checkerboard(cropSide: Int, side: Int) throws {
    let pixels = try shrunkPattern(cropSide: cropSide, side: side, margin: 40) { x, y in
      (x + y) % 2 == 0
    }
    #expect(pixels.allSatisfy { $0.x == $0.y && $0.y == $0.z && $0.w == 255 })
    #expect(greyness(pixels, side: side).worst <= 2)
  }

  /// One-pixel stripes, the hardest case for one axis: the filter alone must remove them.
  @Test(
    "fine stripes shrink to even mid-grey",
    arguments: [(300, 200), (640, 427), (1000, 333), (999, 256), (700, 64)])
  func stripes(cropSide: Int, side: Int) throws {
    let pixels = try shrunkPattern(cropSide: cropSide, side: side, margin: 40) { x, _ in
      x % 2 == 0
    }
    #expect(greyness(pixels, side: side).worst <= 3)
  }

  /// At the picture's own edges the filter sees the edge pixel repeated, not the
  /// pattern, so output pixels within the filter's reach of an edge lean towards it;
  /// the rest does not.
  @Test(
    "fine patterns up to the picture's edges shrink to mid-grey inside",
    arguments: [(300, 200), (640, 427), (999, 256)])
  func patternsToTheEdge(cropSide: Int, side: Int) throws {
    let board = try shrunkPattern(cropSide: cropSide, side: side, margin: 0) { x, y in
      (x + y) % 2 == 0
    }
    let lines = try shrunkPattern(cropSide: cropSide, side: side, margin: 0) { x, _ in
      x % 2 == 0
    }
    #expect(greyness(board, side: side).inside <= 2)
    #expect(greyness(lines, side: side).inside <= 3)
    // Measured: 31.5 at a shrink of 1.5, less for larger shrinks.
    #expect(greyness(lines, side: side).worst <= 32)
  }

  /// An opaque disc on a fully transparent background of another colour: after
  /// resizing, every pixel that is not fully transparent has exactly the disc's colour.
  /// Without premultiplied alpha the edge would pick up the background's colour (dark
  /// for transparent black).
  @Test(
    "a transparent background leaves no fringe",
    arguments: [(200, 37), (200, 64), (200, 100), (200, 255), (60, 400), (201, 3)])
  func transparentFringe(sourceSide: Int, side: Int) throws {
    let red = SIMD4<UInt8>(255, 0, 0, 255)
    let green = SIMD4<UInt8>(40, 200, 90, 255)
    for (disc, background) in [(red, SIMD4<UInt8>(0, 0, 0, 0)), (green, SIMD4(255, 0, 255, 0))] {
      let radius = Double(sourceSide) * 0.35
      let centre = Double(sourceSide) / 2
      let image = PatternDecoder(width: sourceSide, height: sourceSide) { x, y in
        let dx = Double(x) + 0.5 - centre
        let dy = Double(y) + 0.5 - centre
        return dx * dx + dy * dy <= radius * radius ? disc : background
      }
      let pixels = try resized(image, side: side)
      let visible = pixels.filter { $0.w > 0 }
      #expect(!visible.isEmpty)
      let off =
        visible.map { pixel in
          (0..<3).map { abs(Int(pixel[$0]) - Int(disc[$0])) }.max() ?? 0
        }.max() ?? 0
      #expect(off <= 1, "\(disc) on \(background), \(sourceSide) → \(side): off by \(off)")
      #expect(pixels.allSatisfy { $0.w > 0 || $0 == .zero })
      // Partly transparent pixels exist: the edge is soft, not cut.
      if side < sourceSide { #expect(visible.contains { $0.w < 255 }) }
    }
  }

  /// A black-and-white pattern (`isWhite`) of `cropSide` + 2 × `margin` pixels square,
  /// its middle `cropSide` square shrunk to `side`.
  private func shrunkPattern(
    cropSide: Int, side: Int, margin: Int, isWhite: @escaping (Int, Int) -> Bool
  ) throws -> [SIMD4<UInt8>] {
    let length = cropSide + 2 * margin
    let pattern = PatternDecoder(width: length, height: length) { x, y in
      isWhite(x, y) ? SIMD4(255, 255, 255, 255) : SIMD4(0, 0, 0, 255)
    }
    let crop = CropSquare(left: margin, top: margin, side: cropSide)
    return try readPixels(ResizedDecoder(pattern, crop: crop, side: side))
  }

  /// How far the red channel of `pixels` strays from mid-grey 127.5: anywhere, and
  /// beyond the reach of the picture's edges (the filter spans 3 output pixels each way
  /// when shrinking).
  private func greyness(_ pixels: [SIMD4<UInt8>], side: Int) -> (worst: Double, inside: Double) {
    var (worst, inside) = (0.0, 0.0)
    for y in 0..<side {
      for x in 0..<side {
        let off = abs(Double(pixels[y * side + x].x) - 127.5)
        worst = max(worst, off)
        let reach = 3
        if x >= reach && y >= reach && x < side - reach && y < side - reach {
          inside = max(inside, off)
        }
      }
    }
    return (worst, inside)
  }
}
