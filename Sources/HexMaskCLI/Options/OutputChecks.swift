import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Job {
  /// Refuses, before anything is read or written, a single-file command whose outputs
  /// (OUTPUT, `--svg`) name its input or each other, however spelled: `./`, `..`, a symbolic
  /// link, a hard link, or standard input or output redirected from or to that file
  /// (`hexmask - photo.jpg < photo.jpg`).
  func checkOutputsAreDistinct() throws(CommandError) {
    let inputKey = action == .render ? FileKey(standardOr: input, reading: true) : nil
    let outputs = action == .render || action == .renderMask ? outputFiles : []
    let outputKeys = outputs.map { FileKey(standardOr: $0.path, reading: false) }
    for (output, key) in zip(outputs, outputKeys) where key != nil && key == inputKey {
      throw .outputIsInput(path: output.path, role: "output")
    }
    let named = outputs.map { ($0.path, "output") } + svgFiles.map { ($0.path, "the --svg output") }
    for (path, role) in named where isStandardError(path) {
      throw .outputIsStandardError(path: path, role: role)
    }
    for svg in svgFiles {
      guard let svgKey = FileKey(standardOr: svg.path, reading: false) else { continue }
      if svgKey == inputKey { throw .outputIsInput(path: svg.path, role: "the --svg output") }
      if outputKeys.contains(svgKey) { throw .svgIsOutput(path: svg.path) }
    }
  }

  /// Refuses a single-file command whose outputs (OUTPUT, `--svg`) are a cascade file the
  /// face model was read from (``faceModelFiles``), however spelled, as for the input: the
  /// model is an input too. A batch checks its outputs against them in its plan.
  func checkOutputsAreNotTheFaceModel() throws(CommandError) {
    guard action == .render, !faceModelFiles.isEmpty else { return }
    let outputs =
      outputFiles.map { ($0.path, "output") } + svgFiles.map { ($0.path, "the --svg output") }
    for (path, role) in outputs {
      // Only a file that exists can be the model, so only `.existing` keys can match.
      guard case .existing(let identity)? = FileKey(standardOr: path, reading: false),
        let model = faceModelFiles.first(where: { $0.identity == identity })
      else { continue }
      throw .outputIsFaceModel(path: path, role: role, model: model.path)
    }
  }

  /// Refuses what a single-file command must not do before it reads or writes anything:
  /// read a picture from a terminal or write one to it (as `gzip` refuses), replace an
  /// existing file hexmask did not make (exit 2) or one the user may not write (a file
  /// failure, exit 1), both unless `--force`, or another user's file, even with `--force`
  /// (exit 1).
  func checkFilesBeforeRendering() throws(CommandError) {
    let pictures = action == .render || action == .renderMask ? outputFiles : []
    if action == .render && isTerminal(input, reading: true) {
      throw .pictureOnTerminal(reading: true)
    }
    if pictures.contains(where: { isTerminal($0.path, reading: false) }) {
      throw .pictureOnTerminal(reading: false)
    }
    // The SVG is written after the picture: a place it cannot go (a link loop, a folder, a
    // socket, a read-only file system) is found now, so that the picture is not written
    // alone. Preparing an output creates nothing visible, and dropping it removes it.
    for svg in svgFiles where svg.path != "-" {
      do throws(FileFailure) {
        _ = try OutputFile(path: svg.path)
      } catch {
        throw .renderFailed(error)
      }
    }
    for file in pictures + svgFiles {
      switch ReplacementRefusal(replacing: file.path, force: batch.overwrite) {
      case .notMadeByHexMask(let what): throw .outputNotMadeByHexMask(path: file.path, what: what)
      case let refusal?: throw .renderFailed(refusal.failure(file.path))
      case nil: break
      }
    }
  }
}

/// True when writing to `path` writes where the messages go: `/dev/stderr`, `/dev/fd/2`,
/// `/proc/self/fd/2`, or the file standard error is redirected to (`2> out.png`).
private func isStandardError(_ path: String) -> Bool {
  guard path != "-" else { return false }
  let messages = realStandardError.load(ordering: .relaxed)
  if descriptorNamed(by: path) == messages { return true }
  guard let messagesFile = FileKey(descriptor: messages) else { return false }
  return FileKey(existing: path) == messagesFile
}

/// True when `path` (`-`: standard input or output) is a terminal.
private func isTerminal(_ path: String, reading: Bool) -> Bool {
  if path == "-" { return isatty(reading ? 0 : 1) == 1 }
  if let descriptor = descriptorNamed(by: path) { return isatty(descriptor) == 1 }
  var info = stat()
  guard path.withFileName({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFCHR else {
    return false
  }
  // A character device: open it without waiting to ask whether it is a terminal.
  let descriptor = path.withFileName { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  return isatty(descriptor) == 1
}
