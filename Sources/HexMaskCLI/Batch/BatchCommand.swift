import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a batch job: finds the inputs, names the outputs, refuses conflicts, then renders on
/// `--jobs` threads while `BatchReporter` reports. Returns normally when every file was written
/// or skipped.
///
/// ```swift
/// try runBatch(try Job(parsing: ["-r", "photos", "--out-dir", "out"]), console: .system)
/// ```
///
/// - Throws: conflicts and names that contradict the format before anything is written (status 2), `someFilesFailed` (1), or
///   `interrupted` after SIGINT/SIGTERM (130/143). After the first `EPIPE` on standard output
///   or error (SIGPIPE ignored) no file starts and it returns quietly; `finalStatus` makes that
///   141.
func runBatch(_ job: Job, console: Console) throws(CommandError) {
  let settings = job.batch
  guard let outputFolder = settings.outputFolder else { return }
  var paths = job.inputs
  if let list = settings.listFile {
    paths += try readList(list, nulSeparated: settings.nulSeparated)
  }
  let rules = InputRules(
    recursive: settings.recursive, followSymlinks: settings.followSymlinks,
    excludedFolder: outputFolder, recordFolder: settings.recordFolder)
  // A folder argument that is DIR (or the --records folder) itself is a mistake to report.
  // (The entries of a list are not checked one by one: a `find` listing may well name DIR,
  // which is never searched.)
  if let folder = excludedFolder(among: job.inputs, rules: rules) {
    throw .inputIsOutputFolder(folder)
  }
  if let records = settings.recordFolder,
    let folder = excludedFolder(among: job.inputs, rules: InputRules(excludedFolder: records))
  {
    throw .inputIsRecordFolder(folder)
  }
  // An output folder that cannot be one is said first: conflicts among the outputs it
  // cannot hold would only hide it. (It is made further on, once the plan holds.)
  if let reason = outputFolderProblem(outputFolder, creating: false) {
    throw .unusableOutputFolder(
      FileFailure(file: outputFolder, reason: "cannot be the output folder: \(reason)"))
  }
  var skipped: [String] = []
  var dropped: [DroppedEntry] = []
  var plan = BatchPlan(
    inputs: findInputs(paths, rules: rules, skipped: &skipped, dropped: &dropped),
    template: settings.nameTemplate
      ?? .standard(
        extension: (job.options.format ?? .png).fileExtension, sized: job.options.sizes.count > 1),
    outputFolder: outputFolder, sizes: job.options.outputSizes,
    list: settings.listFile.flatMap(listIdentity), model: Set(job.faceModelFiles.map(\.identity)),
    recordFolder: settings.recordFolder)
  if let relative = plan.outputAmongRecords {
    throw .nameAmongRecords(output: relative, template: settings.nameTemplate?.text ?? "")
  }
  guard plan.conflicts.isEmpty else {
    throw .outputConflicts(plan.conflicts, recursive: settings.recursive)
  }
  // Standard error redirected to one of the outputs (`2> out/a.png`) would mix the messages
  // with that picture; only a regular file can be one, so most runs look no further.
  if let messages = FileKey(descriptor: realStandardError.load(ordering: .relaxed)),
    let clash = plan.items.first(where: {
      $0.problem == nil && FileKey(existing: $0.output) == messages
    })
  {
    throw .outputIsStandardError(path: clash.output, role: "output")
  }
  if let template = settings.nameTemplate,
    let clash = formatClash(in: plan.items, options: job.options, template: template.text)
  {
    throw clash
  }
  // Conflicts are checked on the whole plan, so every shard of a command agrees on them.
  let foundAny = !plan.items.isEmpty
  if let shard = settings.shard {
    plan.items = plan.items.filter { shard.contains($0.shardKey) }
  }

  let reporter = BatchReporter(total: plan.items.count, settings: settings, console: console)
  reporter.reportDropped(dropped)
  reporter.reportSkipped(skipped)
  // Files that are not pictures are a failure a script must see; no files at all (an empty
  // list or folder, a cron job's quiet day) is nothing to do, which is success.
  guard foundAny else {
    guard skipped.isEmpty else { throw .noPictures(skipped: skipped.count) }
    reporter.note("nothing to do: the inputs hold no files")
    return
  }
  // Said once, before any input is read, rather than once for every output; a dry run
  // checks the same without creating anything, so it fails where the real run would.
  if let reason = outputFolderProblem(outputFolder, creating: !settings.dryRun) {
    throw .unusableOutputFolder(
      FileFailure(file: outputFolder, reason: "cannot be the output folder: \(reason)"))
  }
  // The records are written as the outputs are: a --records that cannot hold them is the
  // same mistake, said the same way, rather than a warning per file and a full rebuild on
  // every rerun.
  if let records = settings.recordFolder,
    let reason = outputFolderProblem(records, creating: !settings.dryRun)
  {
    throw .unusableOutputFolder(
      FileFailure(file: records, reason: "cannot be the records folder: \(reason)"))
  }
  if settings.dryRun {
    let failed = reporter.listPlan(plan.items, options: job.options, force: settings.overwrite)
    if failed > 0 { throw .someFilesFailed(count: failed) }
    return
  }
  let items = prepareFolders(plan.items, outputFolder: outputFolder)
  catchStopSignals()
  let results = renderBatch(
    items, options: job.options,
    jobs: settings.jobs ?? availableCores,
    overwrite: settings.overwrite,
    // A pipe closed under an ignored SIGPIPE stops the batch as the signal would have.
    shouldStop: { stopSignal.load(ordering: .relaxed) != 0 || console.pipeClosed },
    onResult: reporter.record)
  reporter.finish(items)

  let signal = stopSignal.load(ordering: .relaxed)
  if signal != 0 { throw .interrupted(signal: signal, quiet: settings.verbosity == .quiet) }
  let failed = results.count { $0?.status == .failed }
  if failed > 0 { throw .someFilesFailed(count: failed) }
}

