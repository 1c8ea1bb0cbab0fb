import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Which file a path names, in three steps: the identity of a file (device and inode), what
// `stat` says about a path (that identity and the kind of file), and the key of a path that
// may not exist yet (an output about to be created).

/// What makes a file itself: its device and inode, the same however the file is spelled or
/// linked (`a.png`, `./a.png`, a symbolic link to it, a hard link of it).
struct FileIdentity: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64

  init(device: UInt64, inode: UInt64) {
    self.device = device
    self.inode = inode
  }

  /// The identity `stat`, `lstat` or `fstat` reported.
  init(_ info: stat) {
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
  }

  /// The identity of the regular file open as `descriptor`; nil for anything else.
  init?(regularFileOpenAs descriptor: Int32) {
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    self.init(info)
  }
}

/// What `stat` (or `lstat`) says about a path: which file it is and what kind.
struct FileStatus {
  var identity: FileIdentity
  var isFolder: Bool
  var isLink: Bool
  /// The `S_IFMT` bits of its mode: what kind of file it is.
  var kind: mode_t

  /// Reads it with `stat` (`following` links) or `lstat`; nil when the path does not exist.
  init?(path: String, following: Bool) {
    var info = stat()
    guard path.withFileName({ following ? stat($0, &info) : lstat($0, &info) }) == 0 else {
      return nil
    }
    identity = FileIdentity(info)
    kind = info.st_mode & S_IFMT
    isFolder = kind == S_IFDIR
    isLink = kind == S_IFLNK
  }

  /// What a file that is not a regular file or a folder is, in a message's words; nil for
  /// those two.
  var specialKind: String? { Self.specialKind(kind) }

  /// The words for a file of `kind` (its `S_IFMT` bits) that is not a regular file or a
  /// folder; nil for those two.
  static func specialKind(_ kind: mode_t) -> String? {
    switch kind {
    case S_IFREG, S_IFDIR: nil
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "not a regular file"
    }
  }

  /// Equal device and inode, whatever the kind.
  func isSameFile(as other: FileStatus) -> Bool { identity == other.identity }
}

/// Which file a path names, so that two spellings of one file compare equal: `a.png`,
/// `./a.png`, `x/../a.png`, a symbolic link to it and a hard link of it.
///
/// An existing file is its device and inode; a name that does not exist yet is its folder's
/// canonical path plus the name, which is what writing to it would create.
///
/// ```swift
/// FileKey(output: "./out.png") == FileKey(output: "out.png")   // true
/// ```
enum FileKey: Hashable, Sendable {
  case existing(FileIdentity)
  case new(path: String)

  /// The file `path` names now; nil when nothing is there.
  init?(existing path: String) {
    guard let file = FileStatus(path: path, following: true) else { return nil }
    self = .existing(file.identity)
  }

  /// The regular file open as `descriptor` (standard input or output redirected from or to a
  /// file); nil for a pipe, a terminal, a socket or a closed descriptor, which are no file
  /// a render could overwrite.
  init?(descriptor: Int32) {
    guard let identity = FileIdentity(regularFileOpenAs: descriptor) else { return nil }
    self = .existing(identity)
  }

  /// The file `path` names as a command's INPUT or output: `-` is standard input (`reading`)
  /// or output, another path the file it names (see ``init(output:)``).
  init?(standardOr path: String, reading: Bool) {
    if path == "-" {
      self.init(descriptor: reading ? 0 : 1)
    } else if reading {
      self.init(existing: path)
    } else {
      self.init(output: path)
    }
  }

  /// The file writing to `path` would replace or create (links followed, as writing does).
  init(output path: String) {
    if let existing = FileKey(existing: path) {
      self = existing
      return
    }
    let target = (try? followLinks(path)) ?? path
    let folder = parentFolder(of: target)
    guard let resolved = folder.withFileName({ realpath($0, nil) }) else {
      self = .new(path: target)
      return
    }
    defer { free(resolved) }
    self = .new(
      path: String(fileNameBytes: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
        + "/" + baseName(of: target))
  }
}
