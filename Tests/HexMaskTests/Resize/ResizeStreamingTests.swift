import Testing

@testable import HexMask

@Suite("Resize streaming")
struct ResizeStreamingTests {
  /// Shrinking, enlarging, a crop away from the top, and a crop at its own size.
  static let cases: [(width: Int, height: Int, crop: CropSquare, side: Int)] = [
    (640, 427, CropSquare(imageWidth: 640, imageHeight: 427), 64),
    (300, 1000, CropSquare(imageWidth: 300, imageHeight: 1000, gravity: .south), 37),
    (300, 1000, CropSquare(imageWidth: 300, imageHeight: 1000, focus: (0.5, 0.3)), 300),
    (20, 30, CropSquare(imageWidth: 20, imageHeight: 30), 333),
    (1000, 1000, CropSquare(left: 0, top: 0, side: 1000), 100),
  ]

  /// Each output row reads only the source rows its filter reaches: the kernel is
  /// 3 × max(scale, 1) source rows either side of the row's centre.
  @Test("source rows are read as the filter needs them, never far ahead", arguments: cases)
  func readsAsNeeded(width: Int, height: Int, crop: CropSquare, side: Int) throws {
    let source = PatternDecoder(width: width, height: height) { x, y in
      SIMD4(UInt8(x % 256), UInt8(y % 256), 7, 255)
    }
    let resized = ResizedDecoder(source, crop: crop, side: side)
    #expect(source.rowsRead == 0)
    let scale = Double(crop.side) / Double(side)
    let reach = side == crop.side ? 0.5 : 3 * max(scale, 1)
    var row = [UInt8](repeating: 0, count: side * 4)
    for y in 0..<side {
      try row.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
        try resized.readRow(into: buffer)
      }
      let centre = Double(crop.top) + (Double(y) + 0.5) * scale - 0.5
      let needed = min(Double(height), (centre + reach).rounded(.up))
      #expect(Double(source.rowsRead) <= needed, "row \(y)")
      #expect(Double(source.rowsRead) >= needed - 1, "row \(y)")
    }
    #expect(source.rowsRead < height || crop.top + crop.side + Int(reach) >= height)
    try resized.readRemainingSourceRows()
    #expect(source.rowsRead == height)
  }

  @Test("a source error is thrown by the row that hit it and every later call")
  func failure() throws {
    let source = PatternDecoder(width: 50, height: 80, failingRow: 40) { _, _ in SIMD4(1, 2, 3, 4) }
    let resized = ResizedDecoder(
      source, crop: CropSquare(imageWidth: 50, imageHeight: 80), side: 10)
    var row = [UInt8](repeating: 0, count: 40)
    var errors: [ImageError?] = []
    for _ in 0..<10 {
      errors.append(
        thrownError { () throws(ImageError) in
          try row.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
            try resized.readRow(into: buffer)
          }
        })
    }
    let damaged = ImageError(.corrupt, "pattern row 40 is damaged")
    let firstFailure = try #require(errors.firstIndex { $0 != nil })
    #expect(firstFailure > 0 && firstFailure < 5)
    #expect(errors[firstFailure...].allSatisfy { $0 == damaged })
    #expect(
      thrownError { () throws(ImageError) in try resized.readRemainingSourceRows() } == damaged)
    #expect(resized.warnings.map(\.description) == ["pattern warning"])
  }

  @Test("reading past the last row is an error")
  func pastTheEnd() throws {
    let source = PatternDecoder(width: 4, height: 4) { _, _ in SIMD4(9, 9, 9, 9) }
    let resized = ResizedDecoder(source, crop: CropSquare(left: 0, top: 0, side: 4), side: 2)
    _ = try readPixels(resized)
    var row = [UInt8](repeating: 0, count: 8)
    let error = thrownError { () throws(ImageError) in
      try row.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
        try resized.readRow(into: buffer)
      }
    }
    #expect(error?.kind == .unreadable)
  }

  @Test(
    "weights: runs inside the image, in order, each summing to 1",
    arguments: [
      (640, 106.0, 427.0, 64), (10, 0.0, 10.0, 1000), (1, 0.0, 1.0, 5), (4032, 0.0, 4032.0, 7),
    ])
  func weights(sourceLength: Int, start: Double, length: Double, outputLength: Int) {
    let weights = LanczosWeights(
      sourceLength: sourceLength, start: start, length: length, outputLength: outputLength)
    for i in 0..<outputLength {
      #expect(weights.first[i] >= 0 && weights.first[i] + weights.count[i] <= sourceLength)
      #expect(weights.count[i] <= weights.stride)
      if i > 0 { #expect(weights.first[i] >= weights.first[i - 1]) }
      let run = weights.weights[i * weights.stride..<i * weights.stride + weights.count[i]]
      #expect(abs(run.reduce(0, +) - 1) < 1e-5)
    }
    let scale = length / Double(outputLength)
    #expect(weights.longestRun <= Int((6 * max(scale, 1)).rounded(.up)) + 1)
  }

  @Test("the documented example: a 640-pixel row's centred 427 pixels to 256")
  func documentedRun() {
    let columns = LanczosWeights(sourceLength: 640, start: 106, length: 427, outputLength: 256)
    #expect(columns.first[0] == 102 && columns.count[0] == 10)
  }
}
