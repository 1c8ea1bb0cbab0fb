extension HexMask {
  /// The kinds of file hexmask writes.
  ///
  /// ```swift
  /// OutputFormat(forPath: "avatar.webp")   // .webp
  /// ```
  public enum OutputFormat: String, CaseIterable, Sendable {
    case png, jpeg, webp, avif, jxl

    /// The format a file name asks for by its extension (case-insensitive); `nil` when the
    /// extension names none of them. A name without an extension, or `-`, means PNG.
    public init?(forPath path: String) {
      let name = path.split(separator: "/").last.map(String.init) ?? path
      guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
        self = .png
        return
      }
      self.init(fileExtension: String(name[name.index(after: dot)...]))
    }

    /// The format a file extension names, case-insensitively: `png`, `jpg` or `jpeg`, `webp`,
    /// `avif`, `jxl`.
    /// Every raw value is one, so a format's name can be spelled as its extension too.
    ///
    /// ```swift
    /// OutputFormat(fileExtension: "JPG")  // .jpeg
    /// ```
    public init?(fileExtension: String) {
      switch fileExtension.lowercased() {
      case "png": self = .png
      case "jpg", "jpeg": self = .jpeg
      case "webp": self = .webp
      case "avif": self = .avif
      case "jxl": self = .jxl
      default: return nil
      }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
      switch self {
      case .png: "png"
      case .jpeg: "jpg"
      case .webp: "webp"
      case .avif: "avif"
      case .jxl: "jxl"
      }
    }
  }
}

/// `HexMask.OutputFormat` by its short name inside the package.
package typealias OutputFormat = HexMask.OutputFormat
