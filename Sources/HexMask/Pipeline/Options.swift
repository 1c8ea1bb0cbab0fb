/// What hexmask makes, as values: the look of the mask, the picture to write, and how the
/// input is read. Each stage of the pipeline takes only its own. Every default lives here,
/// once; the command line's help, manual page and README table show these.
extension HexMask {
  /// The look of the mask: the rounded polygon, its border and where it sits (docs/design.md,
  /// The shape).
  ///
  /// ```swift
  /// var shape = HexMask.Shape()
  /// shape.sides = 8
  /// shape.corner = .percent(8)
  /// ```
  public struct Shape: Sendable, Equatable, Hashable {
    /// Number of sides, 3…64.
    public var sides = Self.defaultSides
    /// Corner radius; nil means ``defaultCorner`` pixels, shrunk to fit small canvases.
    public var corner: Length? = nil
    /// Border width, 0 for none; nil means ``defaultLine`` pixels, shrunk to at most an
    /// eighth of small canvases.
    public var line: Length? = nil
    /// Angle of the first corner in degrees, clockwise (the y axis points down).
    public var rotation = Self.defaultRotation
    /// Border colour, straight alpha.
    public var borderColor = Self.defaultBorderColor
    /// Where the shape sits on the canvas.
    public var layout = Layout.centered

    public init() {}

    /// The original's hexagon.
    public static let defaultSides = 6
    /// The original's corner radius, in pixels.
    public static let defaultCorner = 10.0
    /// The original's border width, in pixels.
    public static let defaultLine = 5.0
    /// The original's rotation: 90° puts a corner at the bottom.
    public static let defaultRotation = 90.0
    /// The original's white border.
    public static let defaultBorderColor = RGBAColor.white
    /// The numbers of sides a shape may have.
    public static let sidesRange = 3...64
  }

  /// The picture to write: its size, which square of the input, and its kind with that
  /// kind's settings.
  ///
  /// ```swift
  /// var output = HexMask.Output()
  /// output.size = 256
  /// output.kind = .webp(.init(quality: .lossy(80)))
  /// ```
  public struct Output: Sendable, Equatable, Hashable {
    /// Side of the square output in pixels; nil keeps the square's own size. The multi-size
    /// calls take their sizes apart, so set there it is an error.
    public var size: Int? = nil
    /// Enlarge squares smaller than `size`; false keeps them at their own size.
    public var upscale = true
    /// Which square of a non-square picture is used (the seed layout always takes the
    /// top-left one, as the original does).
    public var crop = CropChoice.gravity(.center)
    /// Frame the face: with ``CropChoice/faces(_:)``, cut the square around the face found
    /// so that its box spans this share of the side (0 < faceSize ≤ 1; 0.4 is a head and
    /// shoulders), the eyes at 40 % of the side from the top; the group of faces when they
    /// fit together, else the most prominent one; where there is no face, the full-side
    /// square attention picks (``Report/framing`` says which). The square is at most the
    /// picture's short side and is enlarged to `size` unless ``upscale`` is false. nil: the
    /// full-side square the faces crop slides along the long side. Set with another crop, it
    /// is ``OutputError/faceSizeWithoutFaces``.
    public var faceSize: Double? = nil
    /// What to write, with the settings of that kind (``Kind``): a PNG unless told
    /// otherwise. Settings gathered before the kind is known become one with
    /// ``Choices/kind(for:)``.
    public var kind = Kind.png(PNG())
    /// What the output's colours are in: the input's own, described by its ICC profile
    /// (``ColorSpace/keep``), or sRGB (``ColorSpace/srgb``). Whatever it says, a profile the
    /// output cannot carry (a gray or CMYK one) is converted rather than dropped.
    public var colorSpace = ColorSpace.keep
    /// Write the input's colour profile (or, converted, the format's sRGB tag: a PNG `sRGB`
    /// chunk, an AVIF `nclx` box). false writes none, and so first converts the pixels to
    /// sRGB (what a viewer takes untagged pixels to be) whatever ``colorSpace`` says:
    /// stripping never changes how the picture looks.
    public var keepColorProfile = true
    /// Threads that deflate bands of one PNG at once; the bytes are the same for any number.
    public var threads = 1
    /// Write hexmask's mark, the word `hexmask` where every decoder ignores it (a PNG
    /// `Software` text chunk, a JPEG comment, a WebP chunk, an AVIF `free` box; the same
    /// bytes every time, nothing about the author). The `hexmask` command, unless told
    /// otherwise, replaces an existing output only when it carries the mark (or a rerun
    /// record vouches for it), and always writes it. false leaves it out, for bytes kept in
    /// memory, where nothing is ever replaced.
    public var mark = true

    public init() {}

    /// The format of the file written (``Kind/format``): a mask is a PNG.
    public var format: OutputFormat { kind.format }
    /// True when the shape's coverage is written instead of the picture (``Kind/mask(_:)``).
    public var maskOnly: Bool {
      if case .mask = kind { true } else { false }
    }
    /// The colour the picture is made opaque on (``Kind/background``).
    package var background: RGBAColor? { kind.background }

