import HexMask

/// The first output of a batch whose name contradicts what the options make of it, as a
/// usage error to report before anything is written; nil when there is none.
///
/// A `--name` with a literal extension is checked when the command is parsed; one that takes
/// the input's (`'{name}.{ext}'`) is known only here. Then `--format avif` would put AVIF
/// bytes in `photo.jpg`, and `--colors` or `--mask-only` would meet a JPEG name: each is
/// the contradiction `--format png out.jpg` is for one file.
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
    let named = fileExtension(of: item.output).flatMap(OutputFormat.init(fileExtension:))
    let made = " (from --name \(quotedName(template)))"
    if let format = options.format, let named, named != format {
      return .contradiction(
        "--format \(format.rawValue) contradicts the output name \(quotedName(item.output))"
          + "\(made), a \(named.displayName) name; give --name the .\(format.fileExtension) "
          + "extension")
    }
    let format = options.format ?? named ?? .png
    guard format != .png else { continue }
    let option = output.maskOnly ? "--mask-only" : output.colors != nil ? "--colors" : nil
    if let option {
      return .contradiction(
        "\(option) writes a PNG, and the output name \(quotedName(item.output))\(made) is a "
          + "\(format.displayName) name; give --name the .png extension")
    }
  }
  return nil
}
