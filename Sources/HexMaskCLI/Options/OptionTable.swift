import HexMask

/// Every option `hexmask` understands, in the order `--help` lists them within a group.
///
/// The parser, the usage line and `--help` all read this table, so they cannot disagree;
/// add an option here and it is parsed and documented.
let optionTable: [OptionDescription] = [
  OptionDescription(
    long: "sides",
    value: .wholeNumber(named: "N", in: HexMask.Shape.sidesRange) { $0.options.shape.sides = $1 },
    help: "Number of sides of the polygon, from \(HexMask.Shape.sidesRange.lowerBound) to "
      + "\(HexMask.Shape.sidesRange.upperBound).",
    group: .shape, defaultValue: String(HexMask.Shape.defaultSides)),
  OptionDescription(
    long: "corner",
    value: .length(named: "PX") { $0.options.shape.corner = $1 },
    help: "Corner radius in pixels, or a percentage of the canvas side such as 8%; 0 gives "
      + "sharp corners.",
    group: .shape, defaultValue: "\(pixels(HexMask.Shape.defaultCorner)), less on small images"),
  OptionDescription(
    long: "line",
    value: .length(named: "PX") { $0.options.shape.line = $1 },
    help: "Width of the border in pixels, or a percentage of the canvas side; 0 draws no "
      + "border.",
    group: .shape, defaultValue: "\(pixels(HexMask.Shape.defaultLine)), less on small images"),
  OptionDescription(
    long: "rotation",
    value: .degrees(named: "DEG") { $0.options.shape.rotation = $1 },
    help: "Angle of one corner in degrees, clockwise from the right; 90 puts a corner at "
      + "the bottom.",
    group: .shape, defaultValue: pixels(HexMask.Shape.defaultRotation)),
  OptionDescription(
    long: "layout",
    value: .choice(of: Layout.self) { $0.options.shape.layout = $1 },
    help: "Where the shape sits: 'centered' centres it and shows the whole border; 'seed' "
      + "places it exactly like the original iOS code, which shows only the inner half of "
      + "the border.",
    group: .shape, defaultValue: HexMask.Shape().layout.rawValue),
  OptionDescription(
    long: "size",
    value: .sizes(named: "N[,N...]", in: HexMask.Output.sizeRange) { $0.options.sizes = $1 },
    help: "Make the output N × N pixels: the square is resized (Lanczos-3, JPEGs shrunk while "
      + "decoding when much larger). Geometry options stay in output pixels. N is at most "
      + "65500 (JPEG's limit) and N × N may not exceed --max-pixels. A list (64,128,256) makes every size from one decode; the "
      + "output names then need {size} (in a batch the default is {dir}/{name}-{size}.png), "
      + "and % lengths keep the sizes alike.",
    group: .canvas, defaultValue: "the square's own size"),
  OptionDescription(
    long: "no-upscale",
    value: .flag { $0.options.output.upscale = false },
    help: "With --size, keep squares smaller than N at their own size instead of enlarging "
      + "them.",
    group: .canvas),
  OptionDescription(
    long: "gravity",
    value: .choice(of: GravityWord.self, named: "WHERE") { $1.assign(to: &$0) },
    help: "Which square of a non-square picture to use: center, north, south, east, west, "
      + "northeast, northwest, southeast or southwest; face puts the faces in the shape "
      + "(OpenCV's trained cascades, from opencv-data or the file HEXMASK_FACE_MODEL names; "
      + "a pet's face when there is no human one, else as attention); attention picks the "
      + "square with the most edges, saturated colour and skin tones.",
    group: .canvas, defaultValue: defaultGravity),
  OptionDescription(
    long: "focus",
    value: .point(named: "X,Y") { $0.options.output.crop = .focus(x: $1, y: $2) },
    help: "Centre the square on this point, given as fractions of the picture's width and "
      + "height (0,0 is the top left), as far as it fits.",
    group: .canvas),
  OptionDescription(
    long: "face-size",
    value: .fraction(named: "F") { $0.options.output.faceSize = $1 },
    help: "With --gravity face: cut the square around the face so that the face spans F of "
      + "its side (0 < F ≤ 1; 0.4 is head and shoulders), the eyes 40 % from the top; the "
      + "faces together when they fit, else the most prominent one (large, near the middle); "
      + "where no face is found, the full-side square attention picks. A square smaller than "
      + "--size is enlarged unless --no-upscale.",
    group: .canvas, defaultValue: "the full short side"),
  OptionDescription(
    long: "border-color",
    value: .color(named: "COLOR") { $0.options.shape.borderColor = $1 },
    help: "Colour of the border: #rgb, #rrggbb, #rrggbbaa or a CSS colour name such as "
      + "'black' or 'transparent'.",
    group: .output, defaultValue: colorName(HexMask.Shape.defaultBorderColor)),
  OptionDescription(
    long: "format",
    value: .choice(of: OutputFormat.self, parse: OutputFormat.init(fileExtension:)) {
      $0.options.format = $1
    },
    help: "What to write (jpg works for jpeg). Without it the OUTPUT name decides: "
      + "\(OutputFormat.nameExtensions); another extension is an error.",
    group: .output, defaultValue: "from the name; png without an extension"),
  OptionDescription(
    long: "compression",
    value: .compression(named: "LEVEL") { $0.options.choices.compression = $1 },
    help: "PNG compression: fast, default or small, or a zlib level 0–9. The default is "
      + "faster than vips' and libpng's defaults and smaller than vips'; small is smaller "
      + "than libpng's default.",
    group: .output, defaultValue: "default"),
  OptionDescription(
    long: "colors",
    value: .wholeNumber(named: "N", in: HexMask.Output.colorsRange) {
      $0.options.choices.colors = $1
    },
    help: "Write a palette PNG of at most N colours (\(HexMask.Output.colorsRange.lowerBound)–"
      + "\(HexMask.Output.colorsRange.upperBound)), chosen for each picture: a far smaller "
      + "file for avatars on the web. With --mask-only, a gray palette of the coverage "
      + "levels. PNG only.",
    group: .output),
  OptionDescription(
    long: "dither",
    value: .flag { $0.options.choices.dither = true },
    help: "With --colors: ordered dithering, so gradients mix colours instead of banding. "
      + "The bytes are the same for any -j.",
    group: .output),
  OptionDescription(
    long: "quality",
    value: .wholeNumber(named: "Q", in: HexMask.Output.qualityRange) {
      $0.options.choices.quality = $1
    },
    help: "JPEG, lossy WebP, AVIF and JPEG XL quality, from "
      + "\(HexMask.Output.qualityRange.lowerBound) (smallest file) to "
      + "\(HexMask.Output.qualityRange.upperBound) (best picture). JPEG XL takes it as cjxl's "
      + "-q: 90 is distance 1, visually lossless; 100 is lossless.",
    group: .output, defaultValue: String(HexMask.Output.defaultQuality)),
  OptionDescription(
    long: "lossless",
    value: .flag { $0.options.choices.lossless = true },
    help: "Write WebP, AVIF or JPEG XL losslessly.",
    group: .output),
  OptionDescription(
    long: "effort",
    value: .wholeNumber(named: "N", in: HexMask.Output.effortRange) {
      $0.options.choices.effort = $1
    },
    help: "How hard the AVIF or JPEG XL encoder works, from "
      + "\(HexMask.Output.effortRange.lowerBound) (fastest) to "
      + "\(HexMask.Output.effortRange.upperBound) (smallest file); JPEG XL's is libjxl's "
      + "effort (0 is 1).",
    group: .output,
    defaultValue: "\(HexMask.Output.defaultEffort(side: 1)); "
      + "\(HexMask.Output.defaultEffort(side: HexMask.Output.largeEffortSide + 1)) for sides "
      + "over \(HexMask.Output.largeEffortSide) (AVIF); \(JXLWriter.defaultEffort) (JPEG XL)"),
  OptionDescription(
    long: "background",
    value: .colorOrNone(named: "COLOR") { $0.options.choices.background = $1 },
    help: "Make the output opaque on this colour (none: keep it transparent). JPEG, which "
      + "has no transparency, always is.",
    group: .output, defaultValue: "none; white for JPEG"),
  OptionDescription(
    long: "mask-only",
    value: .flag { $0.options.choices.maskOnly = true },
    help: "Write the shape's coverage (fill and border) as an 8-bit gray PNG instead of the "
      + "picture. With --size, INPUT may be left out: hexmask --mask-only --size 256 mask.png (or "
      + "--size 64,256 mask-{size}.png).",
    group: .output),
  OptionDescription(
    long: "svg",
    value: .path(named: "FILE") { $0.svgOutput = $1 },
    help: "Also write the shape as an SVG document (path, fill, border) to FILE, '-' for "
      + "standard output. With --size, INPUT and OUTPUT may be left out. With several sizes, "
      + "one SVG each: FILE needs {size}.",
    group: .output),
  OptionDescription(
    long: "colorspace",
    value: .choice(of: HexMask.ColorSpace.self) { $0.options.output.colorSpace = $1 },
    help: "The output's colours: 'keep' leaves the pixels in the input's colour space and "
      + "copies its ICC profile; 'srgb' converts them to sRGB with lcms2 (relative "
      + "colorimetric, black point compensation) and says sRGB instead (a PNG sRGB chunk, an "
      + "AVIF nclx box), for wide-gamut photos (Display P3, Adobe RGB) on the web. Either way "
      + "a profile the output cannot carry (gray, CMYK) is converted, never dropped.",
    group: .output, defaultValue: HexMask.ColorSpace.keep.rawValue),
  OptionDescription(
    long: "strip",
    value: .flag { $0.options.output.keepColorProfile = false },
    help: "Write no colour profile: the pixels are converted to sRGB first (as "
      + "--colorspace srgb), so stripping never changes how the picture looks. Other "
      + "metadata (EXIF, GPS, XMP, comments) is never copied.",
    group: .output),
  OptionDescription(
    long: "no-rotate",
    value: .flag { $0.options.input.autoOrient = false },
    help: "Keep the stored pixel order instead of turning the picture upright as its EXIF "
      + "orientation says.",
    group: .input),
  OptionDescription(
    long: "max-pixels",
    value: .wholeNumber(named: "N", in: 1...Int.max) { $0.options.input.maxPixels = $1 },
    help: "Refuse images with more pixels than this, checked before decoding, and a --size "
      + "whose output would have more; a guard against decompression bombs and runaway "
      + "outputs. An animation's canvas (each frame) may hold N pixels, and all its frames "
      + "together at most \(HexMask.Input.animationPixelsFactor) × N.",
    group: .input, defaultValue: "\(HexMask.Input.defaultMaxPixels), 16383 × 16383"),
  OptionDescription(
    long: "max-frames",
    value: .wholeNumber(named: "N", in: HexMask.Input.maxFramesRange) {
      $0.options.input.maxFrames = $1
    },
    help: "Refuse animations of more than N frames, before any is drawn: from the headers "
      + "(APNG, WebP, JPEG XL) or by counting a GIF's blocks (a piped GIF's first 16 MiB are kept for "
      + "that). A still output counts the frames up to its own.",
    group: .input, defaultValue: String(HexMask.Input.defaultMaxFrames)),
  OptionDescription(
    long: "frame",
    value: .frame(named: "N|first") { $0.options.input.frame = $1 },
    help: "Cut frame N of an animation (GIF, APNG, animated WebP or JPEG XL), counted from 0 "
      + "(first), as a still picture, in any output format. Without it a WebP, a JPEG XL, or a "
      + "PNG without --colors, of an animation moves: every frame, the same shape; other outputs show "
      + "the first frame. A still picture has only frame 0.",
    group: .input, defaultValue: "every frame where the output can move"),
  OptionDescription(
    long: "memory-limit",
    value: .memory(named: "SIZE") { $0.options.memoryLimit = $1 },
    help: "Memory that pictures decoded whole (HEIC, AVIF, JPEG XL, lossless or unscaled WebP, "
      + "progressive JPEG, interlaced PNG, any picture an EXIF orientation turns, an "
      + "animation's canvases) and outputs encoded whole (WebP, AVIF, JPEG XL, palette PNG, "
      + "JPEG up to 2048², every animation) may take at once, shared by all files of a batch: 512M, 2G "
      + "or bytes. A file takes its decode and its encode together, priced from the header; "
      + "one that does not fit yet waits for others to finish, one that needs more than SIZE "
      + "fails.",
    group: .input,
    defaultValue: "a quarter of the memory, or of a cgroup memory limit when lower"),
  OptionDescription(
    long: "strict",
    value: .flag { $0.options.input.strict = true },
    help: "Treat warnings about the input (a truncated JPEG, a malformed colour profile) as "
      + "errors instead of writing what could be decoded; what the output's format cannot hold "
      + "(an animation in a JPEG) stays a warning.",
    group: .input),
  OptionDescription(
    long: "out-dir",
    value: .path(named: "DIR") { $0.batch.outputFolder = $1 },
    help: "Batch mode: read every INPUT (files and folders) and write each output into DIR. "
      + "DIR and the subfolders the outputs need are created if missing (without --out-dir, "
      + "OUTPUT's folder must exist). Outputs that are up to date are skipped, so a rerun "
      + "finishes the rest and rebuilds what changed inputs or options make stale.",
    group: .batch),
  OptionDescription(
    long: "recursive", short: "r",
    value: .flag { $0.batch.recursive = true },
    help: "Search subfolders too and mirror them under DIR; a file named directly keeps its "
      + "folder as written.",
    group: .batch),
  OptionDescription(
    long: "follow-symlinks",
    value: .flag { $0.batch.followSymlinks = true },
    help: "Descend into symbolic links to folders (they are skipped otherwise).",
    group: .batch),
  OptionDescription(
    long: "files-from",
    value: .path(named: "FILE") { $0.batch.listFile = $1 },
    help: "Also read the inputs listed in FILE, one per line; '-' reads the list from "
      + "standard input.",
    group: .batch),
  OptionDescription(
    long: "null", short: "0",
    value: .flag { $0.batch.nulSeparated = true },
    help: "The --files-from list is separated by NUL bytes, as 'find -print0' writes it.",
    group: .batch),
  OptionDescription(
    long: "name",
    value: .nameTemplate(named: "TEMPLATE") { $0.batch.nameTemplate = $1 },
    help: "Output path inside DIR: {name} is the input's name without its extension, {ext} "
      + "its extension, {dir} its subfolder (with -r), {size} the --size of the output "
      + "(needed with several sizes).",
    group: .batch,
    defaultValue: NameTemplate.standard.text + " (.jpg, .webp, .avif, .jxl with --format; "
      + "{dir}/{name}-{size}.png with several sizes)"),
  OptionDescription(
    long: "records",
    value: .path(named: "DIR") { $0.batch.recordFolder = $1 },
    help: "Keep the rerun records in DIR instead of .hexmask inside the output folder, so "
      + "that a folder you publish holds only pictures. A record is a file named after its "
      + "output holding a digest of the input's size and time and of the options, and the "
      + "output's side, size and time. Give each output folder its own DIR. DIR is made if "
      + "missing, as the output folder is, and never searched for inputs; a record replaces "
      + "only a record, never a link or another file at its path.",
    group: .batch, defaultValue: "the output folder's .hexmask"),
  OptionDescription(
    long: "jobs", short: "j",
    value: .wholeNumber(named: "N", in: 1...1024) { $0.batch.jobs = $1 },
    help: "Use N threads: N files at once in batch mode, else N bands of one PNG deflated "
      + "at once. The output bytes are the same whatever N.",
    group: .general, defaultValue: "the cores hexmask may use"),
  OptionDescription(
    long: "shard",
    value: .shard(named: "I/N") { $0.batch.shard = $1 },
    help: "Render only shard I of N (0 ≤ I < N): the inputs whose path inside their folder "
      + "(or as listed) hashes to I, with all their sizes. Stable across machines, listing "
      + "orders and options; N runs with 0/N … N-1/N make every output once, without "
      + "talking to each other.",
    group: .batch),
  OptionDescription(
    long: "force",
    value: .flag { $0.batch.overwrite = true },
    help: "Rebuild outputs that are up to date instead of skipping them; replace an existing "
      + "output that hexmask did not make (without its mark or a rerun record), or a read-only "
      + "one of yours. Never another user's file: replacing keeps the owner.",
    group: .batch),
  OptionDescription(
    long: "dry-run",
    value: .flag { $0.batch.dryRun = true },
    help: "List each input and the output it would write (status 'planned' with --json), "
      + "check for conflicts, fail each output the run would refuse to replace (one hexmask "
      + "did not make), and write nothing.",
    group: .batch),
  OptionDescription(
    long: "verbose",
    value: .flag { $0.batch.verbosity = .verbose },
    help: "Print a line on standard error for every file.",
    group: .batch),
  OptionDescription(
    long: "quiet", short: "q",
    value: .flag { $0.batch.verbosity = .quiet },
    help: "Print nothing on standard error but errors: no warnings, notes, progress or "
      + "summary. Works for one file too.",
    group: .general),
  OptionDescription(
    long: "json",
    value: .flag { $0.batch.json = true },
    help: "Print one JSON object per file on standard output, in input order: input, output, "
      + "status (written, skipped or failed), reason (new, changed or forced), error, width, "
      + "height, milliseconds, warnings "
      + "(a list, usually empty: a damaged input, a colour profile left out), crop (the square of the input shown: "
      + "x, y, side) and, with --gravity face, faces (how many were found); with --face-size, "
      + "framing (face, group, or attention where no face was found); for an animated output, "
      + "frames, duration_ms and loop (plays in all, 0 forever).",
    group: .batch),
  OptionDescription(
    long: "help", short: "h",
    value: .flag { $0.action = .showHelp },
    help: "Show this help and exit.",
    group: .general),
  OptionDescription(
    long: "version",
    value: .flag { $0.action = .showVersion },
    help: "Show the version and exit.",
    group: .general),
  OptionDescription(
    long: "completions",
    value: .choice(of: Shell.self) { $0.action = .showCompletions($1) },
    help: "Print the tab-completion script for that shell and exit. make install installs "
      + "all three.",
    group: .general),
  OptionDescription(
    long: "man",
    value: .flag { $0.action = .showManPage },
    help: "Print the manual page (roff) and exit. make install installs it as hexmask(1).",
    group: .general),
]

/// A colour as `--help` names it: its CSS name when it has one, else `#rrggbbaa`.
func colorName(_ color: RGBAColor) -> String {
  RGBAColor.named.filter { $0.value == color }.map(\.key).sorted().first
    ?? "#"
    + [color.red, color.green, color.blue, color.alpha].map {
      zeroPadded(Int($0), digits: 2, radix: 16)
    }.joined()
}

/// The library's default crop, as `--gravity` names it.
private let defaultGravity: String = {
  if case .gravity(let gravity) = HexMask.Output().crop { return gravity.rawValue }
  return "center"
}()
