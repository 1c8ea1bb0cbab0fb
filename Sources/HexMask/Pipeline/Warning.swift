extension HexMask {
  /// A problem that did not stop the output, and what it cost: typed, so that a program
  /// can decide which it accepts (a server may refuse a damaged upload and accept a
  /// dropped colour profile), and worded in ``description`` for people.
  ///
  /// ```swift
  /// let rendered = try HexMask.render(upload)
  /// if rendered.warnings.contains(where: { $0.kind == .damagedInput }) { … }
  /// ```
  public struct Warning: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it was; programs rely on it, people read ``description``.
    public enum Kind: Equatable, Hashable, Sendable {
      /// The input's data is damaged, and the decoder filled in what it could not read
      /// (the rows a truncated JPEG lacks come out gray).
      case damagedInput
      /// A malformed colour profile or EXIF block of the input was left out: colours or
      /// orientation may be off.
      case metadataDropped
      /// The input holds several pictures or frames; only the primary one, or the first
      /// frame, was used.
      case otherPicturesIgnored
      /// The input is an animation, and the output (a format that cannot move) shows its
      /// first frame only.
      case firstFrameOnly
      /// The input's colour profile cannot describe the output's pixels, so the output
      /// was written without it.
      case profileNotWritten
      /// The input's colour profile could not be used to convert its colours (lcms2
      /// cannot read it, or it does not fit the pixels): they were left as they are.
      case profileUnusable
      /// The encoder reported a problem that did not stop it.
      case encoder
      /// The animation asks for more plays than the output format holds (an animated WebP
      /// plays at most 65535 times besides forever): it plays the most the format holds.
      case fewerPlays
      /// A frame of the animation lasts longer than the output format holds (an animated
      /// WebP's frame at most 16777215 ms): it lasts the longest the format holds.
      case shorterFrame
    }

    public let kind: Kind
    /// One line, lower case, no trailing period, as ``ImageError/reason`` is.
    public let description: String

    package init(_ kind: Kind, _ description: String) {
      self.kind = kind
      self.description = description
    }
  }
}

/// `HexMask.Warning` by its short name inside the package.
package typealias Warning = HexMask.Warning

extension HexMask.Warning.Kind {
  /// True for a warning about the input (how it read, its metadata, its colour), false for
  /// one about what the output's format cannot hold (an animation's frames or timing in a
  /// still or a WebP): strict mode refuses inputs that read only with warnings, never an
  /// output for being of the format asked for.
  var isAboutTheInput: Bool {
    switch self {
    case .damagedInput, .metadataDropped, .otherPicturesIgnored, .profileNotWritten,
      .profileUnusable, .encoder:
      true
    case .firstFrameOnly, .fewerPlays, .shorterFrame: false
    }
  }
}
