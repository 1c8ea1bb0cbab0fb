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
    /// A mask is asked for in `format`, but a mask is always a gray PNG
    /// (``Output/Choices/kind(for:)``, or ``renderMask(side:to:shape:output:input:)`` given
    /// another kind than PNG).
    case maskMustBePNG(OutputFormat)
    /// A `format` file (JPEG) has no transparency, so its background must be opaque; a
    /// translucent one would come out black.
    case backgroundNotOpaque(RGBAColor, format: OutputFormat)
    /// The field is set, but nothing in this output uses it, so a caller who set it is
    /// mistaken about what it gets: `size` in the multi-size calls and
    /// `renderMask(side:to:…)`, which take the sides from their own arguments; a
    /// background in the PNG given to `renderMask`, as a mask has none; `colors` in the
    /// ``Output/Choices`` of a JPEG, WebP or AVIF, which have no palette. `format` is the
    /// output's (`.png` for a mask).
    case unusedField(Output.Field, format: OutputFormat)
    /// ``Output/faceSize`` is set, but ``Output/crop`` is not ``CropChoice/faces(_:)``: only
    /// the faces crop finds a face to frame.
    case faceSizeWithoutFaces
  }
}

extension HexMask.Output {
  /// The settings an error or ``Choices/kind(for:)`` can name, spelled as ``Choices``'
  /// properties are (and `size`, as ``HexMask/Output/size``).
  public enum Field: String, Equatable, Hashable, Sendable, CaseIterable {
    case size, quality, lossless, effort, compression, colors, dither, background
  }
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
    case .backgroundNotOpaque(let color, let format):
      "a \(format.rawValue) output has no transparency, so its background must be opaque "
        + "(alpha 255), not of alpha \(color.alpha)"
    case .unusedField(.size, _):
      "Output.size is set, but this call takes the output sides from its own argument"
    case .unusedField(.background, _):
      "the PNG's background is set, but a mask has no background"
    case .unusedField(let field, let format):
      "Choices.\(field.rawValue) is set, but a \(format.rawValue) output does not use it"
    case .faceSizeWithoutFaces:
      "Output.faceSize frames the face that the faces crop finds, but Output.crop is another "
        + "crop; set Output.crop to .faces(model), or faceSize to nil"
    }
  }
}

/// `HexMask.OutputError` by its short name inside the package.
package typealias OutputError = HexMask.OutputError
