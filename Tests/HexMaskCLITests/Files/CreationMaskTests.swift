import Foundation
import TestSupport
import Testing

@testable import HexMaskCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct CreationMaskTests {
  /// The umask read at start-up is the process's own, and reading it set it back.
  @Test func readsTheUmaskAndLeavesItAsItWas() throws {
    let mask = readCreationMask()
    #expect(creationMask == mask)
    #if os(Linux)
      // /proc/self/status shows the umask without setting it (Linux 4.7 and later).
      let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
      let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
      let shown = try #require(
        mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
      #expect(shown == mask)
    #endif
  }

  /// A new output gets `0666 & ~umask`, from the mask read at start-up.
  @Test func aNewOutputGetsTheModeTheUmaskAllows() throws {
    let mask = readCreationMask()
    try withTemporaryFolder { folder in
      let path = folder.appendingPathComponent("new.png").path
      let output = try OutputFile(path: path)
      try output.commit()
      var info = stat()
      #expect(stat(path, &info) == 0)
      #expect(info.st_mode & 0o777 == 0o666 & ~mask)
    }
  }
}
