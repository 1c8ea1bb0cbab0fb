#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Puts the border over the picture inside the shape, one row at a time, weighting each
/// part of a pixel by its exact area (docs/design.md, Compositing).
///
/// Inside one pixel the outline cuts up to three regions: the picture alone (area
/// `inner`), the border over the picture (`fill − inner`) and the border alone
/// (`outer − fill`; none for the seed layout, whose mask clips the border). Each is
/// composited exactly and weighted by its area, in premultiplied form:
///
/// ```
/// out = picture·(inner + (fill − inner)·(1 − border alpha)) + border·(outer − inner)
/// ```
///
/// Compositing two separately anti-aliased layers with `over` instead conflates the
/// coverages where the fill's edge and the border's edges cross one pixel (by up to 28
/// levels with a thin border). The result is written in straight alpha: a pixel that ends
/// fully transparent is `(0,0,0,0)`, and colour is divided by the exact alpha before
/// rounding, so a white border fading into transparency stays white, with no fringe.
///
/// ```swift
/// let compositor = Compositor(border: .white, layout: .centered)
/// compositor.composite(image: pixels, coverage: row, into: out)
/// ```
package struct Compositor: Sendable {
  private let border: (red: Float, green: Float, blue: Float, alpha: Float)
  private let clipsBorder: Bool

  package init(border: RGBAColor, layout: Layout) {
    let alpha = Float(border.alpha) / 255
    self.border = (
      Float(border.red) * alpha, Float(border.green) * alpha, Float(border.blue) * alpha, alpha
    )
    clipsBorder = layout == .seed
  }

  /// Composites one row pixel by pixel. `image` and `output` hold `coverage.width × 4`
  /// bytes of straight RGBA.
  package func composite(
    image: UnsafeBufferPointer<UInt8>, coverage: CoverageRow,
    into output: UnsafeMutableBufferPointer<UInt8>
  ) {
    for i in 0..<coverage.width { blend(i, image: image, coverage, into: output) }
  }

  /// Composites one row run by run: transparent runs are cleared and inside runs copied
  /// in bulk, so only the pixels along the outlines cost arithmetic. `imageIsOpaque` lets
  /// inside runs skip looking for transparent pixels.
  package func composite(
    image: UnsafeBufferPointer<UInt8>, coverage: CoverageRow, spans: [ShapeCoverage.Span],
    imageIsOpaque: Bool, into output: UnsafeMutableBufferPointer<UInt8>
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
        for i in span.start..<span.end { blend(i, image: image, coverage, into: output) }
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

  /// One pixel of the formula in docs/design.md, Compositing.
  @inline(__always)
  private func blend(
    _ i: Int, image: UnsafeBufferPointer<UInt8>, _ coverage: CoverageRow,
    into output: UnsafeMutableBufferPointer<UInt8>
  ) {
    let p = 4 * i
    let weights = AreaWeights(
      inner: coverage.inner[i], fill: coverage.fill[i], outer: coverage.outer[i],
      clipsBorder: clipsBorder)
    if weights.borderOnTop == 0 && weights.borderAlone == 0
      && (weights.pictureAlone == 1 || weights.pictureAlone == 0)
    {
      // Plain inside or outside: copy or clear, no arithmetic to round.
      let keep = weights.pictureAlone == 1 && image[p + 3] != 0
      output[p] = keep ? image[p] : 0
      output[p + 1] = keep ? image[p + 1] : 0
      output[p + 2] = keep ? image[p + 2] : 0
      output[p + 3] = keep ? image[p + 3] : 0
      return
    }
    let imageAlpha = Float(image[p + 3]) / 255
    let (picture, borderShare) = weights.shares(borderAlpha: border.alpha)
    let under = imageAlpha * picture
    let alpha = under + border.alpha * borderShare
    let level = min(255, (alpha * 255).rounded())
    guard level > 0 else {
      output[p] = 0
      output[p + 1] = 0
      output[p + 2] = 0
      output[p + 3] = 0
      return
    }
    func channel(_ borderPremultiplied: Float, _ value: UInt8) -> UInt8 {
      let premultiplied = Float(value) * under + borderPremultiplied * borderShare
      return UInt8(min(255, (premultiplied / alpha).rounded()))
    }
    output[p] = channel(border.red, image[p])
    output[p + 1] = channel(border.green, image[p + 1])
    output[p + 2] = channel(border.blue, image[p + 2])
    output[p + 3] = UInt8(level)
  }
}

/// The exact areas of the three regions the outline cuts a pixel into, from its three
/// coverages: `inner ≤ fill ≤ outer`.
struct AreaWeights {
  /// Inside the fill, outside the border: the picture alone.
  var pictureAlone: Float
  /// Inside the fill and the border: the border over the picture.
  var borderOnTop: Float
  /// Inside the border, outside the fill: the border alone; 0 where the mask clips it.
  var borderAlone: Float

  @inline(__always)
  init(inner: Float, fill: Float, outer: Float, clipsBorder: Bool) {
    pictureAlone = inner
    // Never below 0: the coverages come from separate sums, equal to rounding.
    borderOnTop = max(0, fill - inner)
    borderAlone = clipsBorder ? 0 : max(0, outer - fill)
  }

  /// How much of the pixel shows the picture (under a border of `borderAlpha` where they
  /// overlap) and how much shows the border: the factors of the formula in docs/design.md,
  /// Compositing
  /// `picture·(a_I + a_FS·(1 − border alpha)) + border·(a_FS + a_SO)`.
  @inline(__always)
  func shares(borderAlpha: Float) -> (picture: Float, border: Float) {
    (pictureAlone + borderOnTop * (1 - borderAlpha), borderOnTop + borderAlone)
  }
}
