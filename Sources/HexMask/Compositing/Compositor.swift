/// Puts the border over the picture inside the shape, one row at a time (SPEC §2).
///
/// Works in premultiplied form and writes straight alpha: `over(border·stroke,
/// image·fill)` by default, `over(border·stroke, image)·fill` for the seed layout (the
/// mask clips the border). A pixel that ends fully transparent is written `(0,0,0,0)`,
/// and colour is divided by the exact alpha before rounding, so a white border fading
/// into transparency stays white: no dark or light fringe.
///
/// ```swift
/// let compositor = Compositor(border: .white, layout: .centered)
/// compositor.composite(image: pixels, fill: fill, stroke: stroke, into: out)
/// ```
public struct Compositor: Sendable {
  private let border: (red: Float, green: Float, blue: Float, alpha: Float)
  private let clipsBorder: Bool

  public init(border: RGBAColor, layout: Layout) {
    let alpha = Float(border.alpha) / 255
    self.border = (
      Float(border.red) * alpha, Float(border.green) * alpha, Float(border.blue) * alpha, alpha
    )
    clipsBorder = layout == .seed
  }

  /// Composites one row. `image` and `output` hold `fill.count × 4` bytes of straight
  /// RGBA; `fill` and `stroke` are coverages 0…1 of the same pixels.
  public func composite(
    image: UnsafeBufferPointer<UInt8>, fill: [Float], stroke: [Float],
    into output: UnsafeMutableBufferPointer<UInt8>
  ) {
    for i in 0..<fill.count {
      let f = fill[i]
      let s = stroke[i]
      let p = 4 * i
      if s == 0 && (f == 1 || f == 0) {
        // Plain inside or outside: copy or clear, no arithmetic to round.
        let keep = f == 1 && image[p + 3] != 0
        output[p] = keep ? image[p] : 0
        output[p + 1] = keep ? image[p + 1] : 0
        output[p + 2] = keep ? image[p + 2] : 0
        output[p + 3] = keep ? image[p + 3] : 0
        continue
      }
      let imageAlpha = Float(image[p + 3]) / 255
      let borderAlpha = border.alpha * s
      let under = clipsBorder ? imageAlpha : imageAlpha * f
      let rest = 1 - borderAlpha
      let scale: Float = clipsBorder ? f : 1
      let alpha = (borderAlpha + under * rest) * scale
      let level = (alpha * 255).rounded()
      guard level > 0 else {
        output[p] = 0
        output[p + 1] = 0
        output[p + 2] = 0
        output[p + 3] = 0
        continue
      }
      func channel(_ borderPremultiplied: Float, _ value: UInt8) -> UInt8 {
        let premultiplied = (borderPremultiplied * s + Float(value) * under * rest) * scale
        return UInt8(min(255, (premultiplied / alpha).rounded()))
      }
      output[p] = channel(border.red, image[p])
      output[p + 1] = channel(border.green, image[p + 1])
      output[p + 2] = channel(border.blue, image[p + 2])
      output[p + 3] = UInt8(level)
    }
  }
}
