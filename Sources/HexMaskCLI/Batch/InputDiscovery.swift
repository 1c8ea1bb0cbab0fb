import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One photo a batch will read, and where it sits relative to what the user named.
///
/// ```swift
/// let found = findInputs(["photos"], rules: InputRules(recursive: true))
/// // found[0] == BatchInput(path: "photos/2024/a.jpg", folder: "2024")
/// ```
struct BatchInput: Equatable, Sendable {
  /// The file's path, starting with the argument it was found through.
  var path: String
  /// The subfolder mirrored under the output folder (`{dir}`): "" for a file named directly
  /// without `recursive`, nil when the path cannot be mirrored (it climbs with `..`).
  var folder: String?
  /// Why the input cannot be used (an unreadable folder); such an input is reported as failed.
  var problem: FileFailure?
  /// The file's device and inode, as the search found it; nil when it does not exist (or
  /// was not looked at).
  var identity: FileIdentity?

  init(path: String, folder: String?, problem: FileFailure? = nil) {
    self.path = path
    self.folder = folder
    self.problem = problem
  }
}

/// How folders are searched for photos.
struct InputRules: Equatable, Sendable {
  /// Descend into subfolders and mirror them (`-r`); files named directly keep their folder.
  var recursive = false
  /// Descend into symbolic links to folders too; off by default, so a link cannot lead the
  /// search out of the tree or round in a loop.
  var followSymlinks = false
  /// A folder never searched, normally the output folder, so outputs are not read back.
  var excludedFolder: String?
  /// The `--records` folder, never searched either: hexmask writes there too.
  var recordFolder: String?

  init(
    recursive: Bool = false, followSymlinks: Bool = false, excludedFolder: String? = nil,
    recordFolder: String? = nil
  ) {
    self.recursive = recursive
    self.followSymlinks = followSymlinks
    self.excludedFolder = excludedFolder
    self.recordFolder = recordFolder
  }
}

/// The photos `paths` name, in order: a file is taken as it is (the renderer reports it if it
/// is not an image); a folder contributes its pictures (JPEG, PNG, HEIC, AVIF, WebP),
/// recognised by content, in
/// byte order of their names. Hidden files and folders (names starting with `.`) and the
/// excluded folders (output, records) are skipped; subfolders only with `recursive`. A file reached twice (named
/// twice, or named and found in a folder, by any spelling or link) counts once, where it was
/// first reached.
///
/// ```swift
/// let inputs = findInputs(["a.jpg", "photos"], rules: InputRules(excludedFolder: "out"))
/// ```
///
/// - Complexity: one `lstat` and one eight-byte read per file in the searched folders.
func findInputs(_ paths: [String], rules: InputRules) -> [BatchInput] {
  var skipped: [String] = []
  return findInputs(paths, rules: rules, skipped: &skipped)
}

/// The same, also listing in `skipped` the files found in folders that are not pictures
/// hexmask reads (a TIFF, notes.txt), so a run can say how many it passed over.
func findInputs(_ paths: [String], rules: InputRules, skipped: inout [String]) -> [BatchInput] {
  var dropped: [DroppedEntry] = []
  return findInputs(paths, rules: rules, skipped: &skipped, dropped: &dropped)
}

/// The same, also listing in `dropped` the entries left out that are not files to report
/// (a dangling symbolic link or a loop, a second name of a file already taken, a FIFO,
/// socket or device, which is never opened), which `--verbose` names, so that no input
/// disappears without a word.
func findInputs(
  _ paths: [String], rules: InputRules, skipped: inout [String], dropped: inout [DroppedEntry]
) -> [BatchInput] {
  var search = FolderSearch(rules: rules)
  for path in paths {
    let identity = FileStatus(path: path, following: true)
    if let identity, identity.isFolder {
      search.visited = [identity]
      search.walk(folder: path, relative: "")
    } else {
      search.add(
        BatchInput(path: path, folder: rules.recursive ? mirrored(path) : ""), identity: identity)
    }
  }
  skipped += search.skipped
  dropped += search.dropped
  return search.found
}

/// An entry a batch leaves out, and why in a few words (`dangling symbolic link`).
struct DroppedEntry: Equatable, Sendable {
  var path: String
  var reason: String
}

/// The first of `paths` that names the excluded folder itself (the same device and inode,
/// however it is spelled), or nil. Searching it would find nothing, since the excluded folder
/// is never read, so such a path is a mistake to report rather than an empty input.
///
/// ```swift
/// excludedFolder(among: ["a.jpg", "./out/"], rules: InputRules(excludedFolder: "out"))
/// // "./out/"
/// ```
func excludedFolder(among paths: [String], rules: InputRules) -> String? {
  guard let folder = rules.excludedFolder,
    let excluded = FileStatus(path: folder, following: true), excluded.isFolder
  else { return nil }
  return paths.first { path in
    FileStatus(path: path, following: true)?.isSameFile(as: excluded) ?? false
  }
}

