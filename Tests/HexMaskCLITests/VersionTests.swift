import Foundation
import TestSupport
import Testing

@testable import HexMaskCLI

/// `hexmaskVersion` (Version.swift) is the one place the version is written: `--version`
/// and the man page print it, and scripts/version.sh reads it for the Makefile, the .deb and
/// the tarball.
@Suite(.tags(.endToEnd)) struct VersionTests {
  @Test func theScriptReadsTheConstant() throws {
    let run = try runProcess(packageRoot.appendingPathComponent("scripts/version.sh"), [])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == hexmaskVersion + "\n")
  }

  /// Dots and digits, starting with a digit: a Debian upstream version and a file name part.
  @Test func isPlainDottedNumbers() {
    let parts = hexmaskVersion.split(separator: ".", omittingEmptySubsequences: false)
    #expect(parts.count >= 2)
    #expect(
      parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
  }
}
