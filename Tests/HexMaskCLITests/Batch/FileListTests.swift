import Foundation
import TestSupport
import Testing

@testable import HexMaskCLI

/// `--files-from` lists as editors and `find` write them.
@Suite struct FileListTests {
  /// Writes `bytes` to a list file and reads it back as `readList` does.
  func entries(of bytes: [UInt8], nulSeparated: Bool) throws -> [String] {
    try withTemporaryFolder { folder in
      let list = folder.appendingPathComponent("list.txt")
      try Data(bytes).write(to: list)
      return try readList(list.path, nulSeparated: nulSeparated)
    }
  }

  @Test func windowsLineEndsLoseTheirCarriageReturn() throws {
    let list = Array("a.jpg\r\nb c.jpg\r\n\r\n-\r\nlast.png".utf8)
    #expect(try entries(of: list, nulSeparated: false) == ["a.jpg", "b c.jpg", "./-", "last.png"])
  }

  @Test func onlyTheLastCarriageReturnOfALineGoes() throws {
    #expect(try entries(of: Array("a\r\r\n".utf8), nulSeparated: false) == ["a\r"])
  }

  @Test func nulSeparatedNamesAreTakenByteForByte() throws {
    // `find -print0` may list a name that really ends in a carriage return.
    let list: [UInt8] = Array("a.jpg\r".utf8) + [0] + Array("b.jpg\n".utf8) + [0]
    #expect(try entries(of: list, nulSeparated: true) == ["a.jpg\r", "b.jpg\n"])
  }
}
