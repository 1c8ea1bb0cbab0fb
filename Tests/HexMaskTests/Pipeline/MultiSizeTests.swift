import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Several sizes from one decode: every source row is decoded once, few are kept, and
/// each size looks like a render of that size alone.
@Suite struct MultiSizeTests {
  /// A 1600 × 1200 JPEG made from the rocket photo: large enough that a 64 px render alone
  /// is shrunk on load (by 4) while the 256 px one of the list is decoded at 1/2.
  static func largePhoto() throws -> [UInt8] {
    var output = HexMask.Output()
    output.size = 1600
    output.kind = .jpeg(.init(quality: 95))
    var shape = HexMask.Shape()
    shape.line = .pixels(0)
    return try HexMask.render(try Fixtures.bytes("photos/rocket.jpg"), shape: shape, output: output)
      .bytes
  }

  /// The mean difference of two RGBA8 images, premultiplied, in levels per channel.
  static func meanPremultipliedDifference(_ a: DecodedImage, _ b: DecodedImage) -> Double {
    var total = 0.0
    for index in stride(from: 0, to: a.pixels.count, by: 4) {
      let alphaA = Double(a.pixels[index + 3]) / 255
      let alphaB = Double(b.pixels[index + 3]) / 255
      for channel in 0..<3 {
        total += abs(
          Double(a.pixels[index + channel]) * alphaA - Double(b.pixels[index + channel]) * alphaB)
      }
      total += abs(Double(a.pixels[index + 3]) - Double(b.pixels[index + 3]))
    }
    return total / Double(a.pixels.count)
  }

  static let shape: HexMask.Shape = {
    var shape = HexMask.Shape()
    shape.corner = .percent(12)
    shape.line = .percent(3)
    shape.rotation = 15
    return shape
  }()

  /// Photos and a picture with alpha, at sizes down to 17 px. (Not tiny JPEGs: a separate
  /// 17 px render of the 227 × 149 `testorig.jpg` is shrunk on load to 1/4, leaving only
  /// 2.2 × the size for Lanczos, and differs by 2.4 levels from the list's full decode,
  /// which is the more exact of the two.)
  @Test(arguments: [
    "large", "photos/rocket.jpg", "pngsuite/basn6a08.png", "jpeg/pil_sample_rgb.jpg",
  ])
  func eachSizeIsWithinOneLevelOfItsOwnRender(fixture: String) throws {
    let input = fixture == "large" ? try Self.largePhoto() : try Fixtures.bytes(fixture)
    let sizes = [256, 17, 24, 32, 48, 64, 128, 300]
    var output = HexMask.Output()
    output.upscale = true
    let together = try HexMask.render(input, sizes: sizes, shape: Self.shape, output: output).map(
      \.bytes)
    #expect(together.count == sizes.count)
    for (size, png) in zip(sizes, together) {
      output.size = size
      let alone = try decodePNG(try HexMask.render(input, shape: Self.shape, output: output).bytes)
        .image
      let image = try decodePNG(png).image
      #expect(image.width == size && image.height == size)
      let difference = Self.meanPremultipliedDifference(image, alone)
      #expect(difference < 1, "\(fixture) at \(size): \(difference) levels")
    }
  }

  /// A list of one size is exactly the single render: the same pipeline.
  @Test func oneSizeListIsTheSingleRender() throws {
    let input = try Fixtures.bytes("photos/rocket.jpg")
    var output = HexMask.Output()
    output.size = 96
    let alone = try HexMask.render(input, shape: Self.shape, output: output).bytes
    #expect(try HexMask.render(input, sizes: [96], shape: Self.shape).map(\.bytes) == [alone])
  }

  /// Where a separate run decodes the same pixels (no shrink-on-load for any size), each
  /// size of a list is that run's exact bytes: here through an EXIF turn (orientation 6,
  /// which holds the whole picture) and a PNG with alpha.
  @Test(arguments: ["exif/Portrait_6.jpg", "pngsuite/basn6a08.png"])
  func withoutShrinkingEachSizeIsTheSeparateRunsBytes(fixture: String) throws {
    let input = try Fixtures.bytes(fixture)
    let sizes = [48, 128, 64, 256]
    let together = try HexMask.render(input, sizes: sizes, shape: Self.shape).map(\.bytes)
    for (size, png) in zip(sizes, together) {
      var output = HexMask.Output()
      output.size = size
      #expect(try HexMask.render(input, shape: Self.shape, output: output).bytes == png, "\(size)")
    }
  }

