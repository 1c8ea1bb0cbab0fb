import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything that can stop `hexmask`, with the one-line message the user reads and the
/// exit status scripts see. Its messages are worded here; the library's failures inside
/// them are worded in Files/FailureWords.swift, and what each exit status means for
/// `--help` is in ExitStatuses.swift.
///
/// ```swift
/// let error = CommandError.missingValue(option: "--sides")
/// error.message     // "option '--sides' needs a value"
/// error.exitStatus  // 2
/// ```
enum CommandError: Error, Equatable, Sendable {
  /// An argument starts with `-` but names no option; `suggestions` are close option names
  /// (none, one, or two the user may equally have meant).
  case unknownOption(String, suggestions: [String])
  /// An option that takes a value came last.
  case missingValue(option: String)
  /// A flag was written with `=value`.
  case unexpectedValue(option: String)
  /// The value after an option does not fit its kind.
  case invalidValue(String, option: String, kind: ValueKind)
  /// Fewer than two of INPUT and OUTPUT.
  case missingFiles(count: Int)
  /// A file argument that is the empty string.
  case emptyFileName
  /// More than two positional arguments; the first one too many.
  case tooManyArguments(extra: String)
  /// An option that names one output file, given with `--out-dir`.
  case notInBatch(option: String)
  /// OUTPUT and `--svg` both asked for standard output.
  case twoStandardOutputs
  /// An output (`OUTPUT` or `--svg`, named by `role`) is the input file, however spelled.
  case outputIsInput(path: String, role: String)
  /// An output (`OUTPUT` or `--svg`, named by `role`) is a cascade file the face model was
  /// read from (`model`, as named), however spelled.
  case outputIsFaceModel(path: String, role: String, model: String)
  /// `--svg` names the same file as OUTPUT, however spelled.
  case svgIsOutput(path: String)
  /// An output (`OUTPUT` or `--svg`, named by `role`) is standard error, however spelled,
  /// where the messages go.
  case outputIsStandardError(path: String, role: String)
  /// An output names an existing file hexmask did not make (`what` says what it is), and
  /// `--force` was not given.
  case outputNotMadeByHexMask(path: String, what: String)
  /// A picture would be read from or written to a terminal (`reading` tells which).
  case pictureOnTerminal(reading: Bool)
  /// The library could not turn the input into the output.
  case renderFailed(FileFailure)
  /// A `--name` template that cannot name files inside the output folder.
  case invalidTemplate(String, option: String, reason: String)
  /// A batch option without `--out-dir`.
  case needsOutputFolder(option: String)
  /// Options, or an option and a name, that contradict each other.
  case contradiction(Contradiction)
  /// `--out-dir` with neither an INPUT nor `--files-from`.
  case missingInputs
  /// Several `--size`s, and an output name (`role`: OUTPUT, --svg, --name) without `{size}`
  /// to tell their files apart.
  case sizeNotInName(name: String, role: String)
  /// `{size}` in an output name (`role`) without `--size` to fill it in.
  case sizeWithoutSizes(name: String, role: String)
  /// `--size` asks for a picture of more pixels than `--max-pixels` allows.
  case tooManyOutputPixels(side: Int, maxPixels: Int)
  /// `-` among the inputs of a batch.
  case standardInputInBatch
  /// A folder to search that is the output folder itself, which a batch never reads from.
  case inputIsOutputFolder(String)
  /// A folder argument is the `--records` folder, which is never searched.
  case inputIsRecordFolder(String)
  /// The `--files-from` list could not be read.
  case unreadableList(FileFailure)
  /// Inputs that would write the same output, or an output that is an input; nothing was
  /// written. `recursive`: `-r` was given, so the hint does not suggest it.
  case outputConflicts([OutputConflict], recursive: Bool = false)
  /// `--out-dir` names a file, or a folder that cannot be created: said once, nothing read.
  case unusableOutputFolder(FileFailure)
  /// `--name` puts an output (`output`, relative to the output folder) among the rerun
  /// records in `.hexmask/`: a usage error, said before any file is read.
  case nameAmongRecords(output: String, template: String)
  /// The inputs of a batch hold no picture hexmask reads; `skipped` files were not pictures.
  case noPictures(skipped: Int)
  /// Some files of a batch failed (each already reported); the others were written.
  case someFilesFailed(count: Int)
  /// A batch stopped early on SIGINT or SIGTERM, after the running files finished.
  /// `quiet`: `-q` was given, and the exit status says it alone.
  case interrupted(signal: Int32, quiet: Bool = false)
  /// `--gravity face`, and neither `HEXMASK_FACE_MODEL` nor an installed OpenCV names a
  /// face cascade.
  case noFaceModel
  /// The face cascade (`HEXMASK_FACE_MODEL`'s when `fromVariable`, else an installed one)
  /// cannot be read as one; the failure names the file and why.
  case unusableFaceModel(FileFailure, fromVariable: Bool)
  /// Text (help, a manual page, JSON lines, messages) could not be written to `stream`
  /// (`<stdout>` or `<stderr>`); `code` is the `errno` of the failed write.
  case textNotWritten(stream: String, code: Int32)

