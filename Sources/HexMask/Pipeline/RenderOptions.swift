/// Everything that decides what one output looks like. Geometry is in output pixels.
///
/// ```swift
/// var options = RenderOptions()
/// options.sides = 8
/// options.cornerRadius = 20
/// ```
public struct RenderOptions: Sendable, Equatable {
  /// Number of polygon sides, 3…64.
  public var sides = 6
  /// Corner radius; `nil` means the seed's 10 px, shrunk to fit small canvases.
  public var corner: Length? = nil
  /// Border width; `nil` means the seed's 5 px, shrunk to fit small canvases.
  public var line: Length? = nil
  /// Rotation of the first corner in degrees, clockwise (the y axis points down).
  public var rotationDegrees = 90.0
  /// Border colour, straight alpha.
  public var borderColor = RGBAColor.white
  /// Where the shape sits on the canvas.
  public var layout = Layout.centered
  /// Side of the square output in pixels; `nil` keeps the crop's own size.
  public var size: Int? = nil
  /// Enlarge crops smaller than `size`; false keeps them at their own size.
  public var upscale = true
  /// Which square of a non-square picture is used (the seed layout always takes the
  /// top-left one, as the original does).
  public var crop = CropChoice.gravity(.center)
  /// What to write; `nil` means what the output's extension says (PNG when it has none).
  public var format: OutputFormat? = nil
  /// JPEG and lossy WebP quality, 1…100.
  public var quality = 90
  /// PNG filter and zlib settings; the default beats vips' `pngsave` on both time and size.
  public var compression = PNGCompression.default
  /// Threads that deflate bands of one PNG at once; the bytes are the same for any number.
  public var threads = 1
  /// WebP only: lossless instead of lossy.
  public var lossless = false
  /// Make the output opaque on this colour. JPEG, which has no alpha, always is: on white
  /// unless this says otherwise.
  public var background: RGBAColor? = nil
  /// Write the shape's 8-bit coverage (fill and border) as a gray PNG instead of the picture.
  public var maskOnly = false
  /// Largest `width × height` accepted, checked from the input's header before any pixel
  /// memory is allocated (sharp's default limit, a defence against decompression bombs),
  /// and for the output before it is started (a `size` of 65 500 is 4.3 gigapixels).
  public var maxPixels = 268_402_689
  /// Turn the picture upright as its EXIF orientation says (as vipsthumbnail does).
  public var autoOrient = true
  /// Copy the input's ICC colour profile into the output, so colours stay right.
  public var keepColorProfile = true
  /// Refuse inputs that decode only with warnings (a truncated JPEG scan, a dropped profile).
  public var strict = false

  public init() {}

  /// The corner radius in pixels, when it was given in pixels.
  public var cornerRadius: Double? {
    get { corner?.pixels }
    set { corner = newValue.map(Length.pixels) }
  }

  /// The border width in pixels, when it was given in pixels.
  public var lineWidth: Double? {
    get { line?.pixels }
    set { line = newValue.map(Length.pixels) }
  }
}

/// How the square is chosen from a non-square picture.
public enum CropChoice: Equatable, Sendable {
  /// A side, corner or the centre.
  case gravity(Gravity)
  /// Centred on this point (fractions 0…1 of the width and height) as far as it fits.
  case focus(x: Double, y: Double)

  /// The square of a `width × height` picture.
  public func square(width: Int, height: Int) -> CropSquare {
    switch self {
    case .gravity(let gravity): CropSquare(imageWidth: width, imageHeight: height, gravity: gravity)
    case .focus(let x, let y): CropSquare(imageWidth: width, imageHeight: height, focus: (x, y))
    }
  }
}

/// A length in output pixels, or as a percentage of the canvas side (`--corner 8%`), so one
/// option suits every output size.
///
/// ```swift
/// Length.percent(8).inPixels(canvasSide: 256)   // 20.48
/// ```
public enum Length: Equatable, Sendable {
  case pixels(Double)
  case percent(Double)

  /// The length on a canvas of `canvasSide` pixels.
  public func inPixels(canvasSide: Double) -> Double {
    switch self {
    case .pixels(let value): value
    case .percent(let value): value / 100 * canvasSide
    }
  }

  /// The value when given in pixels, else nil.
  public var pixels: Double? {
    if case .pixels(let value) = self { value } else { nil }
  }
}

/// How the shape is placed on the canvas.
public enum Layout: String, Sendable, CaseIterable {
  /// Tight bounding box of the curve centred in the canvas; the whole border shows.
  case centered
  /// Exactly the original UIKit code: control-point bounds at (w/2, w/2), border clipped
  /// by the mask so only its inner half shows.
  case seed
}
