import CFileShims
import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the command line `arguments` (without the program name) and returns the exit status:
/// 0 when the output was written (or help or the version was printed), 1 when the input could
/// not be turned into an output (in a batch: when any file failed) or text could not be
/// written to standard output or error, 2 when the command line is wrong, 130 or 143 when a
/// batch was stopped by SIGINT or SIGTERM, 141 when standard output or error was a pipe
/// closed early while SIGPIPE was ignored.
///
/// It is the process's `main`: it points descriptor 2 at `/dev/null` for good, so that the
/// decoders' own lines never reach the user, and writes its messages to a duplicate of the
/// standard error it started with (see ``silenceDecoderChatter()``).
///
/// ```swift
/// exit(runHexMask(Array(CommandLine.arguments.dropFirst())))
/// ```
public func runHexMask(_ arguments: [String]) -> Int32 {
  // Before anything else, while this is the only thread: reading the umask sets it for an
  // instant, and a batch worker creating a folder meanwhile would get the wrong mask.
  readCreationMask()
  // Blocks of 4 MiB and more (decoded pictures, libheif's planes) go back to the system as
  // soon as they are freed, so the memory budget's "one decode finished" is memory another
  // job can use: by default glibc keeps them in per-thread arenas, and a -j 4 HEIC batch
  // limited to one decode at a time (--memory-limit 256M) peaked at 297 MB, not 128 MB.
  // The command's own setting: the library never changes its host's allocator.
  // 4 MiB, not 1: libwebp's encoder takes (and frees) a 1 MiB hash table for each alpha
  // plane, twice an animated frame, and mapping each anew cost a fifth of the time.
  hm_return_large_blocks(4 << 20)
  // Same input, same bytes, even where a decoder leaves part of a damaged picture unwritten:
  // a batch once gave six different outputs for six copies of one damaged HEIC. hexmask's
  // own pictures are calloc'ed (never filled: a huge claimed size costs nothing until
  // decoded), but libde265 decides from memory of its own it never wrote (valgrind: jumps
  // on values from its posix_memalign), and zeroing the planes it allocates through its
  // image-allocation functions does not change that; only the allocator can.
  hm_fill_new_blocks()
  // From here on descriptor 2 is /dev/null and messages go to its duplicate.
  let console = Console.system(errorDescriptor: silenceDecoderChatter())
  let status = run(
    arguments, render: renderFile(input:outputs:settings:),
    renderBatch: { job throws(CommandError) in try runBatch(job, console: console) },
    standardOutput: console.standardOutput,
    standardError: console.standardError)
  return finalStatus(
    status, writeFailure: console.writeFailure, standardError: console.standardError)
}

/// The exit status of a run that returned `status`, once text it could not write is counted:
/// `writeFailure` names the stream that lost text and the `errno` of the failed write.
///
/// A pipe closed early (`EPIPE`, which SIGPIPE's default action never lets the process see)
/// ends quietly with 141, the status that signal would have given. Any other failure (a full
/// disk) gets one message on standard error, when that can still be written, and turns
/// success into 1; a failed run keeps its own status, which already says something is wrong.
func finalStatus(
  _ status: Int32, writeFailure: (stream: String, code: Int32)?,
  standardError: (String) -> Void
) -> Int32 {
  guard let failure = writeFailure else { return status }
  let error = CommandError.textNotWritten(stream: failure.stream, code: failure.code)
  if !error.report.isEmpty { standardError(error.report) }
  return status == 0 || failure.code == EPIPE ? error.exitStatus : status
}

/// Writes the shape as SVG for `--svg`, once per size: each of `sides` (the sizes made,
/// in order) for the file of that size.
private func writeShapes(sides: [Int], job: Job) throws(CommandError) {
  do throws(FileFailure) {
    for (side, file) in zip(sides, job.svgFiles) {
      try writeSVGFile(side: side, shape: job.options.shape, to: file.path)
    }
  } catch {
    throw .renderFailed(error)
  }
}

/// The work of `runHexMask`, with the renderers and the two output streams passed in so tests
/// can watch them. Every line it writes to standard error stays one line: control characters
/// in it (a file name's, a library reason's) are escaped.
func run(
  _ arguments: [String],
  render: (String, [SizedFile], RenderSettings) throws(FileFailure) -> [RenderedFile],
  renderBatch: (Job) throws(CommandError) -> Void = { _ in },
  faceModel: () throws(CommandError) -> LoadedFaceModel = { () throws(CommandError) in
    try loadFaceModel()
  },
  standardOutput: (String) -> Void,
  standardError writeError: (String) -> Void
) -> Int32 {
  func standardError(_ text: String) { writeError(escapingControlCharactersInLines(text)) }
  do throws(CommandError) {
    var job = try Job(parsing: arguments)
    // One budget for every render of this run, so -j N files share it.
    job.options.input.memoryBudget = HexMask.MemoryBudget(
      limit: job.options.memoryLimit ?? defaultMemoryLimit())
    try job.checkOutputsAreDistinct()
    // Read once, here, before any file: a batch's workers share this one immutable model.
    // A run that renders no picture with it never looks for it.
    if job.needsFaceModel {
      let loaded = try faceModel()
      job.options.output.crop = .faces(loaded.model)
      // Its files are inputs too: no output may replace one (a batch checks in its plan),
      // which is said before the other checks of an output (one it may not write).
      job.faceModelFiles = loaded.files
      try job.checkOutputsAreNotTheFaceModel()
    } else {
      // No face is looked for (a mask, the seed layout, an SVG alone), so none is framed:
      // the warning said so, and the library refuses a share without the faces crop.
      job.options.output.faceSize = nil
    }
    try job.checkFilesBeforeRendering()
    if job.action != .renderBatch { removeTemporaryFilesOnStopSignals() }
    // Once per run, before any file: --quiet keeps standard error for errors only.
    if job.batch.verbosity != .quiet {
      for warning in job.ineffectiveOptionWarnings {
        standardError("hexmask: warning: \(warning)\n")
      }
    }
    switch job.action {
    case .showHelp:
      standardOutput(helpText())
    case .showVersion:
      standardOutput("hexmask \(hexmaskVersion)\n")
    case .showCompletions(let shell):
      standardOutput(completionScript(for: shell))
    case .showManPage:
      standardOutput(manPage())
    case .render:
      let rendered: [RenderedFile]
      do throws(FileFailure) {
        rendered = try render(job.input, job.outputFiles, job.options)
      } catch {
        throw .renderFailed(error)
      }
      let name = job.input == "-" ? "<stdin>" : displayName(job.input)
      // The sizes share one decode, so they share its warnings: each is said once, and
      // none with --quiet.
      var said: Set<FileWarning> = []
      let warnings = job.batch.verbosity == .quiet ? [] : rendered.flatMap(\.warnings)
      for warning in warnings where said.insert(warning).inserted {
        standardError("hexmask: \(name): warning: \(warning)\n")
      }
      try writeShapes(sides: rendered.map(\.side), job: job)
    case .renderMask:
      var sides: [Int] = []
      do throws(FileFailure) {
        for file in job.outputFiles {
          sides.append(try renderMaskFile(output: file, settings: job.options).side)
        }
      } catch {
        throw .renderFailed(error)
      }
      try writeShapes(sides: sides, job: job)
    case .writeShape:
      try writeShapes(sides: job.options.sizes, job: job)
    case .renderBatch:
      try renderBatch(job)
    }
    return 0
  } catch {
    standardError(error.report)
    return error.exitStatus
  }
}
