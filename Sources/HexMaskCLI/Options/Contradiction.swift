import HexMask

/// Options, or an option and an output name, that contradict each other: a usage error
/// (exit 2) found before anything is read or written. Every case's words live here.
///
/// ```swift
/// Contradiction.colorsNotPNG(.jpeg).words
/// // "--colors writes a palette PNG, and JPEG output has none; drop --colors, or write a .png"
/// ```
enum Contradiction: Equatable, Sendable {
  /// `--gravity` and `--focus` were both given.
  case gravityAndFocus
  /// `--face-size` without `--gravity face`: with another `--gravity` word (nil: none).
  case faceSizeWithoutFaceGravity(GravityWord?)
  /// `--face-size` with `--focus`, which places the square itself.
  case faceSizeAndFocus
  /// `--format` names another format than the output name `name` (`named`).
  case formatAndName(OutputFormat, name: String, named: OutputFormat)
  /// A `--name` template ends in `.ext`, which names no format hexmask writes.
  case templateNamesNoFormat(template: String, ext: String)
  /// `--mask-only` in a batch whose `--format` or `--name` asks for another format.
  case maskNotPNG(OutputFormat)
  /// A `--background` that is not opaque for a JPEG output.
  case backgroundNotOpaque
  /// `--colors` for an output of a format with no palette.
  case colorsNotPNG(OutputFormat)
  /// A batch output name `output`, made by `--name template`, ends in `.ext`, which names no
  /// format hexmask writes.
  case outputNamesNoFormat(output: String, template: String, ext: String)
  /// `--format` contradicts a batch output name made by `--name template` (`named`).
  case formatAndOutputName(OutputFormat, output: String, template: String, named: OutputFormat)
  /// A batch output name made by `--name template` is a JPEG name, and `--background` is
  /// not opaque.
  case backgroundAndJPEGName(output: String, template: String)
  /// `option` (`--mask-only`, `--colors`) writes a PNG, and a batch output name made by
  /// `--name template` is a `format` name.
  case pngOptionAndName(option: String, output: String, template: String, format: OutputFormat)

  /// What the library's rule (``HexMask/Output/Choices/kind(for:)``) refuses, for a batch
  /// output name `output` made by `--name template`.
  case outputNameRefused(OutputError, output: String, template: String)
  /// What the library's rule refuses for one output, or for a batch's `--format` or
  /// literal `--name` extension.
  case refused(OutputError)

  /// The one-line message.
  var words: String {
    switch self {
    case .gravityAndFocus: "--gravity and --focus both choose the square; give only one"
    case .faceSizeWithoutFaceGravity(let word?):
      "--face-size frames the face that --gravity face finds, and --gravity \(word.rawValue) "
        + "finds none; use --gravity face, or drop --face-size"
    case .faceSizeWithoutFaceGravity(nil):
      "--face-size frames the face that --gravity face finds; add --gravity face, or drop "
        + "--face-size"
    case .faceSizeAndFocus:
      "--face-size frames the face that --gravity face finds, and --focus places the square "
        + "itself; use --gravity face instead of --focus, or drop --face-size"
    case .formatAndName(let format, let name, let named):
      "--format \(format.rawValue) contradicts the name \(quotedName(name)), \(named.aName); "
        + "drop one, or name a .\(format.fileExtension) file"
    case .templateNamesNoFormat(let template, let ext):
      "--name \(quotedName(template)) ends in '.\(ext)', which is not a format hexmask writes: "
        + "use \(OutputFormat.nameExtensions), or --format"
    case .maskNotPNG(let format):
      "--mask-only writes a gray PNG, and \(format.displayName) output cannot hold it; "
        + "drop one, or write .png files"
    case .backgroundNotOpaque:
      "--background must be opaque for JPEG output, which has no transparency; "
        + "use WebP or PNG to keep it"
    case .colorsNotPNG(let format):
      "--colors writes a palette PNG, and \(format.displayName) output has none; "
        + "drop --colors, or write a .png"
    case .outputNamesNoFormat(let output, let template, let ext):
      "the output name \(quotedName(output))\(made(template)) ends in '.\(ext)', which is not "
        + "a format hexmask writes; give --name the extension, or --format"
    case .formatAndOutputName(let format, let output, let template, let named):
      "--format \(format.rawValue) contradicts the output name \(quotedName(output))"
        + "\(made(template)), \(named.aName); give --name the .\(format.fileExtension) extension"
    case .backgroundAndJPEGName(let output, let template):
      "--background must be opaque for JPEG output, and the output name "
        + "\(quotedName(output))\(made(template)) is a JPEG name; give --name another extension"
    case .pngOptionAndName(let option, let output, let template, let format):
      "\(option) writes a PNG, and the output name \(quotedName(output))\(made(template)) is "
        + "\(format.aName); give --name the .png extension"
    case .refused(let error): Self.refusal(error)
    case .outputNameRefused(let error, let output, let template):
      Self.refusal(error, output: output, template: template)
    }
  }

  /// The words of ``refused(_:)``, which the library's rule throws: each of its errors in the
  /// options' words.
  private static func refusal(_ error: OutputError) -> String {
    switch error {
    case .backgroundNotOpaque: backgroundNotOpaque.words
    case .maskMustBePNG(let format): maskNotPNG(format).words
    case .unusedField(.colors, let format): colorsNotPNG(format).words
    case .tooManyPixels, .tooLargeForFormat, .unusedField, .faceSizeWithoutFaces: error.words
    }
  }

  /// The words of ``outputNameRefused(_:output:template:)``.
  private static func refusal(_ error: OutputError, output: String, template: String) -> String {
    let option: String
    let format: OutputFormat
    switch error {
    case .backgroundNotOpaque:
      return backgroundAndJPEGName(output: output, template: template).words
    case .maskMustBePNG(let named): (option, format) = ("--mask-only", named)
    case .unusedField(.colors, let named): (option, format) = ("--colors", named)
    case .tooManyPixels, .tooLargeForFormat, .unusedField, .faceSizeWithoutFaces:
      return error.words
    }
    return pngOptionAndName(option: option, output: output, template: template, format: format)
      .words
  }

  private func made(_ template: String) -> String { " (from --name \(quotedName(template)))" }
}
