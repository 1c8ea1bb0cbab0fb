import Foundation
import TestSupport
import Testing

@testable import HexMaskCLI

/// `VERSION` is the one place the version is written: the Makefile gives it to the .deb and
/// the tarball, and the Swift constant behind `--version` and the man page must match it.
@Suite struct VersionTests {
  let file = packageRoot.appendingPathComponent("VERSION")

  @Test func constantIsTheVersionFile() throws {
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text == hexmaskVersion + "\n", "VERSION and hexmaskVersion (Version.swift) differ")
  }

  /// Dots and digits, starting with a digit: a Debian upstream version and a file name part.
  @Test func isPlainDottedNumbers() {
    let parts = hexmaskVersion.split(separator: ".", omittingEmptySubsequences: false)
    #expect(parts.count >= 2)
    #expect(
      parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
  }
}
