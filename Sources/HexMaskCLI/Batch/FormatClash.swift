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
  for item in items where item.problem == nil {
    let ext = fileExtension(of: item.output)
    let named = ext.flatMap(OutputFormat.init(fileExtension:))
    if options.format == nil, let ext, named == nil {
      return .contradiction(
        .outputNamesNoFormat(output: item.output, template: template, ext: ext))
    }
    if let format = options.format, let named, named != format {
      return .contradiction(
        .formatAndOutputName(format, output: item.output, template: template, named: named))
    }
    // The library's rule says what contradicts the kind of this file.
    do throws(OutputError) {
      _ = try options.choices.kind(for: options.format ?? named ?? .png)
    } catch {
      return .contradiction(
        .outputNameRefused(error, output: item.output, template: template))
    }
  }
  return nil
}