    /// JPEG, WebP and AVIF quality unless told otherwise.
    public static let defaultQuality = 90
    /// The qualities JPEG, lossy WebP and lossy AVIF accept, 1…100: libjpeg's scale (0 is
    /// not a quality there), and so WebP's too, so that one `quality` means the same for
    /// both; AVIF maps it onto its encoder's scale with a table.
    public static let qualityRange = 1...100
    /// AVIF's effort unless told otherwise, for an output `side` pixels wide: 4 (libaom's
    /// speed 5) up to ``largeEffortSide``, 3 (speed 6) above. Measured on photos, 4 gives
    /// avatars the SSIM of 5 at 0.4 % more bytes in 0.6–0.9 of its time; on larger pictures
    /// it takes 3–5 times as long as 3 for 2–4 % fewer bytes: seconds rather than a fraction
    /// of one (docs/web.md, "How the AVIF defaults were chosen").
    public static func defaultEffort(side: Int) -> Int { side <= largeEffortSide ? 4 : 3 }
    /// The largest side that gets the more thorough default effort.
    public static let largeEffortSide = 1024
    /// The efforts AVIF accepts: libaom's speeds 9 (effort 0) to 0 (effort 9).
    public static let effortRange = 0...9
    /// The numbers of colours a palette PNG may have.
    public static let colorsRange = 2...256
    /// The output sides a picture may have.
    public static let sizeRange = 1...65_500
  }

  /// How the input is read.
  public struct Input: Sendable, Equatable, Hashable {
    /// Largest `width × height` accepted, checked from the header before any pixel memory is
    /// allocated (sharp's default, a defence against decompression bombs); it also bounds
    /// the output's pixels.
    public var maxPixels = Self.defaultMaxPixels
    /// Turn the picture upright as its EXIF orientation says (as vipsthumbnail does).
    public var autoOrient = true
    /// Refuse inputs that decode only with warnings (a truncated JPEG, a dropped profile).
    public var strict = false
    /// Memory that whole-picture decoders (HEIF, AVIF, lossless or unscaled WebP) take
    /// their pixels from; share one among all renders of a batch. nil: no limit. It never
    /// changes the output, only when a render may run or whether it fits at all.
    public var memoryBudget: MemoryBudget? = nil
    /// Which frame of an animation (GIF, APNG, animated WebP) to cut, 0-based, as a still;
    /// nil cuts every frame where the output can move (WebP, and PNG without a palette),
    /// and the first frame, with a warning, where it cannot. A still is frame 0.
    public var frame: Int? = nil
    /// Most frames an animation may have; more is refused before they are decoded, where
    /// the file says how many (APNG, WebP), otherwise when the frame past the limit comes.
    public var maxFrames = Self.defaultMaxFrames

    public init() {}

    /// 16383 × 16383.
    public static let defaultMaxPixels = 268_402_689
    /// Longer than any animation a browser is asked to play for an avatar (a minute at 25
    /// frames a second is 1500).
    public static let defaultMaxFrames = 10_000
    /// How many times ``maxPixels`` an animation's frames may hold in all: the bound on the
    /// work (never the memory, which is one canvas) a file of many large frames can ask
    /// for. By default 4.3 billion pixels, as 4,000 frames of 1000 × 1000.
    public static let animationPixelsFactor = 16

    /// The most pixels an animation's frames may hold in all: ``maxPixels`` ×
    /// ``animationPixelsFactor``.
    public var maxAnimationPixels: Int {
      let (total, overflow) = maxPixels.multipliedReportingOverflow(by: Self.animationPixelsFactor)
      return overflow ? .max : total
    }

    /// Set by a render whose output is a still: it reads the frames up to its own only, so
    /// the frames a file holds beyond them are no work it does (``FrameChoice/readsAtMost``).
    var readsFewFrames = false
  }
}

extension HexMask {
  /// The colour space of the output's pixels (``Output/colorSpace``).
  public enum ColorSpace: String, Sendable, CaseIterable {
    /// The input's own numbers, with its ICC profile copied byte for byte.
    case keep
    /// Converted to sRGB through the input's profile with lcms2 (relative colorimetric
    /// intent with black point compensation, as libvips' default transform), so the
    /// output needs no profile. An input without a profile is sRGB already.
    case srgb
  }
}

extension HexMask {
  /// How the square is chosen from a non-square picture.
  public enum CropChoice: Equatable, Hashable, Sendable {
    /// A side, corner or the centre.
    case gravity(Gravity)
    /// Centred on this point (fractions 0…1 of the width and height) as far as it fits.
    case focus(x: Double, y: Double)
    /// Where the faces are: the square that keeps the most face area (whole heads, inside
    /// the shape) of the faces `FaceModel` finds on a small copy of the picture; a pet's
    /// face where there is no human one; ``attention`` where there is neither.
    case faces(FaceModel)
    /// Where the interest is: edges, saturated colour and skin tones, found on a small
    /// copy of the picture, as libvips' `attention` does.
    case attention
  }
}

extension HexMask {
  /// A length in output pixels, or as a percentage of the canvas side (`.percent(8)`), so one
  /// shape suits every output size.
  ///
  /// ```swift
  /// Length.percent(8).inPixels(canvasSide: 256)   // 20.48
  /// ```
  public enum Length: Equatable, Hashable, Sendable {
    case pixels(Double)
    case percent(Double)

    /// The length on a canvas of `canvasSide` pixels.
    public func inPixels(canvasSide: Double) -> Double {
      switch self {
      case .pixels(let value): value
      case .percent(let value): value / 100 * canvasSide
      }
    }
  }
}

extension HexMask {
  /// How the shape is placed on the canvas.
  public enum Layout: String, Sendable, CaseIterable {
    /// Tight bounding box of the curve centred in the canvas; the whole border shows.
    case centered
    /// Exactly the original UIKit code: control-point bounds at (w/2, w/2), border clipped
    /// by the mask.
    case seed
  }
}

/// `HexMask.CropChoice` by its short name inside the package.
package typealias CropChoice = HexMask.CropChoice

/// `HexMask.Length` by its short name inside the package.
package typealias Length = HexMask.Length

/// `HexMask.Layout` by its short name inside the package.
package typealias Layout = HexMask.Layout
