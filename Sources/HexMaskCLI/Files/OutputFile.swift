import CFileShims
import HexMask
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output that appears only when complete, and replaces only what it should.
///
/// - A regular file, or a name that does not exist yet: written to a temporary file in the
///   same folder and put in place by ``commit()`` in one atomic step. The temporary file has
///   no name at all where the system allows it (`O_TMPFILE`), so not even `kill -9` leaves
///   it behind; otherwise it is named `.NAME.hexmask-XXXXXX` and removed on failure, on
///   SIGINT/SIGTERM, and by the next batch run into that folder. A replaced file keeps its
///   permissions, owner and group; a new one gets `0666 & ~umask`.
/// - A symbolic link: its target is replaced as above; the link stays.
/// - Standard output (`-`), a FIFO, a device: spooled, and written out whole by
///   ``commit()``, so a reader never gets half an image. The FIFO or device stays itself.
///   `/dev/stdout`, `/dev/fd/N` and `/proc/self/fd/N` are the descriptor they name, written
///   to as `-` writes to standard output: reopening them fails for a socket, and a pipe
///   reached through `/proc` has no path to reopen.
///
/// Dropping it uncommitted throws the work away.
final class OutputFile {
  /// The name messages use: the path as given, or `<stdout>`.
  let name: String
  let stream: CFile
  private let destination: Destination
  private var committed = false

  private enum Destination {
    /// Replace the regular file at `path` (links followed) with `temporary`.
    case file(path: String, temporary: TemporaryFile)
    /// Copy the spool to this open descriptor (standard output, `/dev/fd/N`).
    case spooledToDescriptor(Int32)
    /// Copy the spool into this FIFO or device, opened when committing.
    case spooled(into: String)
  }

  /// Prepares the output; for a path, in its folder, which must exist.
  init(path: String) throws(FileFailure) {
    if path == "-" {
      name = "<stdout>"
      stream = try Self.spool(name)
      destination = .spooledToDescriptor(1)
      return
    }
    name = path
    if let descriptor = descriptorNamed(by: path) {
      stream = try Self.spool(path)
      destination = .spooledToDescriptor(descriptor)
      return
    }
    let target = try followLinks(path)
    var existing = stat()
    let exists = target.withFileName { stat($0, &existing) } == 0
    if !exists && errno != ENOENT {
      throw FileFailure(file: path, reason: "cannot write: \(systemError())")
    }
    if exists && (existing.st_mode & S_IFMT) == S_IFDIR {
      throw FileFailure(file: path, .outputIsFolder)
    }
    if exists && (existing.st_mode & S_IFMT) == S_IFSOCK {
      // open(2) of a socket always fails; say so now, before any work.
      throw FileFailure(file: path, reason: "cannot write: it is a socket")
    }
    if exists && (existing.st_mode & S_IFMT) != S_IFREG {
      stream = try Self.spool(path)
      destination = .spooled(into: target)
      return
    }
    let temporary = try TemporaryFile(beside: target, name: path)
    stream = try temporary.openStream(replacing: exists ? existing : nil, name: path)
    destination = .file(path: target, temporary: temporary)
  }

  /// True when ``commit()`` copies a spool out (standard output, a FIFO, a device), which
  /// can fail as a full device does; putting a file in place is a rename that hardly can.
  var isSpooled: Bool {
    if case .file = destination { false } else { true }
  }

