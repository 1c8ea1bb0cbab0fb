import HexMask

/// How an output file is named from its input: text with the placeholders `{name}` (the
/// input's file name without its extension), `{ext}` (the extension, without the dot),
/// `{dir}` (the input's subfolder, mirrored with `-r`) and `{size}` (the output's `--size`).
///
/// ```swift
/// let template = try NameTemplate(parsing: "{dir}/{name}-hex.png")
/// template.outputPath(for: BatchInput(path: "photos/2024/a.jpg", folder: "2024"))
/// // "2024/a-hex.png"
/// ```
struct NameTemplate: Equatable, Sendable {
  /// The template as written.
  let text: String
  private let parts: [Part]

  private enum Part: Equatable, Sendable {
    case literal(String)
    case name, ext, dir, size
  }

  /// The default: `{dir}/{name}.png`, where `{dir}` is empty unless inputs are mirrored.
  static let standard = standard(extension: "png")

  /// The default for another output format: `{dir}/{name}.jpg`, `{dir}/{name}.webp`; with
  /// `sized`, for several sizes: `{dir}/{name}-{size}.png`.
  static func standard(extension ext: String, sized: Bool = false) -> NameTemplate {
    sized
      ? NameTemplate(
        text: "{dir}/{name}-{size}.\(ext)",
        parts: [.dir, .literal("/"), .name, .literal("-"), .size, .literal(".\(ext)")])
      : NameTemplate(
        text: "{dir}/{name}.\(ext)", parts: [.dir, .literal("/"), .name, .literal(".\(ext)")])
  }

  private init(text: String, parts: [Part]) {
    self.text = text
    self.parts = parts
  }

  /// Reads a template; it must name a relative path inside the output folder.
  ///
  /// - Throws: a one-line reason for an unknown placeholder, an unclosed `{`, an absolute path
  ///   or a `..` component.
  init(parsing text: String) throws(NameTemplateError) {
    var parts: [Part] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
      if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
      guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
        throw NameTemplateError(reason: "unbalanced '{' or '}'")
      }
      switch rest[rest.index(after: open)..<close] {
      case "name": parts.append(.name)
      case "ext": parts.append(.ext)
      case "dir": parts.append(.dir)
      case "size": parts.append(.size)
      case let other:
        throw NameTemplateError(
          reason: "unknown placeholder '{\(other)}' (use {name}, {ext}, {dir} or {size})")
      }
      rest = rest[rest.index(after: close)...]
    }
    if !rest.isEmpty { parts.append(.literal(String(rest))) }
    guard !text.hasPrefix("/") else {
      throw NameTemplateError(reason: "must be a path inside the output folder, not absolute")
    }
    guard !text.split(separator: "/").contains("..") else {
      throw NameTemplateError(reason: "must stay inside the output folder (no '..')")
    }
    guard parts.contains(where: { $0 != .dir && $0 != .literal("/") }) else {
      throw NameTemplateError(reason: "names no file")
    }
    // Every output would be a folder's name, and each file would fail in turn.
    guard !text.hasSuffix("/") else {
      throw NameTemplateError(reason: "ends with '/', so it names a folder, not a file")
    }
    self.init(text: text, parts: parts)
  }

  /// The extension every output name ends with when the template fixes it (`{name}.jpg`:
  /// `jpg`); nil when a placeholder may decide it (`{name}.{ext}`, `{name}`).
  var literalExtension: String? {
    guard case .literal(let text)? = parts.last else { return nil }
    let tail = lastComponent(of: text)
    guard let dot = tail.lastIndex(of: ".") else { return nil }
    return String(tail[tail.index(after: dot)...])
  }

  /// The output path for `input` at `size` (which `{size}` shows; nil leaves it empty),
  /// relative to the output folder, with empty and `.` components removed; nil when it
  /// cannot be made (`{dir}` of an input that climbs with `..`, or a file name that is
  /// empty or `..`).
  func outputPath(for input: BatchInput, size: Int? = nil) -> String? {
    let fileName = lastComponent(of: input.path)
    let dot = fileName.utf8.lastIndex(of: UInt8(ascii: ".")).flatMap {
      $0 > fileName.startIndex ? $0 : nil
    }
    let stem = dot.map { fileName[..<$0] } ?? fileName
    let ext = dot.map { fileName[fileName.index(after: $0)...] } ?? ""
    var path = ""
    for part in parts {
      switch part {
      case .literal(let text): path += text
      case .name: path += stem
      case .ext: path += ext
      case .size: path += size.map(String.init) ?? ""
      case .dir:
        guard let folder = input.folder else { return nil }
        path += folder
      }
    }
    // Most paths are clean already; only the others are put together again.
    if isPlainRelativePath(path) { return path }
    let components = path.split(separator: "/")
    guard !components.isEmpty, !components.contains(".."), !path.hasSuffix("/") else {
      return nil
    }
    let kept = components.filter { $0 != "." }
    return kept.isEmpty ? nil : kept.joined(separator: "/")
  }
}

/// The last component of `path` (`photos/a.jpg` → `a.jpg`); the whole path when it has no
/// `/`, an empty one when it ends with `/`.
func lastComponent(of path: String) -> Substring {
  guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path[...] }
  return path[path.index(after: slash)...]
}

/// Why a `--name` template was refused.
struct NameTemplateError: Error, Equatable, Sendable {
  /// One line, lower case.
  var reason: String
}
