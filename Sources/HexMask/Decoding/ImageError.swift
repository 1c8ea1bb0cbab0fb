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
    /// For `.tooLarge`: the animation limit an animated input exceeds.
    public var animation: AnimationLimit?

    public init(
      _ kind: Kind, _ reason: String, pixels: PixelLimit? = nil, memory: MemoryLimit? = nil,
      animation: AnimationLimit? = nil
    ) {
      self.kind = kind
      self.reason = reason
      self.pixels = pixels
      self.memory = memory
      self.animation = animation
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

    /// Which limit of ``HexMask/Input`` an animation exceeds, and its value: the frame
    /// readers all stop at the same two, so that a caller can name the setting to change.
    public enum AnimationLimit: Equatable, Sendable {
      /// More frames than ``HexMask/Input/maxFrames``.
      case frames(limit: Int)
      /// More pixels in all frames together than ``HexMask/Input/maxAnimationPixels``.
      case pixelsInAll(limit: Int)
    }

    /// The error for an animation of more frames than `limit`. The GIF reader stops at the
    /// frame past the limit without counting the rest, so no reader says how many there are.
    static func tooManyFrames(limit: Int) -> ImageError {
      ImageError(
        .tooLarge, "more frames than the limit of \(limit)", animation: .frames(limit: limit))
    }

    /// The error for a still of frame `frame` (0-based) when only `limit` frames may be read:
    /// whether the file has that frame is not the question.
    static func frameBeyondLimit(_ frame: Int, limit: Int) -> ImageError {
      ImageError(
        .tooLarge,
        "frame \(frame) is past the limit of \(limit) frame\(limit == 1 ? "" : "s") (the first is 0)",
        animation: .frames(limit: limit))
    }

    /// The error for an animation whose `frames` frames of a `width`×`height` canvas hold more
    /// pixels in all than `limit`. It names the first frame count over the limit, whatever
    /// told the reader (a GIF's walk stops there; a header says every frame), so every
    /// format and every path words one file alike.
    static func tooManyPixelsInAll(frames: Int, width: Int, height: Int, limit: Int)
      -> ImageError
    {
      let canvas = width * height
      let frames = canvas > 0 && limit >= 0 ? min(frames, limit / canvas + 1) : frames
      return ImageError(
        .tooLarge,
        "\(frames) frame\(frames == 1 ? "" : "s") of \(width)×\(height) "
          + "\(frames == 1 ? "is" : "are") more than the limit of \(limit) pixels over all frames",
        animation: .pixelsInAll(limit: limit))
    }

    /// The error for a picture that needs more than the whole memory budget.
    static func memory(needed: Int, limit: Int, purpose: String = "to decode") -> ImageError {
      let amounts = neededAndLimit(needed, limit)
      return ImageError(
        .tooLarge,
        "needs \(amounts.needed) \(purpose), more than the memory limit of \(amounts.limit)",
        memory: MemoryLimit(needed: needed, limit: limit))
    }

    public var description: String { reason }
  }
}

/// `HexMask.ImageError` by its short name inside the package.
package typealias ImageError = HexMask.ImageError

/// `needed` and `limit` as a refusal says them: rounded (``byteAmount(_:)``), or in bytes
/// when rounding would make them read the same ("needs 12.3 MiB, more than 12.3 MiB").
package func neededAndLimit(_ needed: Int, _ limit: Int) -> (needed: String, limit: String) {
  let rounded = (byteAmount(needed), byteAmount(limit))
  return rounded.0 == rounded.1 ? ("\(needed) bytes", "\(limit) bytes") : rounded
}

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
