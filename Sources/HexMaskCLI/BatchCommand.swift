import Foundation
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
/// - Throws: conflicts before anything is written (status 2), `someFilesFailed` (1), or
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
    excludedFolder: outputFolder)
  // A folder argument that is DIR itself is a mistake to report. (The entries of a list are
  // not checked one by one: a `find` listing may well name DIR, which is never searched.)
  if let folder = excludedFolder(among: job.inputs, rules: rules) {
    throw .inputIsOutputFolder(folder)
  }
  var skipped: [String] = []
  var plan = BatchPlan(
    inputs: findInputs(paths, rules: rules, skipped: &skipped),
    template: settings.nameTemplate
      ?? .standard(
        extension: (job.options.format ?? .png).fileExtension, sized: job.options.sizes.count > 1),
    outputFolder: outputFolder, sizes: job.options.outputSizes)
  guard plan.conflicts.isEmpty else { throw .outputConflicts(plan.conflicts) }
  // Conflicts are checked on the whole plan, so every shard of a command agrees on them.
  let foundAny = !plan.items.isEmpty
  if let shard = settings.shard {
    plan.items = plan.items.filter { shard.contains($0.shardKey) }
  }

  let reporter = BatchReporter(total: plan.items.count, settings: settings, console: console)
  reporter.reportSkipped(skipped)
  // Nothing to make is a failure a script must see, not a quiet success.
  guard foundAny else { throw .noPictures(skipped: skipped.count) }
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
  reporter.finish()

  let signal = stopSignal.load(ordering: .relaxed)
  if signal != 0 { throw .interrupted(signal: signal) }
  let failed = results.count { $0?.status == .failed }
  if failed > 0 { throw .someFilesFailed(count: failed) }
}

/// The paths listed in `path` (`-` for standard input), one per line or NUL-separated; empty
/// entries are skipped and an entry `-` means a file of that name, not standard input. A line
/// ending in `\r\n` (a list saved on Windows) loses its `\r`; a NUL-separated entry is taken
/// byte for byte, since `find -print0` lists names that may really end in `\r`.
func readList(_ path: String, nulSeparated: Bool) throws(CommandError) -> [String] {
  let descriptor = path == "-" ? dup(0) : open(path, O_RDONLY)
  let name = path == "-" ? "<stdin>" : path
  guard descriptor >= 0 else {
    let reason = String(cString: strerror(errno))
    throw .unreadableList(FileFailure(file: name, reason: "cannot open the list: \(reason)"))
  }
  let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  let data: Data
  do {
    data = try handle.readToEnd() ?? Data()
  } catch {
    throw .unreadableList(FileFailure(file: name, reason: "cannot read the list: \(error)"))
  }
  let entries = data.split(separator: nulSeparated ? 0 : UInt8(ascii: "\n")).map { entry in
    nulSeparated || entry.last != UInt8(ascii: "\r") ? entry : entry.dropLast()
  }
  return entries.filter { !$0.isEmpty }.map { entry in
    let path = String(decoding: entry, as: UTF8.self)
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
      reason: "cannot create the folder '\(parentFolder(of: item.output))': \(reason)")
    return failed
  }
}
