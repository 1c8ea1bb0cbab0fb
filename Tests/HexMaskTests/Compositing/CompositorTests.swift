import TestSupport
import Testing

@testable import HexMask

/// Composites one pixel whose coverages are `inner ≤ fill ≤ outer` and returns the
/// straight RGBA result.
private func compositeOne(
  image: [UInt8], inner: Float, fill: Float, outer: Float, border: RGBAColor = .white,
  layout: Layout = .centered
) -> [UInt8] {
  var out = [UInt8](repeating: 7, count: 4)
  image.withUnsafeBufferPointer { source in
    out.withUnsafeMutableBufferPointer { target in
      Compositor(border: border, layout: layout).composite(
        image: source, coverage: CoverageRow(inner: [inner], fill: [fill], outer: [outer]),
        into: target)
    }
  }
  return out
}

/// A pixel without a border: all three coverages are the fill.
private func compositeOne(image: [UInt8], fill: Float) -> [UInt8] {
  compositeOne(image: image, inner: fill, fill: fill, outer: fill)
}

@Suite struct CompositorTests {
  @Test func insideKeepsThePixelExactly() {
    #expect(compositeOne(image: [12, 34, 56, 78], fill: 1) == [12, 34, 56, 78])
  }

  @Test func outsideIsTransparentBlack() {
    #expect(compositeOne(image: [12, 34, 56, 255], fill: 0) == [0, 0, 0, 0])
  }

  @Test func transparentInputIsWrittenAsZero() {
    #expect(compositeOne(image: [200, 100, 50, 0], fill: 1) == [0, 0, 0, 0])
    #expect(compositeOne(image: [200, 100, 50, 0], fill: 0.5) == [0, 0, 0, 0])
  }

  @Test(arguments: [Float(0.01), 0.1, 0.33, 0.5, 0.9, 0.999])
  func whiteBorderFadingIntoTransparencyStaysWhite(stroke: Float) {
    let out = compositeOne(image: [0, 0, 0, 255], inner: 0, fill: 0, outer: stroke)
    #expect(out[3] == UInt8((stroke * 255).rounded()))
    if out[3] > 0 { #expect(Array(out[0..<3]) == [255, 255, 255]) }
  }

  @Test(arguments: [Float(0.1), 0.5, 0.9])
  func blackImageEdgeHasNoLightFringe(fill: Float) {
    let out = compositeOne(image: [0, 0, 0, 255], fill: fill)
    #expect(Array(out[0..<3]) == [0, 0, 0])
    #expect(out[3] == UInt8((fill * 255).rounded()))
  }

  @Test func halfBorderOverBlackIsMidGreyOpaque() {
    let out = compositeOne(image: [0, 0, 0, 255], inner: 0.5, fill: 1, outer: 1)
    #expect(out == [128, 128, 128, 255])
  }

  @Test func seedLayoutClipsTheBorderByTheFill() {
    // Outside the fill the border does not show in the seed layout…
    #expect(
      compositeOne(image: [0, 0, 0, 255], inner: 0, fill: 0, outer: 1, layout: .seed) == [
        0, 0, 0, 0,
      ])
    // …but it does by default.
    #expect(
      compositeOne(image: [0, 0, 0, 255], inner: 0, fill: 0, outer: 1) == [255, 255, 255, 255])
    // At the mask edge, the border is multiplied by the fill.
    #expect(
      compositeOne(image: [0, 0, 0, 255], inner: 0, fill: 0.5, outer: 1, layout: .seed) == [
        255, 255, 255, 128,
      ])
  }

  /// A pixel cut into three equal parts by a thin border on the fill's edge: a third is the
  /// picture alone, a third the border over it, a third the border alone. Compositing
  /// layers with `over` would mix a third of the picture under two thirds of the border.
  @Test func thinBorderAcrossTheEdgeWeighsEachRegionByItsArea() {
    let blue = RGBAColor(red: 0, green: 0, blue: 255, alpha: 128)
    let out = compositeOne(
      image: [255, 0, 0, 255], inner: 1.0 / 3, fill: 2.0 / 3, outer: 1, border: blue)
    // alpha = ⅓·1 + ⅓·(1·(1 − a) + a) + ⅓·a with a = 128/255.
    let a = 128.0 / 255
    let alpha = 1.0 / 3 + 1.0 / 3 + a / 3
    #expect(Int(out[3]) == Int((alpha * 255).rounded()))
    let red = (1.0 / 3 + (1 - a) / 3) * 255 / alpha
    let blueLevel = (2 * a / 3) * 255 / alpha
    #expect(abs(Double(out[0]) - red) <= 0.5 && out[1] == 0)
    #expect(abs(Double(out[2]) - blueLevel) <= 0.5)
  }

  @Test func translucentBorderMixesOverThePicture() {
    let red = RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)
    let out = compositeOne(image: [0, 0, 255, 255], inner: 0, fill: 1, outer: 1, border: red)
    #expect(out[3] == 255)
    #expect(abs(Int(out[0]) - 128) <= 1 && out[1] == 0 && abs(Int(out[2]) - 127) <= 1)
  }
}

/// The run-by-run path must give exactly the bytes of the pixel-by-pixel one.
@Suite struct CompositorSpanTests {
  @Test(arguments: [
    (97, 6, 10.0, 5.0, Layout.centered), (64, 3, 0.0, 9.0, .seed), (130, 64, 30.0, 0.0, .centered),
    (31, 5, 2.0, 12.0, .seed), (200, 8, 40.0, 3.5, .centered),
  ])
  func spansMatchPixelByPixel(side: Int, sides: Int, corner: Double, line: Double, layout: Layout)
    throws
  {
    var options = HexMask.Shape()
    options.sides = sides
    options.cornerRadius = corner
    options.lineWidth = line
    options.layout = layout
    let shape = try MaskShape(options, canvasSide: side)
    var coverage = ShapeCoverage(shape: shape)
    let compositor = Compositor(
      border: RGBAColor(red: 200, green: 30, blue: 90, alpha: 180), layout: layout)
    var random = SplitMix64(state: UInt64(side * 1000 + sides))
    var row = CoverageRow(width: side)
    for opaque in [true, false] {
      for y in 0..<side {
        let image = (0..<(side * 4)).map { k -> UInt8 in
          k % 4 == 3 && opaque
            ? 255
            : UInt8(
              truncatingIfNeeded: random.next() % (k % 4 == 3 ? 3 : 256) * (k % 4 == 3 ? 127 : 1))
        }
        coverage.row(y, into: &row)
        #expect(coverage.spans.first?.start == 0 && coverage.spans.last?.end == side)
        var slow = [UInt8](repeating: 1, count: side * 4)
        var fast = [UInt8](repeating: 2, count: side * 4)
        image.withUnsafeBufferPointer { source in
          slow.withUnsafeMutableBufferPointer {
            compositor.composite(image: source, coverage: row, into: $0)
          }
          fast.withUnsafeMutableBufferPointer {
            compositor.composite(
              image: source, coverage: row, spans: coverage.spans, imageIsOpaque: opaque,
              into: $0)
          }
        }
        #expect(fast == slow, "row \(y), opaque \(opaque)")
      }
    }
  }
}
