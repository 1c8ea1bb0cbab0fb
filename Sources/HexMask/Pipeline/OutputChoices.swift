/// The rule of which setting applies to which output kind, in one place: a command line or
/// a form gathers one `quality`, one `background`… before it knows the format of each
/// file, and ``HexMask/Output/Choices/kind(for:)`` makes the kind of one file from them.
extension HexMask.Output {
  /// Settings gathered before the format is known, each for whichever kinds use it, as the
  /// `hexmask` command gathers its options: one quality serves a batch's JPEGs and its
  /// WebPs alike.
  ///
  /// ```swift
  /// var choices = HexMask.Output.Choices()
  /// choices.quality = 80
  /// let (kind, unused) = try choices.kind(for: .png)   // .png(PNG()), [.quality]
  /// ```
  public struct Choices: Sendable, Equatable, Hashable {
    /// JPEG, lossy WebP and lossy AVIF quality; nil means ``HexMask/Output/defaultQuality``.
    public var quality: Int? = nil
    /// WebP and AVIF: lossless instead of lossy.
    public var lossless = false
    /// AVIF's effort; nil means ``HexMask/Output/defaultEffort(side:)``.
    public var effort: Int? = nil
    /// PNG and mask compression; nil means ``HexMask/PNGCompression/default``.
    public var compression: HexMask.PNGCompression? = nil
    /// A palette PNG (or mask) of at most this many colours.
    public var colors: Int? = nil
    /// With ``colors``: ordered dithering.
    public var dither = false
    /// Make the picture opaque on this colour (JPEG: white unless this says otherwise).
    public var background: HexMask.RGBAColor? = nil
    /// Write the mask instead of the picture.
    public var maskOnly = false

    /// No choice made: every kind's defaults.
    public init() {}

    /// The kind of a `format` file made from these choices, and the settings it does not
    /// use, which change nothing in it: `quality` for PNG, a mask or lossless WebP and
    /// AVIF; `lossless` but for WebP and AVIF; `effort` but for AVIF; `compression` but for
    /// PNG and masks; `dither` without `colors`; `background` for a mask. They are in
    /// ``Field``'s order.
    ///
    /// - Throws: what contradicts the kind of file itself, so that leaving it out would
    ///   make another kind of file than was asked for:
    ///   ``HexMask/OutputError/maskMustBePNG(_:)`` for a mask in another format,
    ///   ``HexMask/OutputError/backgroundNotOpaque(_:format:)`` for a JPEG on a background
    ///   that is not opaque, and ``HexMask/OutputError/unusedField(_:format:)`` for
    ///   `colors`, a palette, in JPEG, WebP or AVIF.
    public func kind(for format: HexMask.OutputFormat) throws(HexMask.OutputError)
      -> (kind: Kind, unused: [Field])
    {
      if maskOnly && format != .png { throw .maskMustBePNG(format) }
      let palette = colors.map { Palette(colors: $0, dither: dither) }
      let lossy = quality ?? HexMask.Output.defaultQuality
      let used: Set<Field>
      let kind: Kind
      switch format {
      case _ where maskOnly:
        kind = .mask(Mask(compression: compression ?? .default, palette: palette))
        used = [.compression, .colors, .dither]
      case .png:
        kind = .png(
          PNG(compression: compression ?? .default, palette: palette, background: background))
        used = [.compression, .colors, .dither, .background]
      case .jpeg:
        kind = .jpeg(JPEG(quality: lossy, background: background ?? .white))
        used = [.quality, .background]
      case .webp:
        kind = .webp(WebP(quality: lossless ? .lossless : .lossy(lossy), background: background))
        used = lossless ? [.lossless, .background] : [.quality, .lossless, .background]
      case .avif, .jxl:
        // The two formats with an effort take the same choices.
        let quality: Quality = lossless ? .lossless : .lossy(lossy)
        kind =
          format == .avif
          ? .avif(AVIF(quality: quality, effort: effort, background: background))
          : .jxl(JXL(quality: quality, effort: effort, background: background))
        used =
          lossless
          ? [.lossless, .effort, .background] : [.quality, .lossless, .effort, .background]
      }
      try kind.check()
      if colors != nil && !used.contains(.colors) { throw .unusedField(.colors, format: format) }
      let given: [Field: Bool] = [
        .quality: quality != nil, .lossless: lossless, .effort: effort != nil,
        .compression: compression != nil, .dither: dither && colors == nil,
        .background: background != nil,
      ]
      let unused = Field.allCases.filter { field in
        given[field] == true && (field == .dither || !used.contains(field))
      }
      return (kind, unused)
    }
  }
}
