import HexMask

// What `--help` and the manual page say around the option table: the names on the usage
// lines, the summary at the top and the examples at the end. Both read these, so they agree.

/// The positional arguments, as the usage lines and messages name them: one file, or a batch.
let positionalNames = ["INPUT", "OUTPUT"]
let batchPositionalNames = ["INPUT...", "--out-dir", "DIR"]

/// Examples printed at the end of `--help`, each a command and what it does.
let helpExamples: [(command: String, purpose: String)] = [
  ("hexmask in.jpg out.png --corner 10 --line 5", "A hexagon with the original's look."),
  (
    "hexmask photo.png avatar.png --sides 8 --border-color '#1e90ff'",
    "An octagon with a blue border."
  ),
  ("hexmask in.jpg out.png --layout seed", "Exactly what the original iOS code draws."),
  ("hexmask photo.jpg avatar.webp --size 256", "A 256 × 256 WebP avatar for a web page."),
  (
    "hexmask party.gif avatar.webp --size 128",
    "A moving avatar: every frame of the GIF in the same hexagon (--frame 0 for a still)."
  ),
  (
    "hexmask photo.jpg 'avatar-{size}.png' --size 64,128,256 --line 2%",
    "Three avatar sizes from one decode: avatar-64.png, avatar-128.png, avatar-256.png."
  ),
  (
    "hexmask -r staff --out-dir avatars --size 256 --gravity face",
    "Staff avatars with each face in the hexagon (needs OpenCV's cascades: opencv-data)."
  ),
  (
    "curl -s https://example.com/me.jpg | hexmask - - > me.png",
    "From standard input to standard output."
  ),
  (
    "hexmask -r photos --out-dir avatars",
    "Every picture under photos/, mirrored under avatars/; run it again to finish "
      + "after an interruption."
  ),
  (
    "find . -name '*.jpg' -print0 | hexmask --files-from - -0 --out-dir out --json",
    "The files find lists, one JSON line per file on standard output."
  ),
]

/// What `hexmask` does, in one sentence, for the top of `--help`.
let commandSummary =
  "Cuts a photo into a rounded polygon (a hexagon by default) with a smooth, anti-aliased "
  + "edge and a border, and writes it as a PNG with transparency, a JPEG, a WebP, an AVIF or a JPEG XL."

/// What INPUT and OUTPUT may be, after the summary in `--help` and the manual page.
let filesSummary =
  "INPUT is a \(ImageFormat.readableNames) file, recognised by its content; OUTPUT's "
  + "extension (\(OutputFormat.allCases.map { "." + $0.fileExtension }.joined(separator: ", "))) "
  + "or --format decides what is written. Either may be '-' for standard input or "
  + "output. With --out-dir, each INPUT is a file or a folder and the outputs go into DIR."
