#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    for i in 0..<fill.count { blend(i, image: image, f: fill[i], s: stroke[i], into: output) }
  }

  /// Composites one row run by run: transparent runs are cleared and inside runs copied
  /// in bulk, so only the pixels along the outlines cost arithmetic. `imageIsOpaque` lets
  /// inside runs skip looking for transparent pixels.
  public func composite(
    image: UnsafeBufferPointer<UInt8>, fill: [Float], stroke: [Float],
    spans: [ShapeCoverage.Span], imageIsOpaque: Bool, into output: UnsafeMutableBufferPointer<UInt8>
  ) {
    for span in spans {
      let bytes = (4 * span.start)..<(4 * span.end)
      switch span.kind {
      case .outside:
        if let target = output.baseAddress { memset(target + bytes.lowerBound, 0, bytes.count) }
      case .inside:
        if let target = output.baseAddress, let source = image.baseAddress {
          memcpy(target + bytes.lowerBound, source + bytes.lowerBound, bytes.count)
        }
        if !imageIsOpaque { clearTransparent(output, bytes) }
      case .blend:
        for i in span.start..<span.end {
          blend(i, image: image, f: fill[i], s: stroke[i], into: output)
        }
      }
    }
  }

  /// Writes transparent pixels of a copied run as (0,0,0,0).
  private func clearTransparent(_ output: UnsafeMutableBufferPointer<UInt8>, _ bytes: Range<Int>) {
    for p in stride(from: bytes.lowerBound, to: bytes.upperBound, by: 4) where output[p + 3] == 0 {
      output[p] = 0
      output[p + 1] = 0
      output[p + 2] = 0
    }
  }

  /// One pixel of SPEC §2's formula.
  @inline(__always)
  private func blend(
    _ i: Int, image: UnsafeBufferPointer<UInt8>, f: Float, s: Float,
    into output: UnsafeMutableBufferPointer<UInt8>
  ) {
    let p = 4 * i
    if s == 0 && (f == 1 || f == 0) {
      // Plain inside or outside: copy or clear, no arithmetic to round.
      let keep = f == 1 && image[p + 3] != 0
      output[p] = keep ? image[p] : 0
      output[p + 1] = keep ? image[p + 1] : 0
      output[p + 2] = keep ? image[p + 2] : 0
      output[p + 3] = keep ? image[p + 3] : 0
      return
    }
    let imageAlpha = Float(image[p + 3]) / 255
    let borderAlpha = border.alpha * s
    let under = clipsBorder ? imageAlpha : imageAlpha * f
    let rest = 1 - borderAlpha
    let scale: Float = clipsBorder ? f : 1
    let alpha = (borderAlpha + under * rest) * scale
    let level = min(255, (alpha * 255).rounded())
    guard level > 0 else {
      output[p] = 0
      output[p + 1] = 0
      output[p + 2] = 0
      output[p + 3] = 0
      return
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
