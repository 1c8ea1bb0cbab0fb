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
    /// For `.tooLarge`: the memory decoding needs and the ``HexMask/MemoryBudget`` limit it exceeds.
    public var memory: MemoryLimit?

    public init(
      _ kind: Kind, _ reason: String, pixels: PixelLimit? = nil, memory: MemoryLimit? = nil
    ) {
      self.kind = kind
      self.reason = reason
      self.pixels = pixels
      self.memory = memory
    }

    /// A picture's size against the pixel limit it exceeds.
    public struct PixelLimit: Equatable, Sendable {
      public var width: Int
      public var height: Int
      public var limit: Int
    }

    /// Bytes a picture needs to be decoded against the budget's whole limit.
    public struct MemoryLimit: Equatable, Sendable {
      public var needed: Int
      public var limit: Int
    }

    /// The error for a picture that needs more than the whole memory budget.
    static func memory(needed: Int, limit: Int) -> ImageError {
      ImageError(
        .tooLarge,
        "needs \(byteAmount(needed)) to decode, more than the memory limit of "
          + byteAmount(limit),
        memory: MemoryLimit(needed: needed, limit: limit))
    }

    public var description: String { reason }
  }
}

/// `HexMask.ImageError` by its short name inside the package.
package typealias ImageError = HexMask.ImageError

/// An amount of memory for people, in binary units named as such (1 KiB = 1024 bytes, the
/// units a memory limit is written in): `512 MiB`, `1.2 GiB`, `1.5 KiB`, `12 bytes`; one
/// decimal below 100 of a unit, none above.
package func byteAmount(_ bytes: Int) -> String {
  let units = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
  // 1023.9 MiB reads as 1 GiB: the unit is chosen after rounding.
  guard let (size, name) = units.first(where: { bytes >= $0.0 - $0.0 / 2048 }) else {
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
  // Rounded to the nearest in integers: no Double conversion to trap on.
  let (whole, rest) = bytes.quotientAndRemainder(dividingBy: size)
  if whole == 0 { return "1 \(name)" }
  if whole >= 100 { return "\(whole + (rest >= size - rest ? 1 : 0)) \(name)" }
  let tenths = whole * 10 + (rest * 10 + size / 2) / size
  return tenths % 10 == 0 ? "\(tenths / 10) \(name)" : "\(tenths / 10).\(tenths % 10) \(name)"
}
