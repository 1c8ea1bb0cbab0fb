/// Why one input could not be turned into an output, in words the user can act on.
///
/// The command line prints it as `hexmask: FILE: reason`. `isUsage` marks errors caused
/// by the options rather than the file (an oversized `--corner`), which exit with status 2.
///
/// ```swift
/// throw HexMaskError(file: "in.png", reason: "not a PNG or JPEG file")
/// ```
public struct HexMaskError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file the message is about, as the user spelled it.
  public var file: String
  /// One line, lower case, no trailing period.
  public var reason: String
  /// True when the options, not the file, are at fault.
  public var isUsage: Bool

  public init(file: String, reason: String, isUsage: Bool = false) {
    self.file = file
    self.reason = reason
    self.isUsage = isUsage
  }

  public var description: String { "\(file): \(reason)" }
}

/// Why a codec failed, without the file name (the pipeline adds it).
///
/// ```swift
/// throw ImageError(.corrupt, "IDAT: incorrect data check")
/// ```
public struct ImageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The broad class of failure; tests and scripts can rely on it, users read `reason`.
  public enum Kind: Sendable, Equatable {
    case unreadable, unsupported, corrupt, tooLarge, writeFailed
  }
  public var kind: Kind
  public var reason: String

  public init(_ kind: Kind, _ reason: String) {
    self.kind = kind
    self.reason = reason
  }

  public var description: String { reason }
}
