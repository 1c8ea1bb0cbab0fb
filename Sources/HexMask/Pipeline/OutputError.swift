extension HexMask {
  /// An output that cannot be made as ``Output`` asks, found before anything is written:
  /// too large for the pixel limit or the format, or asking for something that means
  /// nothing for it. The field at fault is always one of ``Output``'s (or the pixel limit
  /// of ``Input``), never the input picture.
  public enum OutputError: Swift.Error, Equatable, Sendable {
    /// A `side × side` output would have more pixels than `limit` (``Input/maxPixels``).
    case tooManyPixels(side: Int, limit: Int)
    /// A `side × side` output is larger than `format` can hold (`maximumSide`).
    case tooLargeForFormat(side: Int, format: OutputFormat, maximumSide: Int)
    /// ``Output/maskOnly`` is set, but a mask is always a gray PNG: it cannot be written
    /// as `format`.
    case maskMustBePNG(OutputFormat)
    /// The field is set, but nothing in this output uses it, so a caller who set it is
    /// mistaken about what it gets: `quality` for PNG, a mask or lossless WebP or
    /// AVIF; `lossless` for anything but WebP and AVIF; `effort` for anything but AVIF; `compression` and `colors` for
    /// JPEG, WebP and AVIF; `dither` without `colors`; `background`
    /// for a mask; `size` in the multi-size calls and `renderMask(side:to:…)`,
    /// which take the sides from their own arguments. `format` is the output's (`.png` for a mask).
    case unusedField(Output.Field, format: OutputFormat)
  }
}

extension HexMask.Output {
  /// The fields of ``HexMask/Output`` an error can name, spelled as the properties are.
  public enum Field: String, Equatable, Hashable, Sendable, CaseIterable {
    case size, quality, lossless, effort, compression, colors, dither, background
  }

  /// The first field that is set but unused by this output, or nil. A mask (whatever
  /// ``format`` says, which ``HexMask/OutputError/maskMustBePNG(_:)`` checks) is a PNG.
  package func unusedField() -> Field? {
    let png = maskOnly || format == .png
    let lossy = !png && (format == .jpeg || lossless != true)
    if quality != nil && !lossy { return .quality }
    if lossless != nil && (maskOnly || (format != .webp && format != .avif)) { return .lossless }
    if effort != nil && (maskOnly || format != .avif) { return .effort }
    if compression != nil && !png { return .compression }
    if colors != nil && !png { return .colors }
    if dither && (colors == nil || !png) { return .dither }
    if background != nil && maskOnly { return .background }
    return nil
  }

  /// The format the output is written in: a mask is a PNG.
  var writtenFormat: HexMask.OutputFormat { maskOnly ? .png : format }
}

extension HexMask.OutputError: CustomStringConvertible {
  /// What cannot be made, in plain words.
  public var description: String {
    switch self {
    case .tooManyPixels(let side, let limit):
      "a \(side)×\(side) output has more pixels than the limit of \(limit)"
    case .tooLargeForFormat(let side, let format, let maximum):
      "a \(format.rawValue) output can be at most \(maximum) pixels a side, not \(side)"
    case .maskMustBePNG(let format): "a mask is a gray PNG; it cannot be \(format.rawValue)"
    case .unusedField(.size, _):
      "Output.size is set, but this call takes the output sides from its own argument"
    case .unusedField(.background, _):
      "Output.background is set, but a mask has no background"
    case .unusedField(.dither, .png):
      "Output.dither is set, but only a palette PNG (Output.colors) is dithered"
    case .unusedField(.quality, let format) where format == .webp || format == .avif:
      "Output.quality is set, but a lossless \(format.rawValue) output does not use it"
    case .unusedField(let field, let format):
      "Output.\(field.rawValue) is set, but a \(format.rawValue) output does not use it"
    }
  }
}

/// `HexMask.OutputError` by its short name inside the package.
package typealias OutputError = HexMask.OutputError
