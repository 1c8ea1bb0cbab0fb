import HexMask

extension ImageFormat {
  /// The name people write the format with: PNG, JPEG, HEIC/HEIF, AVIF, WebP, GIF, JPEG XL. The one list
  /// of format names: messages, `--help` and the manual page all take them from here.
  var displayName: String {
    switch self {
    case .png: "PNG"
    case .jpeg: "JPEG"
    case .heif: "HEIC/HEIF"
    case .avif: "AVIF"
    case .webp: "WebP"
    case .gif: "GIF"
    case .jxl: "JPEG XL"
    }
  }

  /// Every format hexmask reads, by name, for a sentence: "PNG, JPEG, HEIC/HEIF, AVIF,
  /// WebP, GIF or JPEG XL".
  static var readableNames: String {
    let names = allCases.map(\.displayName)
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }
}

extension OutputFormat {
  /// The name of a format hexmask writes: its ``ImageFormat/displayName``.
  var displayName: String { imageFormat.displayName }

  /// Every extension an OUTPUT name may end in, for a sentence: ".png, .jpg, .jpeg, .webp,
  /// .avif or .jxl" (each format's, and `.jpeg` beside `.jpg`).
  static var nameExtensions: String {
    let names = allCases.flatMap { $0 == .jpeg ? ["jpg", "jpeg"] : [$0.fileExtension] }
      .map { "." + $0 }
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }

  /// "a PNG name", "an AVIF name": the name with the article a sentence needs.
  var aName: String { (self == .avif ? "an " : "a ") + displayName + " name" }

  /// The same format as one hexmask reads.
  var imageFormat: ImageFormat {
    switch self {
    case .png: .png
    case .jpeg: .jpeg
    case .webp: .webp
    case .avif: .avif
    case .jxl: .jxl
    }
  }
}
