import Testing

@testable import HexMask

/// A stored image whose every pixel says where it is: R = x, G = y, B = 100, A = 200.
/// Counts the rows read and can fail at one row, like a truncated file.
final class GridDecoder: ImageDecoder {
  let width: Int
  let height: Int
  let warnings = [Warning(.damagedInput, "grid warning")]
  let metadata = ImageMetadata()
  private(set) var rowsRead = 0
  let failingRow: Int?

  init(width: Int, height: Int, failingRow: Int? = nil) {
    self.width = width
    self.height = height
    self.failingRow = failingRow
  }

  static func pixel(x: Int, y: Int) -> [UInt8] { [UInt8(x), UInt8(y), 100, 200] }

  /// The stored image as rows of pixels.
  var matrix: [[[UInt8]]] {
    (0..<height).map { y in (0..<width).map { x in Self.pixel(x: x, y: y) } }
  }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    precondition(row.count == width * 4 && rowsRead < height)
    if rowsRead == failingRow { throw ImageError(.corrupt, "grid row \(rowsRead) is damaged") }
    for x in 0..<width {
      for (channel, value) in Self.pixel(x: x, y: rowsRead).enumerated() {
        row[x * 4 + channel] = value
      }
    }
    rowsRead += 1
  }
}

/// Reads `count` rows (all by default) of `decoder` as rows of pixels.
func readMatrix(_ decoder: any ImageDecoder, rows count: Int? = nil) throws(ImageError)
  -> [[[UInt8]]]
{
  var rows: [[[UInt8]]] = []
  var row = [UInt8](repeating: 0, count: decoder.width * 4)
  for _ in 0..<(count ?? decoder.height) {
    try row.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
      try decoder.readRow(into: buffer)
    }
    rows.append(stride(from: 0, to: row.count, by: 4).map { Array(row[$0..<$0 + 4]) })
  }
  return rows
}

// MARK: The expectation, written as a viewer's steps on a matrix

func mirrored<T>(_ m: [[T]]) -> [[T]] { m.map { $0.reversed() } }
func flipped<T>(_ m: [[T]]) -> [[T]] { m.reversed() }
/// Rotated a quarter turn clockwise: the bottom-left corner becomes the top-left.
func rotatedClockwise<T>(_ m: [[T]]) -> [[T]] {
  guard let columns = m.first?.count else { return [] }
  return (0..<columns).map { r in (0..<m.count).map { c in m[m.count - 1 - c][r] } }
}
func rotatedCounterClockwise<T>(_ m: [[T]]) -> [[T]] {
  rotatedClockwise(rotatedClockwise(rotatedClockwise(m)))
}

/// What a viewer does to show a stored image upright, as exiftool describes each value
/// ("Mirror horizontal and rotate 270 CW" for 5, and so on).
func shownUpright<T>(_ stored: [[T]], _ orientation: Orientation) -> [[T]] {
  switch orientation {
  case .up: stored
  case .upMirrored: mirrored(stored)
  case .down: rotatedClockwise(rotatedClockwise(stored))
  case .downMirrored: flipped(stored)
  case .leftMirrored: rotatedCounterClockwise(mirrored(stored))
  case .right: rotatedClockwise(stored)
  case .rightMirrored: rotatedClockwise(mirrored(stored))
  case .left: rotatedCounterClockwise(stored)
  }
}

// MARK: Pixels

@Test(
  arguments: Orientation.allCases,
  [(3, 2), (2, 3), (1, 1), (1, 4), (4, 1), (5, 5)])
func orientedRowsMatchTheViewerSteps(orientation: Orientation, size: (Int, Int)) throws {
  let grid = GridDecoder(width: size.0, height: size.1)
  let decoder = OrientedDecoder(grid, orientation: orientation)
  let expected = shownUpright(grid.matrix, orientation)
  #expect(decoder.height == expected.count)
  #expect(decoder.width == expected.first?.count)
  #expect(try readMatrix(decoder) == expected)
}

/// The EXIF definition itself: where the stored first row and first column end up.
@Test(arguments: Orientation.allCases)
func storedFirstRowAndColumnLandOnTheDefinedEdges(orientation: Orientation) throws {
  enum Edge { case top, bottom, left, right }
  let edges: [Orientation: (row0: Edge, column0: Edge)] = [
    .up: (.top, .left), .upMirrored: (.top, .right), .down: (.bottom, .right),
    .downMirrored: (.bottom, .left), .leftMirrored: (.left, .top), .right: (.right, .top),
    .rightMirrored: (.right, .bottom), .left: (.left, .bottom),
  ]
  let grid = GridDecoder(width: 3, height: 2)
  let upright = try readMatrix(OrientedDecoder(grid, orientation: orientation))
  func along(_ edge: Edge) -> [[UInt8]] {
    switch edge {
    case .top: upright[0]
    case .bottom: upright[upright.count - 1]
    case .left: upright.map { $0[0] }
    case .right: upright.map { $0[$0.count - 1] }
    }
  }
  let edge = try #require(edges[orientation])
  #expect(Set(along(edge.row0).map { $0[1] }) == [0], "all of stored row 0")
  #expect(Set(along(edge.column0).map { $0[0] }) == [0], "all of stored column 0")
}

// MARK: Reading

@Test(arguments: Orientation.allCases)
func readsLazilyAndStreamsWhenItCan(orientation: Orientation) throws {
  let grid = GridDecoder(width: 3, height: 4)
  let decoder = OrientedDecoder(grid, orientation: orientation)
  #expect(grid.rowsRead == 0)
  _ = try readMatrix(decoder, rows: 1)
  #expect(grid.rowsRead == (orientation.rawValue <= 2 ? 1 : 4))
  #expect(decoder.warnings.map(\.description) == ["grid warning"])
}

@Test(arguments: Orientation.allCases)
func innerErrorPropagatesAndSticks(orientation: Orientation) throws {
  let grid = GridDecoder(width: 2, height: 3, failingRow: 1)
  let decoder = OrientedDecoder(grid, orientation: orientation)
  let damaged = ImageError(.corrupt, "grid row 1 is damaged")
  // Streaming orientations deliver row 0 first; the others need row 1 for any row.
  let good = orientation.rawValue <= 2 ? 1 : 0
  #expect(try readMatrix(decoder, rows: good).count == good)
  #expect(throws: damaged) { try readMatrix(decoder, rows: 1) }
  #expect(throws: damaged) { try readMatrix(decoder, rows: 1) }
}

@Test(arguments: Orientation.allCases)
func readingPastTheLastRowIsAnError(orientation: Orientation) throws {
  let decoder = OrientedDecoder(GridDecoder(width: 2, height: 3), orientation: orientation)
  _ = try readMatrix(decoder)
  let error = thrownError { () throws(ImageError) in _ = try readMatrix(decoder, rows: 1) }
  #expect(error?.kind == .unreadable)
}

@Test func upIsNotWrapped() {
  let grid = GridDecoder(width: 2, height: 2)
  #expect(openOriented(grid, orientation: .up) === grid)
  #expect(openOriented(grid, orientation: .right) is OrientedDecoder)
}
