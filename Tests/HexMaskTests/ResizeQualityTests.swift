import Testing

@testable import HexMask

/// A synthetic image: every pixel is `pixel(x, y)`. Counts the rows read and can fail
/// at one row, like a damaged file.
final class PatternDecoder: ImageDecoder {
  let width: Int
  let height: Int
  let warnings = ["pattern warning"]
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
    for colour in [SIMD4<UInt8>(200, 100, 50, 255), SIMD4(10, 200, 31, 77), SIMD4(255, 255, 255, 1)]
    {
      let source = PatternDecoder(width: width, height: height, uniform: colour)
      let square = CropSquare(imageWidth: width, imageHeight: height)
      let output = ResizedDecoder(source, crop: square, side: side)
      #expect(output.width == side && output.height == side)
      #expect(try isUniform(output, colour), "\(colour) from \(width)×\(height) to \(side)")
    }
  }

  @Test(
    "a uniform image stays exactly uniform at 4096",
    arguments: [(1, 1), (3, 2), (500, 333), (4100, 4097)])
  func uniformLarge(width: Int, height: Int) throws {
    let colour = SIMD4<UInt8>(13, 180, 250, 200)
    let source = PatternDecoder(width: width, height: height, uniform: colour)
    let square = CropSquare(imageWidth: width, imageHeight: height)
    #expect(try isUniform(ResizedDecoder(source, crop: square, side: 4096), colour))
  }
}
