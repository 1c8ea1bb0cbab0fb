import Foundation
import TestSupport
import Testing

@testable import HexMask

/// hexmask's mark: every output kind the library writes carries it where its reader,
/// ``HexMaskMark/isPresent(in:)``, finds it, and no file another program made does.
@Suite struct MarkTests {
  /// Every kind of output, by name: the options that make it, and whether it is made from
  /// an animation (and must come out moving).
  static let kinds: [(name: String, output: HexMask.Output, animated: Bool)] = {
    func output(_ kind: HexMask.Output.Kind) -> HexMask.Output {
      var output = HexMask.Output()
      output.kind = kind
      output.size = 48
      return output
    }
    return [
      ("PNG", output(.init(.png)), false),
      ("palette PNG", output(.png(.init(palette: .init(colors: 16)))), false),
      ("APNG", output(.init(.png)), true),
      ("JPEG", output(.init(.jpeg)), false),
      ("lossy WebP", output(.init(.webp)), false),
      ("lossless WebP", output(.webp(.init(quality: .lossless))), false),
      ("animated WebP", output(.init(.webp)), true),
      ("animated lossless WebP", output(.webp(.init(quality: .lossless))), true),
      ("AVIF", output(.init(.avif)), false),
    ]
  }()

  /// The output `name` of ``kinds``, with the mark or without.
  static func render(_ name: String, mark: Bool) throws -> [UInt8] {
    let kind = try #require(kinds.first { $0.name == name })
    var output = kind.output
    output.mark = mark
    let input = try Fixtures.bytes(
      kind.animated ? "animation/mixed-disposal.gif" : "photos/rocket.jpg")
    let rendered = try HexMask.render(input, output: output)
    #expect((rendered.animation != nil) == kind.animated, "\(name) moves when made to")
    return rendered.bytes
  }

  @Test(arguments: kinds.map(\.name))
  func everyOutputCarriesTheMarkItsReaderFinds(name: String) throws {
    let marked = try Self.render(name, mark: true)
    #expect(HexMaskMark.isPresent(in: marked))
    #expect(!HexMaskMark.isPresent(in: try Self.render(name, mark: false)))
  }

  @Test func theSVGCarriesItToo() throws {
    #expect(HexMaskMark.isPresent(in: Array(try HexMask.svg(side: 16).utf8)))
    #expect(!HexMaskMark.isPresent(in: Array(try HexMask.svg(side: 16, mark: false).utf8)))
  }

  /// The mark of a WebP and AVIF is at the end, after the frames: the reader reads the
  /// headers of the parts before it, not the file.
  @Test(arguments: ["animated WebP", "AVIF"])
  func theReaderReadsHeadersNotPictures(name: String) throws {
    let bytes = try Self.render(name, mark: true)
    let whole = FileBytes(bytes)
    var read = 0
    let counted = FileBytes(size: bytes.count) { offset, count in
      read += count
      return whole.bytes(at: offset, count: count)
    }
    #expect(HexMaskMark.isPresent(in: counted))
    #expect(read < bytes.count / 2, "\(read) of \(bytes.count) bytes read")
  }

  /// A file cut short holds the mark only when the cut comes after it: at the end of a
  /// WebP or AVIF, right after the header of a PNG or JPEG. No cut traps.
  @Test(arguments: ["PNG", "APNG", "JPEG", "lossy WebP", "animated WebP", "AVIF"])
  func aCutFileHoldsTheMarkOnlyWhole(name: String) throws {
    let bytes = try Self.render(name, mark: true)
    let markEnd: Int
    switch name {
    case "PNG", "APNG":
      // The chunk's CRC follows its text.
      markEnd = try #require(endOfFirst(HexMaskMark.pngText, in: bytes)) + 4
    case "JPEG": markEnd = try #require(endOfFirst(HexMaskMark.text, in: bytes))
    case "lossy WebP", "animated WebP":
      // The chunk's odd length is padded with a byte the reader does not need.
      markEnd = bytes.count - 1
    default: markEnd = bytes.count
    }
    for cut in 0...bytes.count {
      let found = HexMaskMark.isPresent(in: Array(bytes[..<cut]))
      #expect(found == (cut >= markEnd), "cut at \(cut) of \(bytes.count)")
    }
  }

