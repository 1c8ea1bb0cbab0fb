/// The small fixed mark every file hexmask writes carries, so that the `hexmask` command
/// can tell its own earlier outputs from anything else a careless OUTPUT names.
///
/// It is the word `hexmask` in the place each format keeps for what a decoder may
/// ignore: a PNG `tEXt` chunk with the registered keyword `Software` before the pixels, a
/// JPEG comment (`COM`) right after the JFIF header, a WebP chunk `HXMK` at the end (in
/// the extended format, whose readers skip unknown chunks), an AVIF top-level `free` box at
/// the end (ISO BMFF's box for bytes readers ignore), and an SVG comment on the second line.
/// The same bytes on every run (at most 28), and nothing about who made the picture.
package enum HexMaskMark {
  /// The mark's text in every format.
  package static let text = Array("hexmask".utf8)
  /// The PNG `tEXt` keyword (PNG §11.3.4.2: "Software used to create the image").
  package static let pngKeyword = Array("Software".utf8)
  /// The PNG `tEXt` chunk's data: keyword, NUL, text.
  package static let pngText = pngKeyword + [0] + text
  /// The WebP RIFF chunk's four-letter type.
  package static let webpChunk = "HXMK"
  /// The AVIF top-level box's type.
  package static let avifBox = "free"
  /// The SVG comment, a line of its own after the XML declaration.
  package static let svgComment = "<!-- hexmask -->"
}