  /// The descriptor API writes the same bytes as the bytes API, one file per size.
  @Test func descriptorsGetTheSameBytes() throws {
    let input = try Fixtures.bytes("exif/Landscape_5.jpg")
    let expected = try HexMask.render(input, sizes: [40, 80], shape: Self.shape).map(\.bytes)
    try withTemporaryFolder { url in
      let directory = url.path
      let inPath = directory + "/in.jpg"
      try Data(input).write(to: URL(fileURLWithPath: inPath))
      let source = open(inPath, O_RDONLY)
      let small = open(directory + "/40.png", O_WRONLY | O_CREAT, 0o644)
      let large = open(directory + "/80.png", O_WRONLY | O_CREAT, 0o644)
      defer { for descriptor in [source, small, large] { close(descriptor) } }
      let reports = try HexMask.render(
        from: source, toEach: [(40, small), (80, large)], shape: Self.shape)
      #expect(reports.map(\.side) == [40, 80])
      let written = try [40, 80].map { size in
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/\(size).png")))
      }
      #expect(written == expected)
    }
  }

  /// Each decoded row is read from the source once, however many sizes read it, and the
  /// rows kept stay a small part of the picture.
  @Test func sourceRowsAreDecodedOnceAndFewAreKept() throws {
    let source = PatternDecoder(width: 600, height: 600) { x, y in
      SIMD4(UInt8(x % 251), UInt8(y % 241), UInt8((x + y) % 239), 255)
    }
    let shared = SharedRows(source)
    let square = CropSquare(left: 0, top: 0, side: 600)
    let pictures = [32, 100, 300].map { ResizedDecoder(shared.branch(), crop: square, side: $0) }
    var done = pictures.map { _ in 0 }
    // Interleaved as render does: the output furthest behind goes next.
    while let index = pictures.indices.filter({ done[$0] < pictures[$0].height }).min(by: {
      (Double(done[$0]) + 0.5) / Double(pictures[$0].height)
        < (Double(done[$1]) + 0.5) / Double(pictures[$1].height)
    }) {
      var row = [UInt8](repeating: 0, count: pictures[index].width * 4)
      try row.withUnsafeMutableBufferPointer { try pictures[index].readRow(into: $0) }
      done[index] += 1
    }
    #expect(source.rowsRead <= 600)
    // The 32 px filter is about 6 × 600 / 32 ≈ 113 rows tall; the 300 px one 12.
    #expect(shared.mostRowsKept < 140, "kept \(shared.mostRowsKept) rows")
  }

  /// A damaged row fails every size, not only the one that hit it.
  @Test func aDamagedRowFailsEveryReader() throws {
    let source = PatternDecoder(width: 50, height: 50, failingRow: 20) { _, _ in
      SIMD4(9, 9, 9, 255)
    }
    let shared = SharedRows(source)
    let first = shared.branch()
    let second = shared.branch()
    var row = [UInt8](repeating: 0, count: 200)
    for _ in 0..<20 { try row.withUnsafeMutableBufferPointer { try first.readRow(into: $0) } }
    let damaged = ImageError(.corrupt, "pattern row 20 is damaged")
    #expect(throws: damaged) {
      try row.withUnsafeMutableBufferPointer { try first.readRow(into: $0) }
    }
    #expect(throws: damaged) {
      try row.withUnsafeMutableBufferPointer { try second.readRow(into: $0) }
    }
  }

  /// A size the shape does not fit fails with the shape's error, naming which output.
  @Test func aSizeTooSmallForTheCornerIsNamed() throws {
    var shape = HexMask.Shape()
    shape.corner = .pixels(30)
    let input = try Fixtures.bytes("photos/rocket.jpg")
    // The 32 px size is the one too small: at most 8 px of corner fits it.
    #expect(throws: HexMask.Error.shape(.cornerTooLarge(30, maximum: 8, canvasSide: 32))) {
      try HexMask.render(input, sizes: [256, 32], shape: shape).map(\.bytes)
    }
    try withTemporaryFolder { url in
      let directory = url.path
      let inPath = directory + "/in.jpg"
      try Data(input).write(to: URL(fileURLWithPath: inPath))
      let source = open(inPath, O_RDONLY)
      let sink = open("/dev/null", O_WRONLY)
      defer { for descriptor in [source, sink] { close(descriptor) } }
      do throws(HexMask.TargetedError) {
        _ = try HexMask.renderTargets(
          from: source, to: [(256, sink), (32, sink)], shape: shape,
          output: HexMask.Output(), input: HexMask.Input())
        Issue.record("a 32 px hexagon cannot have 30 px corners")
      } catch {
        #expect(error.target == 1)
        guard case .shape(.cornerTooLarge) = error.error else {
          Issue.record("expected cornerTooLarge, got \(error.error)")
          return
        }
      }
    }
  }
}
