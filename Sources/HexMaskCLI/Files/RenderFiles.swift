import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything one render needs, as the command line gathered it: the library's three values,
/// the sizes, and the format asked for (nil: each output's extension decides).
struct RenderSettings: Equatable, Sendable {
  var shape = HexMask.Shape()
  /// Everything about the outputs but their size (`output.size` is set for each one from
  /// `sizes`) and their kind, which each output's format makes from ``choices``.
  var output = HexMask.Output()
  /// `--quality`, `--lossless`, `--effort`, `--compression`, `--colors`, `--dither`,
  /// `--background`, `--mask-only`: the library's rule makes each output's kind of them.
  var choices = HexMask.Output.Choices()
  var input = HexMask.Input()
  /// `--format`; nil lets the output's name decide.
  var format: OutputFormat?
  /// `--memory-limit` in bytes; nil: `defaultMemoryLimit()`. A run turns it into the one
  /// `input.memoryBudget` all its renders share.
  var memoryLimit: Int?
  /// `--size`: the side of each output, all made from one decode; empty makes one output
  /// at the square's own size.
  var sizes: [Int] = []

  /// The size of each output: `sizes`, or one nil (the square's own size).
  var outputSizes: [Int?] { sizes.isEmpty ? [nil] : sizes }

  /// The settings that make the one output of `size`, as a rerun record describes it: the
  /// size in `output.size`, and no list, so adding a size to the list leaves the records
  /// of the others valid.
  func forOutput(size: Int?) -> RenderSettings {
    var settings = self
    settings.sizes = []
    settings.output.size = size
    return settings
  }

  /// The format of the file `path`: `--format`, or its extension.
  func format(for path: String) throws(FileFailure) -> OutputFormat {
    guard let format = format ?? OutputFormat(forPath: path) else {
      throw FileFailure(file: path, .unknownFormat)
    }
    return format
  }

  /// The output settings for a `format` file, its kind made by the library's rule from
  /// ``choices``, without the options that kind does not use (the command warns about
  /// those once, before rendering, and goes on).
  ///
  /// - Throws: what contradicts the kind, as ``HexMask/Output/Choices/kind(for:)`` says.
  func output(format: OutputFormat) throws(OutputError) -> HexMask.Output {
    var output = output
    output.kind = try choices.kind(for: format).kind
    return output
  }
}

/// What rendering one file did: the library's ``HexMask/Report`` (the one report of every
/// render), its warnings in the command's words, and the file put in place (nil for
/// standard output, a FIFO or a device), which a batch records for reruns.
struct RenderedFile: Equatable, Sendable {
  /// The library's report; its warnings are in ``warnings``, with the command's own.
  var report: HexMask.Report
  /// The library's warnings, then the command's own about this file.
  var warnings: [FileWarning]
  var stamp: FileStamp?

  var side: Int {
    get { report.side }
    set { report.side = newValue }
  }
  /// The square of the upright input the output shows; nil for a mask.
  var crop: HexMask.Crop? {
    get { report.crop }
    set { report.crop = newValue }
  }
  /// The faces `--gravity face` found; nil for the other crops.
  var faces: [HexMask.Face]? {
    get { report.faces }
    set { report.faces = newValue }
  }
  /// What the input was, which a rerun record keeps; nil for a mask.
  var picture: HexMask.PictureFacts? {
    get { report.picture }
    set { report.picture = newValue }
  }
  /// How `--face-size` framed the square; nil without it.
  var framing: HexMask.Framing? {
    get { report.framing }
    set { report.framing = newValue }
  }
  /// The input's colour profile and what was done with it; nil without one.
  var colour: HexMask.ColourReport? {
    get { report.colour }
    set { report.colour = newValue }
  }
  /// The frames of an animated output and how they play; nil for a still.
  var animation: HexMask.Animation? {
    get { report.animation }
    set { report.animation = newValue }
  }

  init(
    side: Int, warnings: [FileWarning], stamp: FileStamp?, crop: HexMask.Crop? = nil,
    faces: [HexMask.Face]? = nil, picture: HexMask.PictureFacts? = nil,
    framing: HexMask.Framing? = nil, colour: HexMask.ColourReport? = nil,
    animation: HexMask.Animation? = nil
  ) {
    report = HexMask.Report(
      side: side, warnings: [], crop: crop, faces: faces, picture: picture, framing: framing,
      colour: colour, animation: animation)
    self.warnings = warnings
    self.stamp = stamp
  }

  /// What the library's `report` of a `mask` output or a picture says.
  init(report: HexMask.Report, stamp: FileStamp?, mask: Bool) {
    self.report = report
    self.report.warnings = []
    warnings = report.warnings.map { FileWarning($0, mask: mask) }
    self.stamp = stamp
  }
}

