import HexMask

extension Job {
  /// The format of the picture this job writes, as the command line decides it: `--format`,
  /// else OUTPUT's extension for one file, PNG in a batch. Nil when no picture is written
  /// (only an SVG), or when the render will refuse the job anyway (a name that names no
  /// format, a mask asked for in another format than PNG).
  var pictureFormat: OutputFormat? {
    let format: OutputFormat?
    switch action {
    case .render, .renderMask: format = options.format ?? OutputFormat(forPath: output)
    case .renderBatch:
      // A --name that takes the input's extension writes as many formats as there are:
      // nothing can be said of one format's options.
      if options.format == nil, let template = batch.nameTemplate,
        template.literalExtension == nil, template.text.contains("{ext}")
      {
        return nil
      }
      let named = batch.nameTemplate?.literalExtension.flatMap {
        OutputFormat(fileExtension: $0)
      }
      format = options.format ?? named ?? .png
    default: format = nil
    }
    guard !options.output.maskOnly || format == .png else { return nil }
    return format
  }

  /// One warning, without the `hexmask: warning: ` prefix, for each option given on the
  /// command line that changes nothing in what is written: `--quality` for PNG and
  /// lossless WebP or AVIF, `--lossless` for PNG and JPEG, `--compression` for JPEG, WebP
  /// and AVIF, `--no-upscale` without `--size`, `--dither` without `--colors`, the
  /// picture's options (`--background`, `--focus`,
  /// `--gravity`, `--border-color`, `--strip`, `--no-rotate`) for a mask, `--gravity` and
  /// `--focus` with `--layout seed` (always the top-left square), `--border-color` with no
  /// border, the picture's options when only an SVG is written, `-0` without a list to
  /// separate, and an `--out-dir`, `--svg` or
  /// `--files-from` a later one replaced. A user who typed one expected it to
  /// matter, so saying it does not is worth a line.
  ///
  /// ```swift
  /// try Job(parsing: ["in.jpg", "out.png", "--quality", "80"]).ineffectiveOptionWarnings
  /// // ["--quality has no effect on PNG output"]
  /// ```
  var ineffectiveOptionWarnings: [String] {
    formatWarnings + otherWarnings
  }

  private var formatWarnings: [String] {
    guard let format = pictureFormat else { return [] }
    let canBeLossless = format == .webp || format == .avif
    let lossless = canBeLossless && options.output.lossless == true
    var unused: [String] = []
    if format == .png || lossless { unused.append("quality") }
    if !canBeLossless { unused.append("lossless") }
    if format != .avif { unused.append("effort") }
    if format != .png { unused.append("compression") }
    let output = lossless ? "lossless \(format.displayName)" : format.displayName
    return unused.filter(givenOptions.contains).map { "--\($0) has no effect on \(output) output" }
  }

  private var otherWarnings: [String] {
    guard Self.writesFiles.contains(action) else { return [] }
    var warnings: [String] = []
    func given(_ option: String) -> Bool { givenOptions.contains(option) }
    if action == .writeShape {
      // Only the SVG is written: no picture is read, cropped or encoded.
      for option in Self.pictureOnlyOptions where given(option) {
        warnings.append("--\(option) has no effect when only an SVG is written")
      }
    } else if given("dither") && options.output.colors == nil {
      warnings.append("--dither has no effect without --colors")
    }
    if given("no-upscale") && options.sizes.isEmpty {
      warnings.append("--no-upscale has no effect without --size")
    }
    if options.output.maskOnly {
      for option in ["background", "focus", "gravity", "border-color", "strip", "no-rotate"]
      where given(option) {
        warnings.append("--\(option) has no effect with --mask-only")
      }
    } else if options.shape.layout == .seed && action != .writeShape {
      // The seed layout always takes the top-left square, as the original does.
      for option in ["focus", "gravity"] where given(option) {
        warnings.append("--\(option) has no effect with --layout seed")
      }
    }
    if given("border-color"), let line = options.shape.line,
      line == .pixels(0) || line == .percent(0)
    {
      warnings.append("--border-color has no effect with --line 0")
    }
    if action == .renderBatch && batch.nulSeparated && batch.listFile == nil {
      warnings.append("-0 (--null) has no effect without --files-from")
    }
    for replaced in replacedFiles {
      let option = replaced.option
      let later =
        switch option {
        case "out-dir": batch.outputFolder
        case "svg": svgOutput
        default: batch.listFile
        }
      warnings.append(
        "--\(option) \(quotedName(replaced.file)) has no effect: a later --\(option) "
          + "\(quotedName(later ?? "")) replaces it")
    }
    return warnings
  }

  /// The options that act on a picture's pixels, crop or encoding, none of which an SVG of
  /// the shape has.
  private static let pictureOnlyOptions = [
    "format", "quality", "lossless", "effort", "compression", "colors", "dither", "background",
    "focus", "gravity", "strip", "no-rotate", "no-upscale", "mask-only", "strict", "memory-limit",
  ]

  /// The actions that write pictures or shapes, which the warnings are about.
  private static let writesFiles: [Action] = [.render, .renderBatch, .renderMask, .writeShape]
}