  /// 2 for a usage error (the command line is wrong), 1 when a file could not be processed.
  var exitStatus: Int32 {
    switch self {
    // A closed pipe ends the process as SIGPIPE's default action would have: 128 + 13.
    case .renderFailed(let error) where error.cause == .closedPipe: 128 + SIGPIPE
    case .renderFailed(let error): error.cause.isUsage ? 2 : 1
    case .unreadableList, .someFilesFailed, .noPictures, .unusableOutputFolder: 1
    // The shell's convention: 128 + the signal number (130 for SIGINT, 143 for SIGTERM).
    case .interrupted(let signal, _): 128 + signal
    // A closed pipe ends the process as SIGPIPE's default action would have: 128 + 13.
    case .textNotWritten(_, let code): code == EPIPE ? 128 + SIGPIPE : 1
    default: 2
    }
  }

  /// What went wrong, in one line, without the `hexmask: ` prefix.
  var message: String {
    switch self {
    case .unknownOption(let option, let suggestions) where !suggestions.isEmpty:
      "unknown option \(quotedName(option)). Did you mean "
        + suggestions.dropLast().map { "'\($0)'" }.joined(separator: ", ")
        + (suggestions.count > 1 ? " or " : "") + "'\(suggestions[suggestions.count - 1])'?"
    case .unknownOption(let option, _):
      "unknown option \(quotedName(option))"
    case .missingValue(let option):
      "option '\(option)' needs a value"
    case .unexpectedValue(let option):
      "option '\(option)' does not take a value"
    case .invalidValue(let text, let option, .color):
      "invalid colour \(quotedName(text)) for '\(option)': expected "
        + ValueKind.color.expectation
    case .invalidValue(let text, let option, .wholeNumber(let range))
    where !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) } && Int(text) == nil:
      // More digits than any machine number: say so, with the range, rather than that a
      // whole number was expected, which it is.
      "invalid value \(quotedName(text)) for '\(option)': too large, expected a whole number "
        + "from \(range.lowerBound) to \(range.upperBound)"
    case .invalidValue(let text, let option, .frame)
    where !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) } && Int(text) == nil:
      "invalid value \(quotedName(text)) for '\(option)': too large, expected "
        + ValueKind.frame.expectation
    case .invalidValue(let text, let option, let kind):
      "invalid value \(quotedName(text)) for '\(option)': expected \(kind.expectation)"
    case .missingFiles(let count):
      "expected INPUT and OUTPUT, got \(count) argument\(count == 1 ? "" : "s")"
    case .notInBatch(let option):
      "\(option) writes one file, so it cannot be used with --out-dir"
    case .twoStandardOutputs:
      "OUTPUT and --svg cannot both be '-' (standard output)"
    case .outputIsInput(let path, let role):
      "\(path == "-" ? "<stdout>" : displayName(path)): \(role) is the input file; refusing "
        + "to overwrite it"
    case .outputIsFaceModel(let path, let role, let model):
      "\(path == "-" ? "<stdout>" : displayName(path)): \(role) is the face model"
        + (model == path ? "" : " \(quotedName(model))") + "; refusing to overwrite it"
    case .svgIsOutput(let path):
      "\(displayName(path)): OUTPUT and --svg name the same file; each needs its own"
    case .outputIsStandardError(let path, let role):
      "\(displayName(path)): \(role) is standard error, where hexmask's messages go; they "
        + "would mix with the picture's bytes"
    case .outputNotMadeByHexMask(let path, let what):
      "\(displayName(path)) exists and was not made by hexmask (\(what)); --force replaces it"
    case .pictureOnTerminal(reading: true):
      "refusing to read a picture from a terminal (redirect it, or name an INPUT)"
    case .pictureOnTerminal(reading: false):
      "refusing to write a picture to a terminal (redirect it, or name an OUTPUT)"
    case .emptyFileName:
      "an empty argument names no file (is a shell variable unset?)"
    case .tooManyArguments(let extra):
      "too many arguments: \(quotedName(extra)); to write several inputs into a folder, use "
        + "--out-dir DIR"
    case .renderFailed(let error), .unreadableList(let error), .unusableOutputFolder(let error):
      error.displayed
    case .nameAmongRecords(let output, let template):
      "--name \(quotedName(template)) puts the output \(quotedName(output)) among hexmask's "
        + "rerun records in '\(recordFolderName)'; name the outputs otherwise, or keep the "
        + "records elsewhere with --records DIR"
    case .invalidTemplate(let text, let option, let reason):
      "invalid name template \(quotedName(text)) for '\(option)': \(reason)"
    case .needsOutputFolder(let option):
      "option '\(option)' works only in batch mode, with --out-dir DIR"
    case .contradiction(let contradiction):
      contradiction.words
    case .missingInputs:
      "expected INPUT... or --files-from FILE with --out-dir"
    case .sizeNotInName("-", _):
      "standard output takes one picture, but --size lists several; name files with {size} "
        + "(e.g. 'avatar-{size}.png')"
    case .sizeNotInName(let name, let role):
      "\(role) \(quotedName(name)) names one file, but --size lists several; put {size} in it "
        + "(e.g. \(quotedName(withSizePlaceholder(name))))"
    case .sizeWithoutSizes(let name, let role):
      "\(role) \(quotedName(name)) has {size}, which needs --size N (or a list such as "
        + "64,128,256)"
    case .tooManyOutputPixels(let side, let maxPixels):
      "--size \(side) asks for \(side)×\(side) = \(side * side) pixels, more than --max-pixels "
        + "\(maxPixels)"
    case .standardInputInBatch:
      "'-' cannot be an input with --out-dir; use --files-from - to read a list of files"
    case .inputIsOutputFolder(let folder):
      "\(quotedName(folder)) is the output folder, whose files are never read as inputs; "
        + "write into another folder with --out-dir"
    case .inputIsRecordFolder(let folder):
      "\(quotedName(folder)) is the --records folder, whose files are never read as inputs; "
        + "keep the records in another folder"
    case .outputConflicts(let conflicts, _):
      "\(conflicts.count) output\(conflicts.count == 1 ? "" : "s") would be written twice or "
        + "replace an input; nothing was written"
    case .noPictures(let skipped):
      "no pictures found in the inputs"
        + (skipped == 0
          ? "" : " (\(skipped) file\(skipped == 1 ? "" : "s") skipped; \(readableFormats))")
    case .someFilesFailed(let count):
      "\(count) file\(count == 1 ? "" : "s") failed"
    case .interrupted(let signal, _):
      "stopped by \(signal == 15 ? "SIGTERM" : "SIGINT"); run the same command again to "
        + "finish the rest"
    case .textNotWritten(let stream, let code):
      "\(stream): cannot write: \(String(cString: strerror(code)))"
    case .noFaceModel:
      "--gravity face needs OpenCV's face cascades, and none is installed: install opencv-data "
        + "(apt install opencv-data; Homebrew: brew install opencv) or set \(faceModelVariable) "
        + "to a cascade file such as \(faceCascadeName)"
    case .unusableFaceModel(let failure, fromVariable: true) where failure.file.isEmpty:
      "\(faceModelVariable) is set but empty: unset it, or name a cascade file"
    case .unusableFaceModel(let failure, fromVariable: true):
      "\(displayName(failure.file)): cannot be the face model (\(faceModelVariable)): "
        + failure.reason
    case .unusableFaceModel(let failure, fromVariable: false):
      "\(displayName(failure.file)): cannot be the face model: \(failure.reason) "
        + "(\(faceModelVariable) can name another cascade file)"
    }
  }

  /// The lines printed on standard error: the message, and for a wrong command line a hint
  /// that points to `--help`. Each line is one line whatever the names in it hold: control
  /// characters a name brought into a reason are escaped.
  var report: String {
    lines.map { escapingControlCharacters($0) + "\n" }.joined()
  }

  /// The lines of `report`, without their line breaks.
  private var lines: [String] {
    switch self {
    // Whoever closed the pipe wanted no more, as for text below.
    case .renderFailed(let error) where error.cause == .closedPipe: []
    // -q: the status (130, 143) says it.
    case .interrupted(_, quiet: true): []
    case .renderFailed, .unreadableList, .interrupted, .outputIsInput, .outputIsFaceModel,
      .svgIsOutput, .outputIsStandardError, .noPictures, .outputNotMadeByHexMask,
      .pictureOnTerminal, .contradiction, .unusableOutputFolder, .noFaceModel,
      .unusableFaceModel:
      ["hexmask: \(message)"]
    // Each failure had its own line and the summary counts them.
    case .someFilesFailed: []
    // Whoever closed the pipe wanted no more; other Unix tools say nothing either.
    case .textNotWritten(_, let code) where code == EPIPE: []
    case .textNotWritten: ["hexmask: \(message)"]
    case .outputConflicts(let conflicts, let recursive):
      // The example keeps the outputs' own extension: `.png` would contradict --format avif.
      conflicts.map { "hexmask: conflict: \($0.explanation)" } + [
        "hexmask: \(message)",
        // A record is named after its output, so --name cannot move it: --records can.
        conflicts.allSatisfy(\.isRecord)
          ? "Keep the rerun records in a folder that holds no inputs with --records."
          : "Tell the outputs apart with --name (e.g. '{name}-{ext}."
            + "\(conflicts.first { !$0.isRecord }.flatMap { fileExtension(of: $0.output) } ?? "png")')"
            + (recursive ? "." : ", or mirror folders with -r."),
      ]
    default: ["hexmask: \(message)", "Try 'hexmask --help' for more information."]
    }
  }
}

/// `name` with `-{size}` before its extension (`o.svg` → `o-{size}.svg`), or at its end when
/// it has none: the suggestion keeps the kind of file the user named.
func withSizePlaceholder(_ name: String) -> String {
  let fileName = lastComponent(of: name)
  guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else {
    return name + "-{size}"
  }
  return String(name[..<dot]) + "-{size}" + String(name[dot...])
}
