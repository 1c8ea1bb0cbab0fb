import Foundation
import TestSupport
import Testing

/// Traps that user input or an OS error could reach have no place in hexmask's own code:
/// every failure there is a message and an exit status. A full disk once
/// crashed `--help` through a forced `try` inside Foundation's `FileHandle.write(_:)`.
@Suite struct SourceAuditTests {
  /// The targets that make up the `hexmask` command (the benchmark tools are not shipped).
  static let folders = ["Sources/HexMask", "Sources/HexMaskCLI", "Sources/hexmask"]
  /// Spellings that stop the process instead of reporting: a forced `try`, a deliberate
  /// crash, and a forced cast.
  static let traps = ["try!", "fatalError(", "as!"]

  @Test func noForcedTryFatalErrorOrForcedCastInTheCommandsSources() throws {
    let root = packageRoot
    var scanned = 0
    var found: [String] = []
    for folder in Self.folders {
      let base = root.appendingPathComponent(folder)
      let files = try #require(FileManager.default.subpaths(atPath: base.path))
      for file in files where file.hasSuffix(".swift") {
        let text = try String(
          contentsOf: base.appendingPathComponent(file), encoding: .utf8)
        scanned += 1
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated()
        where Self.traps.contains(where: { line.contains($0) }) {
          found.append("\(folder)/\(file):\(number + 1): \(line)")
        }
      }
    }
    #expect(scanned > 40, "only \(scanned) Swift files found under \(Self.folders)")
    #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
  }

  /// Foundation brings ICU's data into a static binary: 59 MB stripped with it, under 10 MB
  /// without. The command's targets use the C library and the standard library
  /// instead; FoundationEssentials, which has no ICU, would do if ever needed.
  @Test func theCommandsSourcesDoNotImportFoundation() throws {
    var found: [String] = []
    for folder in Self.folders {
      let base = packageRoot.appendingPathComponent(folder)
      let files = try #require(FileManager.default.subpaths(atPath: base.path))
      for file in files where file.hasSuffix(".swift") {
        let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
        for line in text.split(separator: "\n")
        where line.split(separator: " ").starts(with: ["import", "Foundation"]) {
          found.append("\(folder)/\(file): \(line)")
        }
      }
    }
    #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
  }

  /// A `precondition` traps in release builds too, and a server hosting the library dies
  /// with it: Sources/HexMask has none (nor `preconditionFailure` or `fatalError`); an
  /// invariant of its own is a guard that makes the value well-formed or a thrown error.
  /// (`assert` is compiled out of release builds and stays allowed.)
  @Test func theLibraryHasNoTrap() throws {
    let base = packageRoot.appendingPathComponent("Sources/HexMask")
    func traps(_ line: Substring) -> Bool {
      let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
      return ["precondition(", "preconditionFailure(", "fatalError("].contains {
        code.contains($0)
      }
    }
    // The check would see one: a planted line is found, a comment naming one is not.
    #expect(traps("    precondition(hasRoom)") && !traps("  /// see precondition(x)"))
    var scanned = 0
    var found: [String] = []
    let files = try #require(FileManager.default.subpaths(atPath: base.path))
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
      scanned += 1
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      for (number, line) in lines.enumerated() where traps(line) {
        found.append("\(file):\(number + 1): \(line)")
      }
    }
    #expect(scanned > 40)
    #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
  }

  /// Code and tests say what the behaviour is, not which tracker issue asked for it: a
  /// reader of the repository cannot look a tracker number up.
  @Test func noSourceCitesAnIssueNumber() throws {
    let citation = try Regex("[Ii]ssue [0-9]")
    let (scanned, found) = try linesMatching(in: ["Sources", "Tests"]) {
      $0.contains(citation) && !$0.contains("Regex(")
    }
    #expect(scanned > 200)
    #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
  }

  /// The library speaks in values, not in the command line's words: no `--option` anywhere
  /// in its code, messages or documentation. Only the CLI names flags.
  @Test func theLibraryNamesNoCommandLineOptions() throws {
    let option = try Regex("--[a-z][a-z-]+")
    let (scanned, found) = try linesMatching(in: ["Sources/HexMask", "Sources/CImageShims"]) {
      $0.contains(option)
    }
    #expect(scanned > 40)
    #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
  }

  /// A source file past 400 lines holds more than one idea: split along its seams, each part
  /// reads in one sitting. Every Swift file under Sources counts, the tools' too.
  @Test func noSwiftSourceIsOver400Lines() throws {
    let limit = 400
    let base = packageRoot.appendingPathComponent("Sources")
    let files = try #require(FileManager.default.subpaths(atPath: base.path))
      .filter { $0.hasSuffix(".swift") }
    var longest = 0
    var found: [String] = []
    for file in files {
      let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
      // Lines as wc -l counts them: line breaks.
      let lines = text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
      longest = max(longest, lines)
      if lines > limit { found.append("Sources/\(file): \(lines) lines") }
    }
    #expect(files.count > 100, "only \(files.count) Swift files found under Sources")
    // The count is of real lines: some file comes near the limit.
    #expect(longest > limit / 2)
    #expect(found.isEmpty, "over \(limit) lines:\n\(found.joined(separator: "\n"))")
  }

  /// The lines of the Swift, C and Markdown files below `folders` (of the package) that
  /// `matches` accepts, as `folder/file:line: text`, and how many files were read.
  private func linesMatching(in folders: [String], _ matches: (Substring) -> Bool) throws -> (
    scanned: Int, found: [String]
  ) {
    var scanned = 0
    var found: [String] = []
    for folder in folders {
      let base = packageRoot.appendingPathComponent(folder)
      let files = try #require(FileManager.default.subpaths(atPath: base.path))
      for file in files where [".swift", ".c", ".h", ".md"].contains(where: file.hasSuffix) {
        let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
        scanned += 1
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated()
        where matches(line) {
          found.append("\(folder)/\(file):\(number + 1): \(line)")
        }
      }
    }
    return (scanned, found)
  }

  /// A file name is bytes: every system call of the command that takes a path
  /// gets it through `withFileName`, which turns the characters standing for bytes that are
  /// not UTF-8 back into those bytes. Swift's implicit `String` to C string conversion
  /// would pass their UTF-8 instead and name another file, so no such call may take a
  /// `String` directly: only on a line that calls `withFileName`, or with a string literal.
  @Test func everyPathReachesTheSystemAsBytes() throws {
    let root = packageRoot
    let call = try Regex(
      #"\b(open|stat|lstat|rename|unlink|mkdir|rmdir|opendir|readlink|access|realpath|fopen|"#
        + #"chmod|chown|symlink|link|truncate|hm_open_unnamed|hm_link_unnamed|"#
        + #"hm_temporary_remember)\((?!\$0|\)|")"#)
    var scanned = 0
    var found: [String] = []
    let base = root.appendingPathComponent("Sources/HexMaskCLI")
    let files = try #require(FileManager.default.subpaths(atPath: base.path))
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
      scanned += 1
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(call)
        && !line.contains("withFileName")
      {
        found.append("Sources/HexMaskCLI/\(file):\(number + 1): \(line)")
      }
    }
    #expect(scanned > 30)
    #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
  }
}
