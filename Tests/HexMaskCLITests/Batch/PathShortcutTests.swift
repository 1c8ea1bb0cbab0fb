import Testing

@testable import HexMaskCLI

/// The planning shortcuts for clean paths give what the general rule gives, for every
/// path made of up to four tricky components.
@Suite struct PathShortcutTests {
  static let parts = ["a", ".", "..", "", "b.c", "...", ".x", "x."]

  /// Every path of one to four parts joined by `/`, with and without a leading `/`.
  static var paths: [String] {
    var paths: [[String]] = parts.map { [$0] }
    for _ in 1..<4 {
      paths += paths.filter { $0.count == paths.map(\.count).max() }.flatMap { path in
        parts.map { path + [$0] }
      }
    }
    let joined = paths.map { $0.joined(separator: "/") }
    return joined + joined.map { "/" + $0 }
  }

  /// `mirrored` as it was written before the shortcut: split, drop the file, check, join.
  static func mirroredByComponents(_ path: String) -> String? {
    let parts = path.split(separator: "/").dropLast().filter { $0 != "." }
    guard !parts.contains("..") else { return nil }
    return parts.joined(separator: "/")
  }

  @Test func plainPathsAreExactlyThoseWithOnlyNames() {
    for path in Self.paths {
      let components = path.split(separator: "/", omittingEmptySubsequences: false)
      let plain = components.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
      #expect(isPlainRelativePath(path) == plain, "\(path)")
    }
  }

  @Test func mirroredAgreesWithTheComponentRule() {
    for path in Self.paths {
      #expect(mirrored(path) == Self.mirroredByComponents(path), "\(path)")
    }
  }

  @Test func outputPathsAgreeWithTheComponentRule() throws {
    let template = try NameTemplate(parsing: "{dir}/{name}.png")
    for folder in Self.paths {
      let input = BatchInput(path: "x/photo.jpg", folder: folder)
      let components = (folder + "/photo.png").split(separator: "/").filter { $0 != "." }
      let expected =
        components.contains("..") ? nil : components.joined(separator: "/")
      #expect(template.outputPath(for: input) == expected, "\(folder)")
    }
  }
}