/// Why `folder` cannot receive a batch's outputs, or nil. `creating`: makes it and its
/// missing parents first; otherwise (a dry run) the nearest folder that exists must be one
/// the user may write in.
private func outputFolderProblem(_ folder: String, creating: Bool) -> String? {
  if creating, let reason = createFolder(folder) { return reason }
  var existing = folder
  while true {
    var info = stat()
    if existing.withFileName({ stat($0, &info) }) == 0 {
      guard (info.st_mode & S_IFMT) == S_IFDIR else {
        return "\(quotedName(existing)) is not a folder"
      }
      break
    }
    guard errno == ENOENT || errno == ENOTDIR else { return systemError() }
    if existing.withFileName({ lstat($0, &info) }) == 0 {
      return "\(quotedName(existing)) is a symbolic link to nothing"
    }
    let parent = parentFolder(of: existing)
    guard parent != existing else { break }
    existing = parent
  }
  return existing.withFileName({ access($0, W_OK | X_OK) }) == 0 ? nil : systemError()
}

/// The device and inode of the `--files-from` list, `-` being standard input, when it is a
/// regular file an output could replace.
private func listIdentity(_ path: String) -> FileIdentity? {
  guard path != "-" else { return FileIdentity(regularFileOpenAs: 0) }
  guard let file = FileStatus(path: path, following: true), file.kind == S_IFREG else {
    return nil
  }
  return file.identity
}

/// The longest `--files-from` list read: a million paths of 256 bytes.
let maximumListBytes = 256 << 20

/// The paths listed in `path` (`-` for standard input), one per line or NUL-separated; empty
/// entries are skipped and an entry `-` means a file of that name, not standard input. A line
/// ending in `\r\n` (a list saved on Windows) loses its `\r`; a NUL-separated entry is taken
/// byte for byte, since `find -print0` lists names that may really end in `\r`.
func readList(_ path: String, nulSeparated: Bool) throws(CommandError) -> [String] {
  let descriptor = path == "-" ? dup(0) : path.withFileName { open($0, O_RDONLY) }
  let name = path == "-" ? "<stdin>" : path
  guard descriptor >= 0 else {
    let reason = String(cString: strerror(errno))
    throw .unreadableList(FileFailure(file: name, reason: "cannot open the list: \(reason)"))
  }
  defer { close(descriptor) }
  var data: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    guard count >= 0 else {
      let reason = systemError()
      throw .unreadableList(FileFailure(file: name, reason: "cannot read the list: \(reason)"))
    }
    if count == 0 { break }
    data += chunk[..<count]
    // `--files-from /dev/zero` (or /dev/full) never ends; no real list comes near this.
    guard data.count <= maximumListBytes else {
      throw .unreadableList(
        FileFailure(
          file: name, reason: "the list is longer than \(maximumListBytes >> 20) MiB; is it a list?"
        ))
    }
  }
  // A line-separated list with a NUL byte in it is no list of names (a picture given by
  // mistake, or `find -print0` without -0): a name cannot hold NUL, and cut at it, it would
  // name another file.
  if !nulSeparated && data.contains(0) {
    throw .unreadableList(
      FileFailure(
        file: name,
        reason: "holds a NUL byte, so it is no list of names (-0 reads NUL-separated lists)"))
  }
  let entries = data.split(separator: nulSeparated ? 0 : UInt8(ascii: "\n")).map { entry in
    nulSeparated || entry.last != UInt8(ascii: "\r") ? entry : entry.dropLast()
  }
  return entries.filter { !$0.isEmpty }.map { entry in
    let path = String(fileNameBytes: entry)
    return path == "-" ? "./-" : path
  }
}

/// Creates the output folder and every subfolder the outputs need, before any thread starts,
/// and removes the temporary files crashed runs left in them. An item whose folder cannot be
/// made fails with the system's reason (a read-only file system, no permission).
private func prepareFolders(_ items: [BatchItem], outputFolder: String) -> [BatchItem] {
  // Leftovers older than this run cannot belong to a writer still running, give or take the
  // clock skew of another machine writing a shared folder.
  let olderThan = Int(time(nil)) - 60
  var failures: [String: String] = [:]
  var folders: Set<String> = [outputFolder]
  for item in items where item.problem == nil {
    folders.insert(parentFolder(of: item.output))
    if let record = item.record { folders.insert(parentFolder(of: record)) }
  }
  for folder in folders.sorted() {
    if let reason = createFolder(folder) {
      failures[folder] = reason
    } else {
      removeLeftoverTemporaries(in: folder, olderThan: olderThan)
    }
  }
  return items.map { item in
    guard item.problem == nil, let reason = failures[parentFolder(of: item.output)] else {
      return item
    }
    var failed = item
    failed.problem = FileFailure(
      file: item.output,
      reason: "cannot create the folder \(quotedName(parentFolder(of: item.output))): \(reason)")
    return failed
  }
}
