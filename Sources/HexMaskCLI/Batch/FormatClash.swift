import HexMask

/// The first output of a batch whose name contradicts what the options make of it, as a
/// usage error to report before anything is written; nil when there is none.
///
/// A `--name` with a literal extension is checked when the command is parsed; one that takes
/// the input's (`'{name}.{ext}'`) is known only here. Then `--format avif` would put AVIF
/// bytes in `photo.jpg`, `--colors` or `--mask-only` would meet a JPEG name, a translucent
/// `--background` a JPEG, and `photo.heic` would name no format hexmask writes: each is
/// what the same option and name are for one file.
///
/// ```swift
/// if let clash = formatClash(in: plan.items, options: job.options, template: "{name}.{ext}") {
///   throw clash
/// }
/// ```
func formatClash(in items: [BatchItem], options: RenderSettings, template: String)
  -> CommandError?
{
  let output = options.output
  for item in items where item.problem == nil {
    let ext = fileExtension(of: item.output)
    let named = ext.flatMap(OutputFormat.init(fileExtension:))
    let made = " (from --name \(quotedName(template)))"
    if options.format == nil, let ext, named == nil {
      return .contradiction(
        "the output name \(quotedName(item.output))\(made) ends in '.\(ext)', which is not a "
          + "format hexmask writes; give --name the extension, or --format")
    }
    if let format = options.format, let named, named != format {
      return .contradiction(
        "--format \(format.rawValue) contradicts the output name \(quotedName(item.output))"
          + "\(made), \(named.aName); give --name the .\(format.fileExtension) extension")
    }
    let format = options.format ?? named ?? .png
    if format == .jpeg, let background = output.background, background.alpha < 255 {
      return .contradiction(
        "--background must be opaque for JPEG output, and the output name "
          + "\(quotedName(item.output))\(made) is a JPEG name; give --name another extension")
    }
    guard format != .png else { continue }
    let option = output.maskOnly ? "--mask-only" : output.colors != nil ? "--colors" : nil
    if let option {
      return .contradiction(
        "\(option) writes a PNG, and the output name \(quotedName(item.output))\(made) is "
          + "\(format.aName); give --name the .png extension")
    }
  }
  return nil
}
