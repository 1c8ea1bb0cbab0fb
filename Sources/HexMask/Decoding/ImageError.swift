/// Why a codec failed, in the codec's words, without the file name (callers know it).
///
/// ```swift
/// throw ImageError(.corrupt, "IDAT: incorrect data check")
/// ```
public struct ImageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The broad class of failure; programs can rely on it, people read `reason`.
  public enum Kind: Sendable, Equatable {
    case unreadable, unsupported, corrupt, tooLarge, writeFailed
  }
  public var kind: Kind
  /// One line, lower case, no trailing period.
  public var reason: String

  public init(_ kind: Kind, _ reason: String) {
    self.kind = kind
    self.reason = reason
  }

  public var description: String { reason }
}
