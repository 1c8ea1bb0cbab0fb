import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  case existing(device: UInt64, inode: UInt64)
  case new(path: String)

  /// The file `path` names now; nil when nothing is there.
  init?(existing path: String) {
    var info = stat()
    guard path.withFileName({ stat($0, &info) }) == 0 else { return nil }
    self = .existing(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
  }

  /// The regular file open as `descriptor` (standard input or output redirected from or to a
  /// file); nil for a pipe, a terminal, a socket or a closed descriptor, which are no file
  /// a render could overwrite.
  init?(descriptor: Int32) {
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    self = .existing(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
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
