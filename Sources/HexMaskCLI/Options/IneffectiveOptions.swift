import HexMask

extension Job {
  /// The format of the picture this job writes, as the command line decides it: `--format`,
  /// else OUTPUT's extension for one file, PNG in a batch. Nil when no picture is written
  /// (only an SVG), or when the render will refuse the job anyway (a name that names no
  /// format, a mask asked for in another format than PNG).
  var pictureFormat: OutputFormat? {
    guard let format = namedFormat, !options.choices.maskOnly || format == .png else { return nil }
    return format
  }

  /// The format the options and names ask for, as ``pictureFormat`` but also when a mask is
  /// asked for in it.
  var namedFormat: OutputFormat? {
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
    return format
  }

  /// One warning, without the `hexmask: warning: ` prefix, for each option given on the
  /// command line that changes nothing in what is written: `--quality` for PNG and
  /// lossless WebP or AVIF, `--lossless` for PNG and JPEG, `--compression` for JPEG, WebP
  /// and AVIF, `--no-upscale` without `--size`, `--dither` without `--colors`, the
  /// picture's options (`--background`, `--focus`,
  /// `--gravity`, `--border-color`, `--strip`, `--no-rotate`, `--frame`) for a mask, `--gravity` and
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
  var ineffectiveOptionWarnings: [String] { ineffectiveOptions.map(\.words) }

  /// The options ``ineffectiveOptionWarnings`` is about, typed, in the order it says them.
  var ineffectiveOptions: [IneffectiveOption] {
    formatWarnings + otherWarnings
  }

  /// The encoding options the library's rule (``HexMask/Output/Choices/kind(for:)``) leaves
  /// unused for this job's format; `--dither` and `--background` are said below in words
  /// that name what is missing.
  private var formatWarnings: [IneffectiveOption] {
    guard let format = pictureFormat,
      let (kind, unused) = try? options.choices.kind(for: format)
    else { return [] }
    let lossless =
      switch kind {
      case .webp(let webp): webp.quality == .lossless
      case .avif(let avif): avif.quality == .lossless
      case .jxl(let jxl): jxl.quality == .lossless
      case .png, .jpeg, .mask: false
      }
    let said: [HexMask.Output.Field] = [.quality, .lossless, .effort, .compression]
    return unused.filter { said.contains($0) && givenOptions.contains($0.rawValue) }.map {
      .unusedByFormat(option: $0.rawValue, format: format, lossless: lossless)
    }
  }

  private var otherWarnings: [IneffectiveOption] {
    guard Self.writesFiles.contains(action) else { return [] }
    var warnings: [IneffectiveOption] = []
    func given(_ option: String) -> Bool { givenOptions.contains(option) }
    if action == .writeShape {
      // Only the SVG is written: no picture is read, cropped or encoded.
      for option in Self.pictureOnlyOptions where given(option) {
        warnings.append(.onlySVG(option: option))
      }
    } else if given("dither"),
      // Whatever the format: a PNG's when it is not known yet.
      let (_, unused) = try? options.choices.kind(for: pictureFormat ?? .png),
      unused.contains(.dither)
    {
      warnings.append(.ditherWithoutColors)
    }
    if given("no-upscale") && options.sizes.isEmpty {
      warnings.append(.noUpscaleWithoutSize)
    }
    if given("colorspace") && options.output.colorSpace == .keep
      && !options.output.keepColorProfile
    {
      warnings.append(.keepWithStrip)
    }
    if options.choices.maskOnly {
      for option in [
        "background", "focus", "gravity", "face-size", "border-color", "strip", "colorspace",
        // Every frame of an animation has the same mask.
        "no-rotate", "frame",
      ]
      where given(option) {
        warnings.append(.withMaskOnly(option: option))
      }
    } else if options.shape.layout == .seed && action != .writeShape {
      // The seed layout always takes the top-left square, as the original does.
      for option in ["focus", "gravity", "face-size"] where given(option) {
        warnings.append(.withSeedLayout(option: option))
      }
    }
    if given("border-color"), let line = options.shape.line,
      line == .pixels(0) || line == .percent(0)
    {
      warnings.append(.borderColorWithoutBorder)
    }
    if action == .renderBatch && batch.nulSeparated && batch.listFile == nil {
      warnings.append(.nullWithoutList)
    }
    for replaced in replacedValues {
      warnings.append(.replaced(option: replaced.option, value: replaced.value, by: replaced.by))
    }
    return warnings
  }

  /// The options that act on a picture's pixels, crop or encoding, none of which an SVG of
  /// the shape has.
  private static let pictureOnlyOptions = [
    "format", "quality", "lossless", "effort", "compression", "colors", "dither", "background",
    "focus", "gravity", "face-size", "strip", "colorspace", "no-rotate", "no-upscale",
    "mask-only", "strict",
    "memory-limit", "frame",
  ]

  /// The actions that write pictures or shapes, which the warnings are about.
  private static let writesFiles: [Action] = [.render, .renderBatch, .renderMask, .writeShape]
}

/// An option given on the command line that changes nothing in what is written, said as a
/// warning. Every case's words live here.
enum IneffectiveOption: Equatable, Sendable {
  /// `--option` (`quality`, `lossless`, `effort`, `compression`) is unused by a `format`
  /// output (`lossless`: a lossless WebP or AVIF).
  case unusedByFormat(option: String, format: OutputFormat, lossless: Bool)
  /// A picture's `--option` when only an SVG is written.
  case onlySVG(option: String)
  case ditherWithoutColors
  case noUpscaleWithoutSize
  /// `--colorspace keep` with `--strip`, which converts to sRGB whatever it says.
  case keepWithStrip
  /// A picture's `--option` with `--mask-only`.
  case withMaskOnly(option: String)
  /// `--focus` or `--gravity` with `--layout seed`, which always takes the top-left square.
  case withSeedLayout(option: String)
  case borderColorWithoutBorder
  case nullWithoutList
  /// `--option value`, which a later `--option later` replaced.
  case replaced(option: String, value: String, by: String)

  /// The warning, without the `hexmask: warning: ` prefix.
  var words: String {
    switch self {
    case .unusedByFormat(let option, let format, let lossless):
      "--\(option) has no effect on \(lossless ? "lossless " : "")\(format.displayName) output"
    case .onlySVG(let option): "--\(option) has no effect when only an SVG is written"
    case .ditherWithoutColors: "--dither has no effect without --colors"
    case .noUpscaleWithoutSize: "--no-upscale has no effect without --size"
    case .keepWithStrip: "--colorspace keep has no effect with --strip, which converts to sRGB"
    case .withMaskOnly(let option): "--\(option) has no effect with --mask-only"
    case .withSeedLayout(let option): "--\(option) has no effect with --layout seed"
    case .borderColorWithoutBorder: "--border-color has no effect with --line 0"
    case .nullWithoutList: "-0 (--null) has no effect without --files-from"
    case .replaced(let option, let value, let later):
      "--\(option) \(quotedName(value)) has no effect: a later --\(option) "
        + "\(quotedName(later)) replaces it"
    }
  }
}
