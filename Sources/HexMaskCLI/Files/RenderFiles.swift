import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything one render needs, as the command line gathered it: the library's three values,
/// and the format asked for (nil: each output's extension decides).
struct RenderSettings: Equatable, Sendable {
  var shape = HexMask.Shape()
  var output = HexMask.Output()
  var input = HexMask.Input()
  /// `--format`; nil lets the output's name decide.
  var format: OutputFormat?

  /// The output settings for the file `path`: its format from `--format` or its extension.
  func output(for path: String) throws(FileFailure) -> HexMask.Output {
    guard let format = format ?? OutputFormat(forPath: path) else {
      throw FileFailure(file: path, .unknownFormat)
    }
    var output = output
    output.format = format
    return output
  }
}

/// What rendering one file did: the library's report, and the file put in place (nil for
/// standard output, a FIFO or a device), which a batch records for reruns.
struct RenderedFile: Equatable, Sendable {
  var report: HexMask.Report
  var stamp: FileStamp?
}

/// Reads `input` and writes `output` (`-` for standard input or output) through the library.
/// The output appears only when complete (see ``OutputFile``); the input is never touched.
///
/// ```swift
/// let rendered = try renderFile(input: "in.jpg", output: "out.png", settings: settings)
/// ```
func renderFile(input: String, output: String, settings: RenderSettings) throws(FileFailure)
  -> RenderedFile
{
  if input != "-" && output != "-", let key = FileKey(existing: input),
    key == FileKey(existing: output)
  {
    throw FileFailure(file: output, reason: "output is the input file; refusing to overwrite it")
  }
  let outputSettings = try settings.output(for: output)
  let source = try InputFile(path: input)
  let destination = try OutputFile(path: output)
  let report: HexMask.Report
  do throws(HexMask.Error) {
    report = try HexMask.render(
      from: fileno(source.stream), to: fileno(destination.stream), shape: settings.shape,
      output: outputSettings, input: settings.input)
  } catch {
    throw FileFailure(
      file: blamed(error, input: source.name, output: destination.name), .image(error))
  }
  return RenderedFile(report: report, stamp: try destination.commit())
}

/// Writes the mask of a `--size` canvas to `output`, without a picture.
func renderMaskFile(output: String, settings: RenderSettings) throws(FileFailure) -> RenderedFile {
  guard let side = settings.output.size else {
    throw FileFailure(file: output, reason: "a mask without an input needs --size")
  }
  var outputSettings = try settings.output(for: output)
  outputSettings.maskOnly = true
  let destination = try OutputFile(path: output)
  let report: HexMask.Report
  do throws(HexMask.Error) {
    report = try HexMask.renderMask(
      side: side, to: fileno(destination.stream), shape: settings.shape, output: outputSettings,
      input: settings.input)
  } catch {
    throw FileFailure(file: destination.name, .image(error))
  }
  return RenderedFile(report: report, stamp: try destination.commit())
}

/// Writes the shape of a `side` canvas as SVG to `path` (`-` for standard output),
/// atomically.
func writeSVGFile(side: Int, shape: HexMask.Shape, to path: String) throws(FileFailure) {
  let text: String
  do throws(HexMask.Error) {
    text = try HexMask.svg(side: side, shape: shape)
  } catch {
    throw FileFailure(file: path, .image(error))
  }
  let destination = try OutputFile(path: path)
  guard fputs(text, destination.stream) >= 0 else {
    throw FileFailure(file: destination.name, reason: "cannot write: \(systemError())")
  }
  try destination.commit()
}

/// The file a library error is about: the output for encoding and for outputs the format
/// or the pixel limit cannot hold, the input for everything read from it.
private func blamed(_ error: HexMask.Error, input: String, output: String) -> String {
  switch error {
  case .encoding, .shape(.outputTooLarge), .shape(.outputTooLargeForFormat), .shape(.maskMustBePNG):
    output
  case .decoding, .shape, .warningInStrictMode:
    input
  }
}
