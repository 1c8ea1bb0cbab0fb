/// What an output is written as, each kind with the settings it uses and no others: a
/// quality for PNG or a palette for JPEG cannot be written down, so it cannot be
/// mistaken for a choice. The defaults are the types' initial values; the one default that
/// depends on the output, AVIF's effort, is resolved by ``HexMask/Output/AVIF/effort(side:)``.
extension HexMask.Output {
  /// What is written, with its settings.
  ///
  /// ```swift
  /// output.kind = .webp(.init(quality: .lossless))
  /// output.kind = .png(.init(palette: .init(colors: 64, dither: true)))
  /// output.kind = .jpeg(.init(quality: 80, background: .black))
  /// ```
  public enum Kind: Sendable, Equatable, Hashable {
    /// A PNG with transparency (or opaque on a background).
    case png(PNG)
    /// A JPEG: always opaque, on its background.
    case jpeg(JPEG)
    /// A lossy or lossless WebP.
    case webp(WebP)
    /// A lossy or lossless AVIF.
    case avif(AVIF)
    /// A lossy or lossless JPEG XL.
    case jxl(JXL)
    /// The shape's 8-bit coverage (fill and border) as a gray PNG instead of the picture.
    case mask(Mask)

    /// `format` with its default settings: `Kind(.jpeg)` is `.jpeg(JPEG())`.
    public init(_ format: HexMask.OutputFormat) {
      switch format {
      case .png: self = .png(PNG())
      case .jpeg: self = .jpeg(JPEG())
      case .webp: self = .webp(WebP())
      case .avif: self = .avif(AVIF())
      case .jxl: self = .jxl(JXL())
      }
    }

    /// The format of the file written: a mask is a PNG.
    public var format: HexMask.OutputFormat {
      switch self {
      case .png, .mask: .png
      case .jpeg: .jpeg
      case .webp: .webp
      case .avif: .avif
      case .jxl: .jxl
      }
    }

    /// The colour the picture is made opaque on: always one for JPEG, none for a mask.
    public var background: HexMask.RGBAColor? {
      switch self {
      case .png(let png): png.background
      case .jpeg(let jpeg): jpeg.background
      case .webp(let webp): webp.background
      case .avif(let avif): avif.background
      case .jxl(let jxl): jxl.background
      case .mask: nil
      }
    }

    /// The same kind with its background (where it has one) turned by `change`: the render
    /// writes it in the numbers of the output's colour space.
    package func changingBackground(_ change: (HexMask.RGBAColor) -> HexMask.RGBAColor) -> Self {
      switch self {
      case .png(var png):
        png.background = png.background.map(change)
        return .png(png)
      case .jpeg(var jpeg):
        jpeg.background = change(jpeg.background)
        return .jpeg(jpeg)
      case .webp(var webp):
        webp.background = webp.background.map(change)
        return .webp(webp)
      case .avif(var avif):
        avif.background = avif.background.map(change)
        return .avif(avif)
      case .jxl(var jxl):
        jxl.background = jxl.background.map(change)
        return .jxl(jxl)
      case .mask: return self
      }
    }

    /// Refuses what the settings' types cannot rule out: a JPEG background that is not
    /// opaque, which a file with no transparency cannot show (it would come out black).
    public func check() throws(HexMask.OutputError) {
      if case .jpeg(let jpeg) = self, jpeg.background.alpha < 255 {
        throw .backgroundNotOpaque(jpeg.background, format: .jpeg)
      }
    }
  }

  /// JPEG, lossy WebP and lossy AVIF's quality, or lossless.
  public enum Quality: Sendable, Equatable, Hashable {
    /// Lossy at this quality, in ``HexMask/Output/qualityRange``.
    case lossy(Int)
    /// Every pixel kept exactly.
    case lossless
  }

  /// A palette PNG's colours: chosen for the picture in premultiplied colour (for a mask,
  /// a gray palette of the coverage levels); its rows are unfiltered and deflated at the
  /// compression's ``HexMask/PNGCompression/paletteLevel``.
  public struct Palette: Sendable, Equatable, Hashable {
    /// At most this many colours, in ``HexMask/Output/colorsRange``.
    public var colors: Int
    /// Ordered (Bayer) dithering, so gradients mix entries instead of banding; the bytes
    /// stay the same for any number of threads.
    public var dither: Bool

