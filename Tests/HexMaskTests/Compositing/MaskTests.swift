import Foundation
import TestSupport
import Testing

@testable import HexMask

/// The alpha the Compositor gives an opaque white image under an opaque `border`.
private func compositorAlpha(_ coverage: CoverageRow, layout: Layout, border: RGBAColor)
  -> [UInt8]
{
  let image = [UInt8](repeating: 255, count: coverage.width * 4)
  var out = [UInt8](repeating: 0, count: coverage.width * 4)
  image.withUnsafeBufferPointer { source in
    out.withUnsafeMutableBufferPointer { target in
      Compositor(border: border, layout: layout).composite(
        image: source, coverage: coverage, into: target)
    }
  }
  return stride(from: 3, to: out.count, by: 4).map { out[$0] }
}

private func levels(_ coverage: CoverageRow, layout: Layout) -> [UInt8] {
  var out = [UInt8](repeating: 0, count: coverage.width)
  out.withUnsafeMutableBufferPointer {
    maskLevels(coverage: coverage, layout: layout, into: $0)
  }
  return out
}

/// The whole mask of `shape`, row by row.
func maskPixels(of shape: MaskShape) -> [UInt8] {
  var coverage = ShapeCoverage(shape: shape)
  let side = shape.canvasSide
  var row = CoverageRow(width: side)
  var mask: [UInt8] = []
  mask.reserveCapacity(side * side)
  for y in 0..<side {
    coverage.row(y, into: &row)
    mask += levels(row, layout: shape.layout)
  }
  return mask
}

func shape(
  side: Int, sides: Int = 6, corner: Double? = nil, line: Double? = nil,
  layout: Layout = .centered, rotation: Double = 90
) throws -> MaskShape {
  var options = HexMask.Shape()
  options.sides = sides
  options.cornerRadius = corner
  options.lineWidth = line
  options.layout = layout
  options.rotationDegrees = rotation
  return try MaskShape(options, canvasSide: side)
}

@Suite struct MaskTests {
  /// Every inner ≤ fill ≤ outer on a grid of 1/64, plus values just off 0, ½ and 1 and
  /// coverages that land on .5 levels, for both layouts and two opaque border colours.
  @Test(arguments: Layout.allCases)
  func levelsEqualTheCompositorsAlphaExactly(layout: Layout) {
    var values = (0...64).map { Float($0) / 64 }
    values += (0..<255).map { (Float($0) + 0.5) / 255 }
    let half: Float = 0.5
    values += [Float.ulpOfOne, 1e-6, half.nextDown, half.nextUp, Float(1).nextDown, 0.001, 0.999]
    values.sort()
    for border in [RGBAColor.white, RGBAColor(red: 200, green: 10, blue: 60)] {
      for (k, fill) in values.enumerated() where k % 3 == 0 {
        // Every inner up to the fill against every outer from it, in two rows.
        let inners = values.filter { $0 <= fill }
        let outers = values.filter { $0 >= fill }
        for (inner, outer) in [
          (inners, [Float](repeating: fill, count: inners.count)),
          ([Float](repeating: fill, count: outers.count), outers),
        ] {
          let row = CoverageRow(
            inner: inner, fill: [Float](repeating: fill, count: inner.count), outer: outer)
          let expected = compositorAlpha(row, layout: layout, border: border)
          #expect(levels(row, layout: layout) == expected, "fill = \(fill)")
        }
      }
    }
  }

  /// The same through real shapes: every pixel of their coverage.
  @Test(
    arguments: [
      (64, 6, nil, nil, Layout.centered), (97, 3, 0.0, 7.0, .seed), (200, 8, 30.0, 12.0, .centered),
      (128, 64, 10.0, 0.0, .seed), (150, 5, 0.0, 9.5, .centered),
    ] as [(Int, Int, Double?, Double?, Layout)])
  func maskOfAShapeEqualsACompositedWhiteImage(
    side: Int, sides: Int, corner: Double?, line: Double?, layout: Layout
  ) throws {
    let shape = try shape(side: side, sides: sides, corner: corner, line: line, layout: layout)
    var coverage = ShapeCoverage(shape: shape)
    var row = CoverageRow(width: side)
    for y in 0..<side {
      coverage.row(y, into: &row)
      let expected = compositorAlpha(row, layout: layout, border: .white)
      #expect(levels(row, layout: layout) == expected, "row \(y)")
    }
  }

  @Test(arguments: Layout.allCases)
  func grayPNGDecodesBackToTheMask(layout: Layout) throws {
    let shape = try shape(side: 90, line: 6, layout: layout)
    let mask = maskPixels(of: shape)
    #expect(mask.contains(0) && mask.contains(255) && mask.contains { $0 != 0 && $0 != 255 })
    try withTemporaryFolder { url in
      let directory = url.path
      let path = directory + "/mask.png"
      try writeImage(mask, width: 90, height: 90, channels: 1, to: path) { file in
        try PNGStreamEncoder(file: file, width: 90, height: 90, channels: 1)
      }
      let bytes = try fileBytes(path)
      #expect(bytes[24] == 8 && bytes[25] == 0)  // IHDR: bit depth 8, colour type 0 (gray)
      #expect(chunkTypes(of: bytes).allSatisfy { ["IHDR", "tEXt", "IDAT", "IEND"].contains($0) })
      let image = try withFile(path) { file in try decode(file: file) }
      #expect(image.width == 90 && image.height == 90)
      // The decoder expands gray to RGBA: (v, v, v, 255).
      #expect(image.pixels == mask.flatMap { [$0, $0, $0, 255] })
    }
  }

  @Test func pngEncoderRefusesOtherChannelCounts() throws {
    try withTemporaryFolder { url in
      let directory = url.path
      _ = try withFile(directory + "/out.png", mode: "wb") { file in
        #expect(
          throws: ImageError(.writeFailed, "PNG pixels must have 1 (gray) or 4 (RGBA) bytes, not 3")
        ) {
          try PNGStreamEncoder(file: file, width: 3, height: 3, channels: 3)
        }
      }
    }
  }
}
