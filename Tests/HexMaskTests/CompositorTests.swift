import Testing

@testable import HexMask

/// Composites one pixel and returns the straight RGBA result.
private func compositeOne(
  image: [UInt8], fill: Float, stroke: Float, border: RGBAColor = .white, layout: Layout = .centered
) -> [UInt8] {
  var out = [UInt8](repeating: 7, count: 4)
  image.withUnsafeBufferPointer { source in
    out.withUnsafeMutableBufferPointer { target in
      Compositor(border: border, layout: layout).composite(
        image: source, fill: [fill], stroke: [stroke], into: target)
    }
  }
  return out
}

@Suite struct CompositorTests {
  @Test func insideKeepsThePixelExactly() {
    #expect(compositeOne(image: [12, 34, 56, 78], fill: 1, stroke: 0) == [12, 34, 56, 78])
  }

  @Test func outsideIsTransparentBlack() {
    #expect(compositeOne(image: [12, 34, 56, 255], fill: 0, stroke: 0) == [0, 0, 0, 0])
  }

  @Test func transparentInputIsWrittenAsZero() {
    #expect(compositeOne(image: [200, 100, 50, 0], fill: 1, stroke: 0) == [0, 0, 0, 0])
    #expect(compositeOne(image: [200, 100, 50, 0], fill: 0.5, stroke: 0) == [0, 0, 0, 0])
  }

  @Test(arguments: [Float(0.01), 0.1, 0.33, 0.5, 0.9, 0.999])
  func whiteBorderFadingIntoTransparencyStaysWhite(stroke: Float) {
    let out = compositeOne(image: [0, 0, 0, 255], fill: 0, stroke: stroke)
    #expect(out[3] == UInt8((stroke * 255).rounded()))
    if out[3] > 0 { #expect(Array(out[0..<3]) == [255, 255, 255]) }
  }

  @Test(arguments: [Float(0.1), 0.5, 0.9])
  func blackImageEdgeHasNoLightFringe(fill: Float) {
    let out = compositeOne(image: [0, 0, 0, 255], fill: fill, stroke: 0)
    #expect(Array(out[0..<3]) == [0, 0, 0])
    #expect(out[3] == UInt8((fill * 255).rounded()))
  }

  @Test func halfBorderOverBlackIsMidGreyOpaque() {
    let out = compositeOne(image: [0, 0, 0, 255], fill: 1, stroke: 0.5)
    #expect(out == [128, 128, 128, 255])
  }

  @Test func seedLayoutClipsTheBorderByTheFill() {
    // Outside the fill the border does not show in the seed layout…
    #expect(
      compositeOne(image: [0, 0, 0, 255], fill: 0, stroke: 1, layout: .seed) == [0, 0, 0, 0])
    // …but it does by default.
    #expect(compositeOne(image: [0, 0, 0, 255], fill: 0, stroke: 1) == [255, 255, 255, 255])
    // At the mask edge, the border is multiplied by the fill.
    #expect(
      compositeOne(image: [0, 0, 0, 255], fill: 0.5, stroke: 1, layout: .seed) == [
        255, 255, 255, 128,
      ])
  }

  @Test func translucentBorderMixesOverThePicture() {
    let red = RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)
    let out = compositeOne(image: [0, 0, 255, 255], fill: 1, stroke: 1, border: red)
    #expect(out[3] == 255)
    #expect(abs(Int(out[0]) - 128) <= 1 && out[1] == 0 && abs(Int(out[2]) - 127) <= 1)
  }
}
