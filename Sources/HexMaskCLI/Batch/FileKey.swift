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
    guard stat(path, &info) == 0 else { return nil }
    self = .existing(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// The file writing to `path` would replace or create (links followed, as writing does).
  init(output path: String) {
    if let existing = FileKey(existing: path) {
      self = existing
      return
    }
    let target = (try? followLinks(path)) ?? path
    let folder = parentFolder(of: target)
    guard let resolved = realpath(folder, nil) else {
      self = .new(path: target)
      return
    }
    defer { free(resolved) }
    self = .new(path: String(cString: resolved) + "/" + baseName(of: target))
  }
}