    /// These settings; each left out is its default.
    public init(colors: Int, dither: Bool = false) {
      self.colors = colors
      self.dither = dither
    }
  }

  /// A PNG's settings.
  public struct PNG: Sendable, Equatable, Hashable {
    /// Filter and zlib settings; the default beats vips' `pngsave` on time and size.
    public var compression: HexMask.PNGCompression
    /// A palette PNG of at most so many colours; nil writes every pixel as it is (RGBA).
    public var palette: Palette?
    /// Make the picture opaque on this colour; nil keeps the transparency.
    public var background: HexMask.RGBAColor?

    /// These settings; each left out is its default.
    public init(
      compression: HexMask.PNGCompression = .default, palette: Palette? = nil,
      background: HexMask.RGBAColor? = nil
    ) {
      self.compression = compression
      self.palette = palette
      self.background = background
    }
  }

  /// A JPEG's settings.
  public struct JPEG: Sendable, Equatable, Hashable {
    /// The quality, in ``HexMask/Output/qualityRange``.
    public var quality: Int
    /// The colour the picture is made opaque on: a JPEG has no transparency. It must be
    /// opaque itself, or the render throws ``HexMask/OutputError/backgroundNotOpaque(_:format:)``.
    public var background: HexMask.RGBAColor

    /// These settings; each left out is its default.
    public init(
      quality: Int = HexMask.Output.defaultQuality, background: HexMask.RGBAColor = .white
    ) {
      self.quality = quality
      self.background = background
    }
  }

  /// A WebP's settings.
  public struct WebP: Sendable, Equatable, Hashable {
    /// Lossy at a quality, or lossless.
    public var quality: Quality
    /// Make the picture opaque on this colour; nil keeps the transparency.
    public var background: HexMask.RGBAColor?

    /// These settings; each left out is its default.
    public init(
      quality: Quality = .lossy(HexMask.Output.defaultQuality), background: HexMask.RGBAColor? = nil
    ) {
      self.quality = quality
      self.background = background
    }
  }

  /// An AVIF's settings.
  public struct AVIF: Sendable, Equatable, Hashable {
    /// Lossy at a quality, or lossless.
    public var quality: Quality
    /// How hard the AV1 encoder works, 0 (fastest) … 9 (smallest file), as libvips' and
    /// sharp's `effort`, in ``HexMask/Output/effortRange``; nil means
    /// ``HexMask/Output/defaultEffort(side:)`` for the output's side.
    public var effort: Int?
    /// Make the picture opaque on this colour; nil keeps the transparency.
    public var background: HexMask.RGBAColor?

    /// These settings; each left out is its default.
    public init(
      quality: Quality = .lossy(HexMask.Output.defaultQuality), effort: Int? = nil,
      background: HexMask.RGBAColor? = nil
    ) {
      self.quality = quality
      self.effort = effort
      self.background = background
    }

    /// The effort an output `side` pixels wide is encoded with: ``effort``, or its default
    /// for that side. The writer and the command's rerun record both read it.
    public func effort(side: Int) -> Int { effort ?? HexMask.Output.defaultEffort(side: side) }
  }

  /// A JPEG XL's settings.
  public struct JXL: Sendable, Equatable, Hashable {
    /// Lossy at a quality (cjxl's `-q` scale: 90 is distance 1), or lossless.
    public var quality: Quality
    /// How hard libjxl works, 0 (fastest) … 9 (smallest file), in
    /// ``HexMask/Output/effortRange``: libjxl's effort 1…9, 0 being 1; nil is libjxl's
    /// default, 7.
    public var effort: Int?
    /// Make the picture opaque on this colour; nil keeps the transparency.
    public var background: HexMask.RGBAColor?

    /// These settings; each left out is its default.
    public init(
      quality: Quality = .lossy(HexMask.Output.defaultQuality), effort: Int? = nil,
      background: HexMask.RGBAColor? = nil
    ) {
      self.quality = quality
      self.effort = effort
      self.background = background
    }
  }

  /// A mask's settings: it is a gray PNG, with no background.
  public struct Mask: Sendable, Equatable, Hashable {
    /// Filter and zlib settings.
    public var compression: HexMask.PNGCompression
    /// A gray palette of at most so many coverage levels; nil writes every level.
    public var palette: Palette?

    /// These settings; each left out is its default.
    public init(compression: HexMask.PNGCompression = .default, palette: Palette? = nil) {
      self.compression = compression
      self.palette = palette
    }
  }
}