  /// Makes the finished output visible: puts the file in place, or writes out the spool.
  ///
  /// - Returns: the size and modification time of the file put in place (nil for a spool),
  ///   read from the file itself, so a concurrent writer of the same name cannot confuse it.
  @discardableResult
  func commit() throws(FileFailure) -> FileStamp? {
    committed = true
    switch destination {
    case .file(let path, let temporary):
      // The stamp is taken after the file is in place (a rename or link changes its ctime),
      // through a descriptor of its own: never of whatever else the path names by then.
      let kept = fflush(stream) == 0 ? dup(fileno(stream)) : -1
      guard kept >= 0 else {
        let reason = systemError()
        fclose(stream)
        temporary.discard()
        throw FileFailure(file: name, reason: "cannot write: \(reason)")
      }
      defer { close(kept) }
      try temporary.publish(as: path, closing: stream, name: name)
      return FileStamp(descriptor: kept)
    case .spooledToDescriptor(let descriptor):
      defer { fclose(stream) }
      try copySpool(to: descriptor)
      return nil
    case .spooled(let into):
      defer { fclose(stream) }
      let target = into.withFileName { open($0, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
      guard target >= 0 else {
        throw FileFailure(file: name, reason: "cannot write: \(systemError())")
      }
      defer { close(target) }
      try copySpool(to: target)
      return nil
    }
  }

  /// Writes the whole spool to `descriptor`; a reader that closed its pipe is
  /// ``FileFailure/Reason/closedPipe``, which ends the command quietly.
  private func copySpool(to descriptor: Int32) throws(FileFailure) {
    guard fflush(stream) == 0, fseek(stream, 0, SEEK_SET) == 0 else {
      throw FileFailure(file: name, reason: "cannot write: \(systemError())")
    }
    guard copy(stream, toDescriptor: descriptor) else {
      if errno == EPIPE { throw FileFailure(file: name, .closedPipe) }
      throw FileFailure(file: name, reason: "cannot write: \(systemError())")
    }
  }

  deinit {
    guard !committed else { return }
    fclose(stream)
    if case .file(_, let temporary) = destination { temporary.discard() }
  }

  /// An anonymous temporary file to collect a whole output in.
  private static func spool(_ name: String) throws(FileFailure) -> CFile {
    guard let spool = tmpfile() else {
      throw FileFailure(file: name, reason: "cannot create a temporary file: \(systemError())")
    }
    return spool
  }
}

/// The size and modification time of a file, and which file it is: what a rerun compares to
/// tell whether an output is still the very file it wrote.
struct FileStamp: Equatable, Sendable, CustomStringConvertible {
  var size: Int64
  var seconds: Int64
  var nanoseconds: Int64
  /// The file itself as the system knows it: device, inode and when the inode last changed
  /// (ctime, which no user command can set back: `cp -p`, `rsync -a` and `touch -r` copy a
  /// size and modification time, never these). Nil in records of version 3 and older.
  var identity: Identity?

  struct Identity: Equatable, Sendable {
    var file: FileIdentity
    var changed: FileTime
  }

  init(_ info: stat) {
    size = Int64(info.st_size)
    let modified = modificationTime(info)
    seconds = Int64(modified.tv_sec)
    nanoseconds = Int64(modified.tv_nsec)
    identity = Identity(file: FileIdentity(info), changed: FileTime(changeTime(info)))
  }

  /// The stamp of the file open as `descriptor`; nil when it cannot be read.
  init?(descriptor: Int32) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    self.init(info)
  }

  /// True when `now`, the file at the path today, is the very file this stamp was taken of:
  /// the same size and modification time, and the same device, inode and change time. A
  /// stamp of an older record, which kept no identity, vouches only where it still can: when
  /// the file has not changed (its ctime) since the record was written (`recordWritten`).
  func vouches(for now: FileStamp, recordWritten: FileTime?) -> Bool {
    guard size == now.size, seconds == now.seconds, nanoseconds == now.nanoseconds else {
      return false
    }
    if let identity { return identity == now.identity }
    guard let recordWritten, let changed = now.identity?.changed else { return false }
    return changed <= recordWritten
  }

  /// Reads it with `stat` (following links); nil when the file does not exist.
  init?(path: String) {
    var info = stat()
    guard path.withFileName({ stat($0, &info) }) == 0 else { return nil }
    self.init(info)
  }

  init(size: Int64, seconds: Int64, nanoseconds: Int64) {
    self.size = size
    self.seconds = seconds
    self.nanoseconds = nanoseconds
  }

  /// `size seconds.nanoseconds`, as records store it.
  var description: String { "\(size) \(seconds).\(nanoseconds)" }
}

/// A time a file system keeps, to the nanosecond, comparable.
struct FileTime: Comparable, Sendable {
  var seconds: Int64
  var nanoseconds: Int64

  init(_ time: timespec) {
    seconds = Int64(time.tv_sec)
    nanoseconds = Int64(time.tv_nsec)
  }

  init(seconds: Int64, nanoseconds: Int64) {
    self.seconds = seconds
    self.nanoseconds = nanoseconds
  }

