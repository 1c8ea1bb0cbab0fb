/// The small fixed mark every file hexmask writes carries, so that the `hexmask` command
/// can tell its own earlier outputs from anything else a careless OUTPUT names.
///
/// It is the word `hexmask` in the place each format keeps for what a decoder may
/// ignore: a PNG `tEXt` chunk with the registered keyword `Software` before the pixels, a
/// JPEG comment (`COM`) right after the JFIF header, a WebP chunk `HXMK` at the end (in
/// the extended format, whose readers skip unknown chunks), an AVIF top-level `free` box at
/// the end (ISO BMFF's box for bytes readers ignore), a JPEG XL container's `free` box
/// right after its `ftyp` box, before the codestream, and an SVG comment on the second line.
/// The same bytes on every run (at most 28), and nothing about who made the picture.
///
/// The writers take the mark's parts from here, and ``isPresent(in:)`` below looks for
/// exactly those parts, so what is written and what is recognised cannot drift apart.
package enum HexMaskMark {
  /// The mark's text in every format.
  package static let text = Array("hexmask".utf8)
  /// The PNG `tEXt` keyword (PNG §11.3.4.2: "Software used to create the image").
  package static let pngKeyword = Array("Software".utf8)
  /// The PNG `tEXt` chunk's data: keyword, NUL, text.
  package static let pngText = pngKeyword + [0] + text
  /// The JPEG comment's marker byte (`COM`, `FF FE`); its body is ``text``.
  package static let jpegComment: UInt8 = 0xFE
  /// The WebP RIFF chunk's four-letter type.
  package static let webpChunk = "HXMK"
  /// The AVIF top-level box's type.
  package static let avifBox = "free"
  /// The XML declaration an SVG starts with, the line before the mark.
  package static let xmlDeclaration = #"<?xml version="1.0" encoding="UTF-8"?>"#
  /// The SVG comment, a line of its own after the XML declaration.
  package static let svgComment = "<!-- hexmask -->"

  /// How far into a PNG or JPEG the mark is looked for: the writers put it right after the
  /// header, so a file whose first 256 KiB do not hold it was not made by hexmask.
  package static let searchedHead = 256 << 10
}

extension HexMaskMark {
  /// True when `file` carries the mark where its format keeps it, found by walking the
  /// container: a file that merely holds the word elsewhere (in its pixels, in a comment
  /// that says more, under another keyword or chunk type) is not marked. A damaged or
  /// hostile file is read no further than a walk's bounds (``FileBytes/partsWalked``
  /// parts, the first ``searchedHead`` bytes of a PNG or JPEG) and never traps.
  ///
  /// - Complexity: for a PNG or JPEG, at most ``searchedHead`` bytes read; for a WebP or
  ///   AVIF, one small read a chunk or box.
  package static func isPresent(in file: FileBytes) -> Bool {
    let svgStart = Array((xmlDeclaration + "\n" + svgComment + "\n").utf8)
    let head = file.bytes(at: 0, count: max(svgStart.count, ImageFormat.sniffLength))
    if head.starts(with: svgStart) { return true }
    func holds(_ part: FilePart, _ type: [UInt8], _ body: [UInt8]) -> Bool {
      part.type == type && part.length == body.count && file.body(of: part) == body
    }
    switch ImageFormat(sniffing: head) {
    case .png: return pngTextIsPresent(in: file.prefix(searchedHead))
    case .jpeg:
      return file.prefix(searchedHead).jpegSegments().contains {
        holds($0, [jpegComment], text)
      }
    case .webp: return file.riffChunks(from: 12).contains { holds($0, Array(webpChunk.utf8), text) }
    case .avif, .heif:
      return file.isoBoxes().contains { holds($0, Array(avifBox.utf8), text) }
    case .jxl:
      // Where the writer puts it: the box right after the signature and `ftyp`, so that a
      // box appended to another tool's file is not taken for it.
      let boxes = Array(file.isoBoxes().prefix(3))
      return boxes.count == 3 && holds(boxes[2], Array(avifBox.utf8), text)
    case .gif, nil: return false
    }
  }

  /// ``isPresent(in:)`` for a file's bytes in memory.
  package static func isPresent(in bytes: [UInt8]) -> Bool { isPresent(in: FileBytes(bytes)) }

  /// True when a `tEXt` chunk before the image data holds exactly ``pngText``; a damaged
  /// chunk header before it ends the look. CRCs are not checked (they never were): a
  /// hexmask output whose checksum was damaged since is still taken for hexmask's.
  private static func pngTextIsPresent(in file: FileBytes) -> Bool {
    let reader = PNGChunkReader(bytes: file, from: ImageFormat.pngSignature.count)
    for _ in 0..<FileBytes.partsWalked {
      guard let chunk = try? reader.header(), chunk.type != "IDAT", chunk.type != "IEND" else {
        return false
      }
      if chunk.type == "tEXt" && chunk.length == pngText.count {
        guard let data = try? reader.data(of: chunk, checkingCRC: false) else { return false }
        if data == pngText { return true }
      } else {
        guard (try? reader.skip(chunk)) != nil else { return false }
      }
    }
    return false
  }
}