/// The folder part of a path named directly, as `{dir}`: `/a/./b/c.jpg` → `a/b`; nil when it
/// climbs with `..`.
func mirrored(_ path: String) -> String? {
  // Most paths are clean already (`photos/2024/a.jpg`, `/data/a.jpg`): their folder part
  // is a slice.
  let relative = path.drop { $0 == "/" }
  if isPlainRelativePath(relative) {
    guard let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
    return String(relative[..<slash])
  }
  let parts = path.split(separator: "/").dropLast()
  if parts.contains("..") { return nil }
  return parts.filter { $0 != "." }.joined(separator: "/")
}

/// True when `path` is relative and every component is a plain name: no empty component
/// (`a//b`, `a/`), no `.` and no `..`. One pass over the bytes: batches check this for
/// every file.
func isPlainRelativePath(_ path: some StringProtocol) -> Bool {
  var componentLength = 0
  var dots = 0
  for byte in path.utf8 {
    if byte == UInt8(ascii: "/") {
      if componentLength == 0 || componentLength == dots && dots <= 2 { return false }
      componentLength = 0
      dots = 0
    } else {
      componentLength += 1
      if byte == UInt8(ascii: ".") { dots += 1 }
    }
  }
  return componentLength > 0 && !(componentLength == dots && dots <= 2)
}

/// A depth-first walk of folders, in name order.
private struct FolderSearch {
  let rules: InputRules
  /// The folders hexmask writes into (outputs, records), which are never read.
  let excluded: [FileStatus]
  /// Folders on the way down, so a followed link cannot loop.
  var visited: [FileStatus] = []
  var found: [BatchInput] = []
  /// Files in the folders that are no picture hexmask reads.
  var skipped: [String] = []
  /// Entries left out that are not files: see ``DroppedEntry``.
  var dropped: [DroppedEntry] = []
  /// The files found so far and the path each was taken by, so the same file is taken once.
  private var taken: [FileIdentity: String] = [:]

  init(rules: InputRules) {
    self.rules = rules
    excluded = [rules.excludedFolder, rules.recordFolder].compactMap { folder in
      folder.flatMap { FileStatus(path: $0, following: true) }
    }
  }

  mutating func walk(folder: String, relative: String) {
    if let here = visited.last, excluded.contains(where: here.isSameFile) { return }
    let names: [String]
    do throws(FileFailure) {
      names = try entries(of: folder)
    } catch {
      found.append(BatchInput(path: folder, folder: relative, problem: error))
      return
    }
    for name in names where !name.hasPrefix(".") {
      let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
      guard let entry = FileStatus(path: path, following: false) else { continue }
      let target = entry.isLink ? FileStatus(path: path, following: true) : entry
      guard let target else {
        if entry.isLink {
          let reason = errno == ELOOP ? "symbolic link loop" : "dangling symbolic link"
          dropped.append(DroppedEntry(path: path, reason: reason))
        }
        continue
      }
      if target.isFolder {
        guard rules.recursive, !entry.isLink || rules.followSymlinks,
          !visited.contains(where: { $0.isSameFile(as: target) })
        else { continue }
        visited.append(target)
        walk(folder: path, relative: relative.isEmpty ? name : relative + "/" + name)
        visited.removeLast()
      } else if let special = target.specialKind {
        // Never opened: reading a FIFO would wait for a writer, a device could be endless.
        dropped.append(DroppedEntry(path: path, reason: "\(special), not a picture"))
      } else {
        switch SniffedFile(sniffingFileAt: path) {
        case .picture:
          add(BatchInput(path: path, folder: relative), identity: target)
        case .unreadable(let reason):
          // Maybe a picture; passing over it as "not a picture" would hide the problem.
          add(
            BatchInput(
              path: path, folder: relative, problem: FileFailure(file: path, reason: reason)),
            identity: target)
        case .other:
          skipped.append(path)
        }
      }
    }
  }

  /// Takes `input` unless its file was taken already; a path that does not exist is always
  /// taken, so that its error is reported.
  mutating func add(_ input: BatchInput, identity: FileStatus?) {
    var input = input
    if let identity {
      if let first = taken[identity.identity] {
        dropped.append(
          DroppedEntry(path: input.path, reason: "the same file as \(displayName(first))"))
        return
      }
      taken[identity.identity] = input.path
      input.identity = identity.identity
    }
    found.append(input)
  }
}

/// The names in `folder` except `.` and `..`, in no particular order; none when it cannot
/// be read (it does not exist yet).
func namesInFolder(_ folder: String) -> [Substring] {
  guard let stream = (folder.isEmpty ? "." : folder).withFileName({ opendir($0) }) else {
    return []
  }
  defer { closedir(stream) }
  var names: [Substring] = []
  while let entry = readdir(stream) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(fileNameBytes: bytes.prefix(while: { $0 != 0 }))
    }
    if name != "." && name != ".." { names.append(name[...]) }
  }
  return names
}

/// The names in `folder` except `.` and `..`, in byte order.
private func entries(of folder: String) throws(FileFailure) -> [String] {
  guard let stream = folder.withFileName({ opendir($0) }) else {
    throw FileFailure(file: folder, reason: "cannot read the folder: \(systemError())")
  }
  defer { closedir(stream) }
  var names: [String] = []
  while let entry = readdir(stream) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(fileNameBytes: bytes.prefix(while: { $0 != 0 }))
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
}