  /// Damage before the mark may end the walk (a PNG chunk type that is no letters, a RIFF
  /// or box length that lies runs past the end); no damaged byte traps.
  @Test(arguments: ["PNG", "JPEG", "lossy WebP", "AVIF"])
  func damageNeverTraps(name: String) throws {
    let bytes = try Self.render(name, mark: true)
    for at in 0..<min(bytes.count, 96) {
      for value: UInt8 in [0x00, 0x01, 0x7F, 0xFF] where bytes[at] != value {
        var damaged = bytes
        damaged[at] = value
        _ = HexMaskMark.isPresent(in: damaged)
      }
    }
    // CRCs are not checked, as they never were: a damaged checksum keeps the mark.
    var png = try Self.render("PNG", mark: true)
    png[try #require(endOfFirst(HexMaskMark.pngText, in: png))] ^= 0x01
    #expect(HexMaskMark.isPresent(in: png))
  }

  /// The word is the mark only where its format keeps it: in a PNG's `tEXt` under
  /// `Software` before the pixels, in a JPEG comment of exactly the word, in a WebP's
  /// `HXMK` chunk, in an AVIF's top-level `free` box.
  @Test func theWordElsewhereIsNoMark() {
    let signature = ImageFormat.pngSignature
    let ihdr = pngChunk("IHDR", [0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0])
    let text = pngChunk("tEXt", HexMaskMark.pngText)
    #expect(HexMaskMark.isPresent(in: signature + ihdr + text))
    #expect(!HexMaskMark.isPresent(in: signature + ihdr + pngChunk("IDAT", []) + text))
    #expect(!HexMaskMark.isPresent(in: signature + ihdr + pngChunk("zTXt", HexMaskMark.pngText)))
    #expect(
      !HexMaskMark.isPresent(
        in: signature + ihdr + pngChunk("tEXt", Array("Comment\0hexmask".utf8))))
    let comment = { (body: String) -> [UInt8] in
      [0xFF, 0xD8, 0xFF, 0xFE, 0, UInt8(body.utf8.count + 2)] + Array(body.utf8) + [0xFF, 0xD9]
    }
    #expect(HexMaskMark.isPresent(in: comment("hexmask")))
    #expect(!HexMaskMark.isPresent(in: comment("hexmask!")))
    let riff = { (type: String) -> [UInt8] in
      Array("RIFF".utf8) + [27, 0, 0, 0] + Array("WEBP".utf8) + Array(type.utf8) + [7, 0, 0, 0]
        + HexMaskMark.text + [0]
    }
    #expect(HexMaskMark.isPresent(in: riff("HXMK")))
    #expect(!HexMaskMark.isPresent(in: riff("XMP ")))
    let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypavif".utf8) + [0, 0, 0, 0]
    let box = { (type: String) -> [UInt8] in [0, 0, 0, 15] + Array(type.utf8) + HexMaskMark.text }
    #expect(HexMaskMark.isPresent(in: ftyp + box("free")))
    #expect(!HexMaskMark.isPresent(in: ftyp + box("skip")))
    // Inside another box it is not top-level.
    #expect(!HexMaskMark.isPresent(in: ftyp + [0, 0, 0, 23] + Array("meta".utf8) + box("free")))
    #expect(!HexMaskMark.isPresent(in: Array("hexmask <!-- hexmask --> free HXMK".utf8)))
  }

  /// Lengths that lie end the walks: a RIFF chunk of 4 GiB, a box of 2⁶³ − 1 bytes or of
  /// fewer bytes than its header, a JPEG segment shorter than its length field.
  @Test func lyingLengthsEndTheWalks() {
    let riff = Array("RIFF".utf8) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("WEBPVP8 ".utf8)
    #expect(!HexMaskMark.isPresent(in: riff + [0xFF, 0xFF, 0xFF, 0xFF] + HexMaskMark.text))
    let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypavif".utf8) + [0, 0, 0, 0]
    let huge: [UInt8] =
      [0, 0, 0, 1] + Array("free".utf8) + [0x7F] + Array(repeating: 0xFF, count: 7)
    #expect(!HexMaskMark.isPresent(in: ftyp + huge + HexMaskMark.text))
    let past: [UInt8] = [0, 0, 0, 1] + Array("free".utf8) + Array(repeating: 0xFF, count: 8)
    #expect(!HexMaskMark.isPresent(in: ftyp + past + HexMaskMark.text))
    #expect(
      !HexMaskMark.isPresent(in: ftyp + [0, 0, 0, 4] + Array("free".utf8) + HexMaskMark.text))
    // Size 0 is "to the end of the file": there the box holds exactly the word.
    #expect(HexMaskMark.isPresent(in: ftyp + [0, 0, 0, 0] + Array("free".utf8) + HexMaskMark.text))
    for length: UInt8 in [0, 1] {
      #expect(
        !HexMaskMark.isPresent(
          in: [0xFF, 0xD8, 0xFF, 0xE0, 0, length] + [0xFF, 0xFE, 0, 9] + HexMaskMark.text))
    }
    // A PNG chunk claiming 2 GB is cut short, not allocated.
    let png = ImageFormat.pngSignature + [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8)
    #expect(!HexMaskMark.isPresent(in: png + HexMaskMark.pngText))
  }

  /// Pictures made by other programs: none carries the mark.
  @Test func noFixtureIsMarked() throws {
    let files = try FileManager.default.subpathsOfDirectory(atPath: Fixtures.root.path)
    var looked = 0
    for name in files.sorted() {
      var folder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: Fixtures.path(name), isDirectory: &folder),
        !folder.boolValue
      else { continue }
      looked += 1
      #expect(!HexMaskMark.isPresent(in: try Fixtures.bytes(name)), "\(name)")
    }
    #expect(looked > 100)
  }
}

/// A PNG chunk with its CRC.
private func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
  let body = Array(type.utf8) + data
  return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

/// Where the first `needle` in `bytes` ends.
func endOfFirst(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
  guard needle.count <= bytes.count else { return nil }
  let start = (0...bytes.count - needle.count).first {
    bytes[$0..<$0 + needle.count].elementsEqual(needle)
  }
  return start.map { $0 + needle.count }
}
