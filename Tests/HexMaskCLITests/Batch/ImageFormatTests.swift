import HexMask
import Testing

@testable import HexMaskCLI

@Suite struct ImageFormatTests {
  @Test func sniffsSignaturesNotNames() throws {
    try withTemporaryFolder { dir in
      try makeTree(
        dir, copies: ["photo.png": photoFixture, "picture": pngFixture],
        texts: ["fake.jpg": "not an image", "empty.png": ""])
      #expect(ImageFormat(sniffingFileAt: dir + "/photo.png") == .jpeg)
      #expect(ImageFormat(sniffingFileAt: dir + "/picture") == .png)
      #expect(ImageFormat(sniffingFileAt: dir + "/fake.jpg") == nil)
      #expect(ImageFormat(sniffingFileAt: dir + "/empty.png") == nil)
      #expect(ImageFormat(sniffingFileAt: dir + "/missing.png") == nil)
    }
  }

  @Test func needsTheWholeSignature() {
    #expect(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
    #expect(ImageFormat(sniffing: [0xFF, 0xD8]) == nil)
    #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
    #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0A, 0x0A, 0x1A, 0x0A]) == nil)
  }
}
