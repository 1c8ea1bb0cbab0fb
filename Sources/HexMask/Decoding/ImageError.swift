extension HexMask {
  /// Why a codec failed, in the codec's words, without the file name (callers know it).
  ///
  /// ```swift
  /// throw ImageError(.corrupt, "IDAT: incorrect data check")
  /// ```
  public struct ImageError: Swift.Error, Equatable, Sendable, CustomStringConvertible {
    /// The broad class of failure; programs can rely on it, people read `reason`.
    public enum Kind: Sendable, Equatable {
      case unreadable, unsupported, corrupt, tooLarge, writeFailed
    }
    public var kind: Kind
    /// One line, lower case, no trailing period.
    public var reason: String
    /// For `.tooLarge`: the picture's size and the limit it exceeds.
    public var pixels: PixelLimit?

    public init(_ kind: Kind, _ reason: String, pixels: PixelLimit? = nil) {
      self.kind = kind
      self.reason = reason
      self.pixels = pixels
    }

    /// A picture's size against the pixel limit it exceeds.
    public struct PixelLimit: Equatable, Sendable {
      public var width: Int
      public var height: Int
      public var limit: Int
    }

    public var description: String { reason }
  }
}

/// `HexMask.ImageError` by its short name inside the package.
package typealias ImageError = HexMask.ImageError