  static func < (left: FileTime, right: FileTime) -> Bool {
    (left.seconds, left.nanoseconds) < (right.seconds, right.nanoseconds)
  }
}

/// When the inode `info` describes last changed (its content, name, links or mode): `st_ctim`
/// on Linux, `st_ctimespec` on Darwin.
func changeTime(_ info: stat) -> timespec {
  #if os(Linux)
    info.st_ctim
  #elseif canImport(Darwin)
    info.st_ctimespec
  #endif
}

/// When the file `info` describes was last changed, to the nanosecond where the file system
/// keeps it: `st_mtim` on Linux, `st_mtimespec` on Darwin (which has no `st_mtim`).
func modificationTime(_ info: stat) -> timespec {
  #if os(Linux)
    info.st_mtim
  #elseif canImport(Darwin)
    info.st_mtimespec
  #endif
}

/// The path a write to `path` really changes: symbolic links followed to their target, which
/// may not exist yet (a dangling link is written through, as `>` in a shell does).
func followLinks(_ path: String) throws(FileFailure) -> String {
  var current = path
  for _ in 0..<40 {
    var info = stat()
    guard current.withFileName({ lstat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFLNK else {
      return current
    }
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBytes { bytes in
      guard let start = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else { return -1 }
      return current.withFileName { readlink($0, start, bytes.count - 1) }
    }
    guard count > 0 else {
      throw FileFailure(file: path, reason: "cannot read the link: \(systemError())")
    }
    let text = String(fileNameBytes: buffer[..<count])
    current = text.hasPrefix("/") ? text : parentFolder(of: current) + "/" + text
  }
  throw FileFailure(file: path, reason: "cannot write: too many levels of symbolic links")
}

/// The open descriptor `path` names, for `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and
/// `/proc/self/fd/N`; nil for any other path, or when that descriptor is not open.
///
/// ```swift
/// descriptorNamed(by: "/dev/fd/3")  // 3, when descriptor 3 is open
/// ```
func descriptorNamed(by path: String) -> Int32? {
  let number: Substring
  switch path {
  case "/dev/stdout": number = "1"
  case "/dev/stderr": number = "2"
  case "/dev/stdin": number = "0"
  case _ where path.hasPrefix("/dev/fd/"): number = path.dropFirst("/dev/fd/".count)
  case _ where path.hasPrefix("/proc/self/fd/"): number = path.dropFirst("/proc/self/fd/".count)
  default: return nil
  }
  guard var descriptor = Int32(number), descriptor >= 0 else { return nil }
  if descriptor == STDERR_FILENO { descriptor = realStandardError.load(ordering: .relaxed) }
  guard fcntl(descriptor, F_GETFD) != -1 else { return nil }
  return descriptor
}

/// Copies everything left in `source` to the file descriptor `target`; false on an error.
private func copy(_ source: CFile, toDescriptor target: Int32) -> Bool {
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, source) }
    if count == 0 { return ferror(source) == 0 }
    var done = 0
    while done < count {
      let written = buffer[done..<count].withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return false }
      done += written
    }
  }
}

/// The folder part of a path: "." for a bare name, "/" for a file at the root.
func parentFolder(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// `mkdir -p folder`: creates it and its missing parents.
///
/// - Returns: nil when the folder exists afterwards, else the system's reason ("Read-only
///   file system", or "'x' is not a folder" when a file is in the way).
@discardableResult
func createFolder(_ folder: String) -> String? {
  var info = stat()
  if folder.withFileName({ stat($0, &info) }) == 0 {
    return (info.st_mode & S_IFMT) == S_IFDIR ? nil : "\(quotedName(folder)) is not a folder"
  }
  // A link loop, no permission to look: nothing to create. (ENOTDIR: a file is in the way
  // further up, which the parent's turn names.)
  guard errno == ENOENT || errno == ENOTDIR else { return systemError() }
  let parent = parentFolder(of: folder)
  if parent != folder, let reason = createFolder(parent) { return reason }
  guard folder.withFileName({ mkdir($0, 0o777) }) == 0 else {
    guard errno == EEXIST else { return systemError() }
    // Made meanwhile by another process, or a dangling symbolic link is in the way.
    guard folder.withFileName({ stat($0, &info) }) == 0 else {
      return "\(quotedName(folder)) is a symbolic link to nothing"
    }
    return (info.st_mode & S_IFMT) == S_IFDIR ? nil : "\(quotedName(folder)) is not a folder"
  }
  return nil
}

/// The last part of a path: `a/b.png` → `b.png`.
func baseName(of path: String) -> String {
  path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
}

/// The process's umask, for the permissions of new files (`0666 & ~umask`): what
/// ``readCreationMask()`` read at start-up.
///
/// A caller that never ran ``readCreationMask()`` (a unit test using `OutputFile` directly)
/// gets it read here, on first use, as before.
var creationMask: mode_t {
  let stored = storedCreationMask.load(ordering: .acquiring)
  if stored >= 0 { return mode_t(stored) }
  return readCreationMask()
}

/// Reads the process's umask and keeps it for ``creationMask``; `runHexMask` calls it first
/// thing, while the process still has one thread.
///
/// Why then: the only way to read the umask is to set it (to 022 here) and set it back.
/// Read lazily, the first read could run on a batch worker while another worker creates an
/// output folder or file, which would then get 022 instead of the user's mask.
@discardableResult
func readCreationMask() -> mode_t {
  let mask = umask(0o022)
  umask(mask)
  storedCreationMask.store(Int(mask), ordering: .releasing)
  return mask
}

/// The umask ``readCreationMask()`` read, or -1 before it ran.
private let storedCreationMask = Atomic<Int>(-1)
