import Foundation
import TestSupport
import Testing

/// README and docs/ as a reader meets them: every relative link leads somewhere, README stays
/// short with its two set-up commands near the top, and nothing in the tree sends the reader
/// to a tracker number or a document outside the repository.
@Suite struct DocumentationTests {
  /// README.md and every Markdown file of docs/, as paths from the package root.
  /// (README alone if docs/ cannot be listed, which the link check of README then reports.)
  static func pages() -> [String] {
    let docs =
      (try? FileManager.default.contentsOfDirectory(
        atPath: packageRoot.appendingPathComponent("docs").path)) ?? []
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
  }

  /// The targets of a page's Markdown links and images (`[text](target)`,
  /// `![alt](target)`) and HTML `src`/`href` attributes, outside code blocks and code spans.
  static func links(in text: String) throws -> [String] {
    let markdown = try Regex(#"\]\(([^)\s]+)\)"#)
    let html = try Regex(#"(?:src|href)="([^"]+)""#)
    var found: [String] = []
    var inCode = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") || line.hasPrefix("    ```") {
        inCode.toggle()
        continue
      }
      guard !inCode else { continue }
      // Code spans hold examples, not links.
      let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
      for match in prose.matches(of: markdown) + prose.matches(of: html) {
        if let target = match.output[1].substring { found.append(String(target)) }
      }
    }
    return found
  }

  /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
  static func anchor(_ heading: Substring) -> String {
    let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
    return String(
      title.compactMap { character -> Character? in
        if character == " " { return "-" }
        if character.isLetter || character.isNumber || character == "-" || character == "_" {
          return character
        }
        return nil
      })
  }

  /// The anchors of a Markdown file's headings, code blocks left out.
  static func anchors(in text: String) -> Set<String> {
    var result: Set<String> = []
    var inCode = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inCode.toggle() }
      if !inCode && line.hasPrefix("#") { result.insert(anchor(line)) }
    }
    return result
  }

  @Test(arguments: pages())
  func everyRelativeLinkNamesAFileOfTheRepository(page: String) throws {
    let pageURL = packageRoot.appendingPathComponent(page)
    let text = try String(contentsOf: pageURL, encoding: .utf8)
    let links = try Self.links(in: text)
    #expect(!links.isEmpty || page != "README.md", "no links found in README.md")
    for link in links where !link.contains("://") && !link.hasPrefix("mailto:") {
      let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      let path = String(parts[0])
      let target =
        path.isEmpty ? pageURL : pageURL.deletingLastPathComponent().appendingPathComponent(path)
      let exists = FileManager.default.fileExists(atPath: target.path)
      #expect(exists, "\(page) links to \(link), which does not exist")
      guard exists, parts.count == 2, target.pathExtension == "md" else { continue }
      let anchors = Self.anchors(in: try String(contentsOf: target, encoding: .utf8))
      #expect(
        anchors.contains(String(parts[1])),
        "\(page) links to \(link), but that page has no such heading")
    }
  }

  /// The brief for README: at most 400 lines, and the two set-up commands, one that runs the
  /// main job on a bundled photo and one that runs the tests, within its first 60 lines.
  @Test func readmeIsShortAndShowsTheSetUpCommandsEarly() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= 401, "README.md has \(lines.count) lines; docs/ is the place for more")
    let top = lines.prefix(60)
    #expect(
      top.contains { $0.hasPrefix("make demo ") }, "make demo is not in README's first 60 lines")
    #expect(
      top.contains { $0.hasPrefix("make test ") }, "make test is not in README's first 60 lines")
  }

  /// design.md's map of the code ("How the code is arranged") names every folder of the
  /// library and the command, in backticks as its path or its name, so that a folder added
  /// without its sentence there fails here.
  @Test func theDesignMapNamesEveryFolderOfTheLibraryAndTheCommand() throws {
    let design = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/design.md"), encoding: .utf8)
    let after = try #require(
      design.components(separatedBy: "## How the code is arranged").dropFirst().first,
      "docs/design.md has no section \"How the code is arranged\"")
    let map = after.components(separatedBy: "\n## ").first ?? after
    let fileManager = FileManager.default
    var folders: [String] = []
    for target in ["Sources/HexMask", "Sources/HexMaskCLI"] {
      let base = packageRoot.appendingPathComponent(target)
      for path in try #require(fileManager.subpaths(atPath: base.path)) {
        var isFolder: ObjCBool = false
        guard
          fileManager.fileExists(
            atPath: base.appendingPathComponent(path).path, isDirectory: &isFolder),
          isFolder.boolValue
        else { continue }
        folders.append("\(target)/\(path)")
      }
    }
    // Both targets have folders: the listing found them.
    #expect(folders.count > 15, "only \(folders.count) folders found")
    let unnamed = folders.filter { folder in
      let name = folder.split(separator: "/").last.map(String.init) ?? folder
      return !map.contains("`\(folder)`") && !map.contains("`\(name)`")
    }
    let list = unnamed.joined(separator: "\n")
    #expect(
      unnamed.isEmpty, "docs/design.md, \"How the code is arranged\", does not name:\n\(list)")
  }

  /// Code, scripts and documents say what the behaviour is and cite the repository's own
  /// documents: a reader cannot look up a tracker number or a specification kept elsewhere
  /// (a specification cited by section or by §, which no folder of the tree holds).
  @Test func noFileOfTheTreeCitesAnIssueNumberOrAnOutsideSpecification() throws {
    // A whole word: ASPECT and SPECIAL are no citation.
    let citations = [try Regex("[Ii]ssues? #?[0-9]"), try Regex(#"\bSPEC\b"#)]
    let fileManager = FileManager.default
    var files = ["README.md", "Makefile", "Package.swift"]
    for folder in [".ci", "bench", "docs", "packaging", "scripts", "Sources", "Tests", "Fixtures"] {
      let paths = try #require(
        fileManager.subpaths(atPath: packageRoot.appendingPathComponent(folder).path))
      // Of the fixtures only the manifests are text written for readers.
      files += paths.filter { folder != "Fixtures" || $0.hasSuffix("MANIFEST.txt") }
        .map { "\(folder)/\($0)" }
    }
    var scanned = 0
    var found: [String] = []
    for file in files {
      // Pictures and other binary files are not read as text; folders are not files.
      guard
        let text = try? String(
          contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
      else { continue }
      scanned += 1
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where !line.contains("Regex(") && citations.contains(where: { line.contains($0) }) {
        found.append("\(file):\(number + 1): \(line)")
      }
    }
    #expect(scanned > 300, "only \(scanned) text files read")
    #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
  }
}