/// Reads `input` and writes `output` (`-` for standard input or output) through the library,
/// at the first of `settings.sizes` (or the square's own size).
///
/// ```swift
/// let rendered = try renderFile(input: "in.jpg", output: "out.png", settings: settings)
/// ```
func renderFile(input: String, output: String, settings: RenderSettings) throws(FileFailure)
  -> RenderedFile
{
  let outputs = [SizedFile(path: output, size: settings.sizes.first)]
  return try renderFile(input: input, outputs: outputs, settings: settings)[0]
}

/// Reads `input` once and writes each of `outputs` at its size (see
/// ``HexMask/render(from:toEach:shape:output:input:)``).
/// Each output appears only when complete (see ``OutputFile``), and none appears when any
/// fails; the input is never touched. Every output takes the format of the first one's name
/// (they come from one name, differing only in `{size}`).
func renderFile(input: String, outputs: [SizedFile], settings: RenderSettings)
  throws(FileFailure) -> [RenderedFile]
{
  guard let first = outputs.first else { return [] }
  if input != "-", let inputKey = FileKey(existing: input),
    let clash = outputs.first(where: { $0.path != "-" && FileKey(existing: $0.path) == inputKey })
  {
    throw FileFailure(
      file: clash.path, reason: "output is the input file; refusing to overwrite it")
  }
  let format = try settings.format(for: first.path)
  let source = try InputFile(path: input)
  var destinations: [OutputFile] = []
  for output in outputs { destinations.append(try OutputFile(path: output.path)) }
  let outputSettings: HexMask.Output
  do throws(OutputError) {
    outputSettings = try settings.output(format: format)
  } catch {
    throw FileFailure(file: destinations[0].name, .image(.output(error)))
  }
  let reports: [HexMask.Report]
  do throws(HexMask.TargetedError) {
    reports = try HexMask.renderTargets(
      from: fileno(source.stream),
      to: zip(outputs, destinations).map { ($0.size, fileno($1.stream)) },
      shape: settings.shape, output: outputSettings, input: settings.input)
  } catch {
    let output = destinations[error.target ?? 0].name
    throw FileFailure(
      file: blamed(error.error, input: source.name, output: output), .image(error.error)
    ).typed(as: settings.shape)
  }
  // Spools first: a full device then fails before any file is put in place, so the sizes
  // appear all together or not at all.
  var stamps: [FileStamp?] = Array(repeating: nil, count: destinations.count)
  for index in destinations.indices.sorted(by: {
    destinations[$0].isSpooled && !destinations[$1].isSpooled
  }) {
    stamps[index] = try destinations[index].commit()
  }
  return zip(reports, stamps).map {
    RenderedFile(report: $0, stamp: $1, mask: settings.choices.maskOnly)
  }
}

/// Writes the mask of a `--size` canvas to `output`, without a picture.
func renderMaskFile(output: SizedFile, settings: RenderSettings) throws(FileFailure)
  -> RenderedFile
{
  guard let side = output.size else {
    throw FileFailure(file: output.path, reason: "a mask without an input needs --size")
  }
  let format = try settings.format(for: output.path)
  let destination = try OutputFile(path: output.path)
  let outputSettings: HexMask.Output
  do throws(OutputError) {
    outputSettings = try settings.output(format: format)
  } catch {
    throw FileFailure(file: destination.name, .image(.output(error)))
  }
  let report: HexMask.Report
  do throws(HexMask.Error) {
    report = try HexMask.renderMask(
      side: side, to: fileno(destination.stream), shape: settings.shape, output: outputSettings,
      input: settings.input)
  } catch {
    throw FileFailure(file: destination.name, .image(error)).typed(as: settings.shape)
  }
  return RenderedFile(report: report, stamp: try destination.commit(), mask: true)
}

/// Writes the shape of a `side` canvas as SVG to `path` (`-` for standard output),
/// atomically.
func writeSVGFile(side: Int, shape: HexMask.Shape, to path: String) throws(FileFailure) {
  let text: String
  do throws(HexMask.Error) {
    text = try HexMask.svg(side: side, shape: shape)
  } catch {
    throw FileFailure(file: path == "-" ? "<stdout>" : path, .image(error)).typed(as: shape)
  }
  let destination = try OutputFile(path: path)
  guard fputs(text, destination.stream) >= 0 else {
    throw FileFailure(file: destination.name, reason: "cannot write: \(systemError())")
  }
  try destination.commit()
}

/// The file a library error is about, by the stage that failed: the output's stages blame
/// the output, the input's the input.
private func blamed(_ error: HexMask.Error, input: String, output: String) -> String {
  switch error {
  case .output, .encoding: output
  case .decoding, .shape, .warningInStrictMode, .invalidValue: input
  }
}
