import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Files that ImageMagick, cwebp, img2webp, gif2webp and avifenc make are not taken for
/// hexmask's, not even one whose text says `Software` `hexmask` where hexmask's mark is
/// not; each test runs when its program is installed (Debian: imagemagick, webp,
/// libavif-bin).
@Suite struct MarkOtherToolsTests {
  /// The picture every program converts.
  static let photo = Fixtures.path("photos/rocket.jpg")

  /// Runs `program` with `arguments` in a fresh folder, where `output` is written, and
  /// returns the bytes of `output`.
  static func made(by program: String?, _ arguments: [String], output: String) throws -> [UInt8] {
    let program = try #require(program)
    return try withTemporaryFolder { folder in
      let run = try runProcess(
        URL(fileURLWithPath: program), arguments + [output], in: folder, timeout: 60)
      #expect(run.status == 0, "\(program): \(run.standardError)")
      return try [UInt8](Data(contentsOf: folder.appendingPathComponent(output)))
    }
  }

  /// ImageMagick keeps text chunks after a PNG's pixels, so its `Software` `hexmask` is not
  /// where hexmask's mark is; its JPEG comment is the mark only when it is exactly the word
  /// (the mark is a label any program could copy, not a signature).
  @Test(.enabled(if: imageMagick != nil)) func imageMagicksFiles() throws {
    let resize = [Self.photo, "-resize", "32x32"]
    let software = try Self.made(
      by: imageMagick, resize + ["-set", "Software", "hexmask"], output: "s.png")
    #expect(endOfFirst(HexMaskMark.pngText, in: software) != nil, "the text is there")
    #expect(!HexMaskMark.isPresent(in: software))
    for (arguments, output) in [
      (["-set", "comment", "hexmask"], "c.png"), ([], "p.png"),
      (["-set", "comment", "hexmask 2"], "c.jpg"), (["-set", "comment", "by hexmask"], "b.jpg"),
      ([], "w.webp"), (["-define", "webp:lossless=true"], "l.webp"),
    ] {
      let bytes = try Self.made(by: imageMagick, resize + arguments, output: output)
      #expect(!HexMaskMark.isPresent(in: bytes), "\(output)")
    }
    let copied = try Self.made(
      by: imageMagick, resize + ["-set", "comment", "hexmask"], output: "h.jpg")
    #expect(HexMaskMark.isPresent(in: copied))
  }

  @Test(.enabled(if: cwebp != nil)) func webpToolsFiles() throws {
    let lossy = try Self.made(
      by: cwebp, ["-quiet", Self.photo, "-resize", "32", "0", "-o"], output: "a.webp")
    let lossless = try Self.made(
      by: cwebp, ["-quiet", "-lossless", "-metadata", "all", Self.photo, "-o"], output: "b.webp")
    #expect(!HexMaskMark.isPresent(in: lossy))
    #expect(!HexMaskMark.isPresent(in: lossless))
    if gif2webp != nil {
      let gif = Fixtures.path("animation/mixed-disposal.gif")
      let animated = try Self.made(by: gif2webp, ["-quiet", gif, "-o"], output: "c.webp")
      #expect(ImageFormat(sniffing: animated) == .webp)
      #expect(!HexMaskMark.isPresent(in: animated))
    }
  }

  @Test(.enabled(if: avifenc != nil)) func avifencsFiles() throws {
    let avif = try Self.made(by: avifenc, ["-s", "10", Self.photo], output: "a.avif")
    #expect(ImageFormat(sniffing: avif) == .avif)
    #expect(!HexMaskMark.isPresent(in: avif))
  }
}

/// The program `name` from /usr/bin or the PATH, or nil when it is not installed.
private func tool(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  let folders = ["/usr/bin"] + path.split(separator: ":").map(String.init)
  return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

private let imageMagick = tool("convert")
private let cwebp = tool("cwebp")
private let gif2webp = tool("gif2webp")
private let avifenc = tool("avifenc")
