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
  /// Corner radius in pixels; `nil` means the seed's 10 px, shrunk to fit small canvases.
  public var cornerRadius: Double? = nil
  /// Border width in pixels; `nil` means the seed's 5 px, shrunk to fit small canvases.
  public var lineWidth: Double? = nil
  /// Rotation of the first corner in degrees, clockwise (the y axis points down).
  public var rotationDegrees = 90.0
  /// Border colour, straight alpha.
  public var borderColor = RGBAColor.white
  /// Where the shape sits on the canvas.
  public var layout = Layout.centered
  /// Largest `width × height` accepted, checked from the header before any pixel memory
  /// is allocated (sharp's default limit, a defence against decompression bombs).
  public var maxPixels = 268_402_689
  /// Turn the picture upright as its EXIF orientation says (as vipsthumbnail does).
  public var autoOrient = true
  /// Copy the input's ICC colour profile into the output, so colours stay right.
  public var keepColorProfile = true
  /// Refuse inputs that decode only with warnings (a truncated JPEG scan, a dropped profile).
  public var strict = false

  public init() {}
}

/// How the shape is placed on the canvas.
public enum Layout: String, Sendable, CaseIterable {
  /// Tight bounding box of the curve centred in the canvas; the whole border shows.
  case centered
  /// Exactly the original UIKit code: control-point bounds at (w/2, w/2), border clipped
  /// by the mask so only its inner half shows.
  case seed
}
