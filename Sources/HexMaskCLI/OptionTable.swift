import HexMask

/// The version `--version` prints.
let hexmaskVersion = "0.1.0"

/// Every option `hexmask` understands, in the order `--help` lists them within a group.
///
/// The parser, the usage line and `--help` all read this table, so they cannot disagree;
/// add an option here and it is parsed and documented.
let optionTable: [OptionDescription] = [
  OptionDescription(
    long: "sides",
    value: .wholeNumber(named: "N", in: 3...64) { $0.options.sides = $1 },
    help: "Number of sides of the polygon, from 3 to 64.",
    group: .shape, defaultValue: "6"),
  OptionDescription(
    long: "corner",
    value: .pixels(named: "PX") { $0.options.cornerRadius = $1 },
    help: "Corner radius in pixels; 0 gives sharp corners.",
    group: .shape, defaultValue: "10, less on small images"),
  OptionDescription(
    long: "line",
    value: .pixels(named: "PX") { $0.options.lineWidth = $1 },
    help: "Width of the border in pixels; 0 draws no border.",
    group: .shape, defaultValue: "5, less on small images"),
  OptionDescription(
    long: "rotation",
    value: .degrees(named: "DEG") { $0.options.rotationDegrees = $1 },
    help: "Angle of one corner in degrees, clockwise from the right; 90 puts a corner at "
      + "the bottom.",
    group: .shape, defaultValue: "90"),
  OptionDescription(
    long: "layout",
    value: .choice(of: Layout.self) { $0.options.layout = $1 },
    help: "Where the shape sits: 'centered' centres it and shows the whole border; 'seed' "
      + "places it exactly like the original iOS code, which shows only the inner half of "
      + "the border.",
    group: .shape, defaultValue: "centered"),
  OptionDescription(
    long: "border-color",
    value: .color(named: "COLOR") { $0.options.borderColor = $1 },
    help: "Colour of the border: #rgb, #rrggbb, #rrggbbaa or a CSS colour name such as "
      + "'black' or 'transparent'.",
    group: .output, defaultValue: "white"),
  OptionDescription(
    long: "strip",
    value: .flag { $0.options.keepColorProfile = false },
    help: "Leave out the input's ICC colour profile too. (Other metadata — EXIF, GPS, XMP, "
      + "comments — is never copied.)",
    group: .output),
  OptionDescription(
    long: "no-rotate",
    value: .flag { $0.options.autoOrient = false },
    help: "Keep the stored pixel order instead of turning the picture upright as its EXIF "
      + "orientation says.",
    group: .input),
  OptionDescription(
    long: "max-pixels",
    value: .wholeNumber(named: "N", in: 1...Int.max) { $0.options.maxPixels = $1 },
    help: "Refuse images with more pixels than this, checked before decoding; a guard "
      + "against decompression bombs.",
    group: .input, defaultValue: "268402689"),
  OptionDescription(
    long: "strict",
    value: .flag { $0.options.strict = true },
    help: "Treat decoder warnings (a truncated JPEG, a malformed colour profile) as errors "
      + "instead of writing what could be decoded.",
    group: .input),
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
]

/// The positional arguments, as the usage line and messages name them.
let positionalNames = ["INPUT", "OUTPUT"]

/// Examples printed at the end of `--help`, each a command and what it does.
let helpExamples: [(command: String, purpose: String)] = [
  ("hexmask in.jpg out.png --corner 10 --line 5", "A hexagon with the original's look."),
  (
    "hexmask photo.png avatar.png --sides 8 --border-color '#1e90ff'",
    "An octagon with a blue border."
  ),
  ("hexmask in.jpg out.png --layout seed", "Exactly what the original iOS code draws."),
]

/// What `hexmask` does, in one sentence, for the top of `--help`.
let commandSummary =
  "Cuts a photo into a rounded polygon (a hexagon by default) with a smooth, anti-aliased "
  + "edge and a border, and writes it as a PNG with transparency."
