import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// openDecoder reads a PNG's chunks ahead, up to its pixels, for an APNG's animation
/// chunk, and hands every byte it read on to the decoder: a pipe cannot be read twice.
@Suite struct PNGLookAheadTests {
  @Test func anAPNGDecodesFromAPipeAsFromItsFile() throws {
    let name = "animation/apng-dispose-blend.png"
    guard let pipe = popen("cat '\(Fixtures.path(name))'", "r") else {
      throw TestFileError(description: "popen failed")
    }
    defer { pclose(pipe) }
    #expect(try decode(file: pipe) == (try decodeFixture(name)))
  }

  /// The look for an APNG's animation chunk ends at a damaged chunk header; the bytes it
  /// read reach libpng all the same, which names the damage as it does from a file.
  @Test func aDamagedChunkHeaderFailsAlikeFromAPipe() throws {
    var bytes = try Fixtures.bytes("pngsuite/basn6a08.png")
    bytes[37] = 0x31  // the first type letter of the chunk after IHDR becomes a digit
    try withTemporaryFolder { folder in
      let path = folder.appendingPathComponent("damaged.png").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let fromFile = try #require(
        try withFile(path) { file in
          thrownError { () throws(ImageError) in _ = try decode(file: file) }
        })
      guard let pipe = popen("cat '\(path)'", "r") else {
        throw TestFileError(description: "popen failed")
      }
      defer { pclose(pipe) }
      let fromPipe = thrownError { () throws(ImageError) in _ = try decode(file: pipe) }
      #expect(fromPipe == fromFile)
      #expect(fromFile.kind == .corrupt)
    }
  }
}
