import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

@Suite struct ImageFormatTests {
  @Test func sniffsSignaturesNotNames() throws {
    try withTemporaryFolder { url in
      let dir = url.path
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
    #expect(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF]) == .jpeg)
    #expect(ImageFormat(sniffing: [0xFF, 0xD8]) == nil)
    #expect(ImageFormat(sniffing: [0xFF, 0xD8, 0x00, 0xE0]) == nil)
    #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
    #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A]) == nil)
    #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0A, 0x0A, 0x1A, 0x0A]) == nil)
  }

  /// Files whose first bytes are, or nearly are, a signature, each followed by the rest of a
  /// real image so that the decoder it goes to can open it.
  static func heads() throws -> [(name: String, bytes: [UInt8], format: ImageFormat?)] {
    let png = try fixtureBytes("pngsuite/basn2c08.png")
    let jfif = try fixtureBytes("jpeg/testorig.jpg")  // FF D8 FF E0: JFIF APP0 first
    let app0Length = Int(jfif[4]) << 8 | Int(jfif[5])
    let soi = Array(jfif[..<2])
    return [
      ("png", png, .png),
      // libpng's "corrupted by ASCII conversion": CR LF became LF.
      ("png-text-transfer", Array(png[..<4]) + [0x0A] + Array(png[6...]), nil),
      ("png-signature-cut", Array(png[..<5]), nil),
      ("jpeg-jfif", jfif, .jpeg),
      ("jpeg-exif", try fixtureBytes("jpeg/pil_sample_cmyk.jpg"), .jpeg),  // FF D8 FF E1
      (
        "jpeg-comment-first", soi + [0xFF, 0xFE, 0x00, 0x05] + Array("hey".utf8) + jfif[2...], .jpeg
      ),
      // SOI straight followed by DQT, as some encoders write it.
      ("jpeg-no-app0", soi + Array(jfif[(4 + app0Length)...]), .jpeg),
      // Fill bytes (FF) before the first marker are allowed by the standard.
      ("jpeg-fill-bytes", soi + [0xFF, 0xFF] + Array(jfif[2...]), .jpeg),
      // Bytes other than FF after SOI: libjpeg skips them with a warning, hexmask refuses.
      ("jpeg-garbage-after-soi", soi + [0x00, 0x11] + Array(jfif[2...]), nil),
      ("soi-only", soi, nil),
      ("text", Array("not an image at all\n".utf8), nil),
      // WebP is read now: folder discovery takes it; its decoder judges the (empty) data.
      ("gif", try fixtureBytes("animation/still.gif"), .gif),
      ("gif-animated", try fixtureBytes("animation/mixed-disposal.gif"), .gif),
      ("gif87a", Array("GIF87a".utf8) + Array(try fixtureBytes("animation/still.gif")[6...]), .gif),
      ("gif-signature-cut", Array("GIF8".utf8), nil),
      ("empty", [], nil),
    ]
  }

  /// Folder discovery (`findInputs`, through `ImageFormat(sniffingFileAt:)`) and
  /// `openDecoder` take the same files, and `openDecoder` opens each with the decoder of the
  /// format the sniffer names.
  @Test func folderDiscoveryAndTheDecoderAgree() throws {
    let heads = try Self.heads()
    try withTemporaryFolder { url in
      let dir = url.path
      for head in heads {
        try Data(head.bytes).write(to: URL(fileURLWithPath: dir + "/" + head.name))
      }
      let found = Set(
        findInputs([dir], rules: InputRules()).map {
          URL(fileURLWithPath: $0.path).lastPathComponent
        })
      for head in heads {
        let path = dir + "/" + head.name
        let sniffed = ImageFormat(sniffingFileAt: path)
        let opened = try withFile(path) { file -> ImageFormat? in
          do throws(ImageError) {
            let decoder = try openDecoder(file: file, maxPixels: 1 << 28)
            // The decoders are the library's own; their type names tell them apart.
            let kind = String(describing: type(of: decoder))
            if kind == "PNGDecoder" { return .png }
            if kind == "JPEGDecoder" { return .jpeg }
            // A GIF opens as an animation of one frame or more.
            if kind == "AnimationPicture" { return .gif }
            Issue.record("\(head.name): an unexpected decoder \(type(of: decoder))")
            return nil
          } catch {
            return nil
          }
        }
        let expected = head.format
        #expect(sniffed == expected, "\(head.name): sniffed \(String(describing: sniffed))")
        #expect(opened == expected, "\(head.name): opened \(String(describing: opened))")
        #expect(found.contains(head.name) == (expected != nil), "\(head.name): discovery")
      }
    }
  }
}

private func fixtureBytes(_ name: String) throws -> [UInt8] {
  [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name))))
}

/// Calls `body` with the file at `path` opened for reading, and closes it.
private func withFile<R>(_ path: String, _ body: (CFile) throws -> R) throws -> R {
  guard let file = fopen(path, "rb") else {
    throw ProcessRunError(description: "cannot open \(path)")
  }
  defer { fclose(file) }
  return try body(file)
}
