import CFileShims
import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file being written in the folder of the file it will replace, so that putting it in
/// place is one atomic `rename` or `link` on the same file system.
///
/// On Linux it has no name while it is written (`O_TMPFILE`): if the process dies, even by
/// `kill -9`, the system frees it and nothing is left. Where the file system cannot do that
/// (or `HEXMASK_NAMED_TEMPORARIES` is set, which the tests use to cover this path), it is a
/// named file `.NAME.hexmask-XXXXXX`, removed on failure and by SIGINT/SIGTERM handlers,
/// and recognisable for ``removeLeftoverTemporaries(in:olderThan:)`` after a crash.
struct TemporaryFile {
  let descriptor: Int32
  /// The name while written, when the file has one.
  private let path: String?
  /// Where the path is remembered for signal handlers (-1: not remembered).
  private let slot: Int32

  /// Creates it in the folder of `target`; `name` is what messages call the output.
  init(beside target: String, name: String) throws(FileFailure) {
    let folder = parentFolder(of: target)
    var info = stat()
    guard folder.withFileName({ stat($0, &info) }) == 0 else {
      let reason =
        errno == ENOENT
        ? "output folder \(quotedName(folder)) does not exist" : "cannot write: \(systemError())"
      throw FileFailure(file: name, reason: reason)
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw FileFailure(file: name, reason: "\(quotedName(folder)) is not a folder")
    }
    // O_TMPFILE and linking it in through /proc are Linux's; elsewhere (macOS) every
    // temporary file is a named one.
    #if os(Linux)
      if !namedTemporariesForced {
        let unnamed = folder.withFileName { hm_open_unnamed($0) }
        if unnamed >= 0 {
          descriptor = unnamed
          path = nil
          slot = -1
          return
        }
        // These mean "this file system or kernel has no O_TMPFILE": fall back to a name.
        guard [EOPNOTSUPP, EISDIR, EINVAL, ENOENT].contains(errno) else {
          throw FileFailure(file: name, reason: "cannot write: \(systemError())")
        }
      }
    #endif
    var template = temporaryTemplate(for: target).fileNameBytes.map { CChar(bitPattern: $0) } + [0]
    let named = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { hm_make_named($0) } ?? -1
    }
    guard named >= 0 else {
      throw FileFailure(file: name, reason: "cannot write: \(systemError())")
    }
    let temporaryPath = String(fileNameBytes: template.dropLast().map { UInt8(bitPattern: $0) })
    descriptor = named
    path = temporaryPath
    slot = temporaryPath.withFileName { hm_temporary_remember($0) }
  }

  /// Gives it the permissions of the file it replaces (``takePermissions(from:name:)``)
  /// and opens it for writing; the stream then owns the descriptor. On failure nothing is
  /// left: the file is discarded and the descriptor closed.
  func openStream(replacing replaced: stat?, name: String) throws(FileFailure) -> CFile {
    try takePermissions(from: replaced, name: name)
    guard let stream = fdopen(descriptor, "wb") else {
      let reason = systemError()
      discard()
      close(descriptor)  // no stream owns it
      throw FileFailure(file: name, reason: "cannot write: \(reason)")
    }
    return stream
  }

  /// Gives it the permissions of the file it replaces (mode, owner and group), or those
  /// of a new file: `0666 & ~umask`.
  ///
  /// - Throws: when the new file cannot have the replaced one's owner or group (only root
  ///   gives a file to another user, and only a member to another group): replacing would
  ///   hand someone's file to this user. `name` is the output's name, for the message.
  private func takePermissions(from replaced: stat?, name: String) throws(FileFailure) {
    guard let replaced else {
      fchmod(descriptor, 0o666 & ~creationMask)
      return
    }
    // Owner first: changing it may clear set-user-ID bits, which fchmod then restores.
    if fchown(descriptor, replaced.st_uid, replaced.st_gid) != 0 {
      _ = fchown(descriptor, uid_t.max, replaced.st_gid)
    }
    // Checked on the file itself, not predicted: root in a user namespace, a setgid
    // folder and supplementary groups all decide what fchown could do.
    var made = stat()
    guard fstat(descriptor, &made) == 0, made.st_uid == replaced.st_uid,
      made.st_gid == replaced.st_gid
    else {
      discard()
      close(descriptor)  // no stream owns it yet
      let whose =
        made.st_uid != replaced.st_uid
        ? "it is another user's (uid \(replaced.st_uid))"
        : "its group (gid \(replaced.st_gid)) is not one of yours"
      throw FileFailure(
        file: name,
        reason: "cannot replace it: \(whose), and replacing keeps the owner and group, so not "
          + "even --force does (remove it first)")
    }
    fchmod(descriptor, replaced.st_mode & 0o7777)
  }

  /// Puts the finished file at `target`, replacing what is there atomically, and closes
  /// `stream` (which wraps ``descriptor``).
  func publish(as target: String, closing stream: CFile, name: String) throws(FileFailure) {
    defer { hm_temporary_forget(slot) }
    if let path {
      // A named file is closed first, so a late write error (NFS reports them on close)
      // stops the rename.
      guard fclose(stream) == 0, renameFile(path, to: target) == 0 else {
        let reason = systemError()
        removeFile(path)
        throw FileFailure(file: name, reason: "cannot write: \(reason)")
      }
      return
    }
    defer { fclose(stream) }
    if linkUnnamed(to: target) { return }
    guard errno == EEXIST else {
      throw FileFailure(file: name, reason: "cannot write: \(systemError())")
    }
    // Something is there: link under a fresh temporary name beside it, then rename that over
    // it, which replaces it in one step.
    for _ in 0..<100 {
      let named = temporaryName(for: target)
      let namedSlot = named.withFileName { hm_temporary_remember($0) }
      defer { hm_temporary_forget(namedSlot) }
      if linkUnnamed(to: named) {
        guard renameFile(named, to: target) == 0 else {
          let reason = systemError()
          removeFile(named)
          throw FileFailure(file: name, reason: "cannot write: \(reason)")
        }
        return
      }
      guard errno == EEXIST else { break }
    }
    throw FileFailure(file: name, reason: "cannot write: \(systemError())")
  }

  /// Throws the file away: closes nothing (its stream does that), removes its name if any.
  func discard() {
    if let path { removeFile(path) }
    hm_temporary_forget(slot)
  }

  /// Links the unnamed file in as `target`; false with `errno` set when it cannot.
  private func linkUnnamed(to target: String) -> Bool {
    target.withFileName { hm_link_unnamed(descriptor, $0) } == 0
  }
}

/// True when `HEXMASK_NAMED_TEMPORARIES` asks for named temporary files even where unnamed
/// ones work (the tests cover the fallback this way).
private let namedTemporariesForced = getenv("HEXMASK_NAMED_TEMPORARIES") != nil

/// `folder/.NAME.hexmask-XXXXXX`, the `mkstemp` template for a temporary file of `target`.
private func temporaryTemplate(for target: String) -> String {
  "\(parentFolder(of: target))/.\(baseName(of: target))\(temporaryMarker)XXXXXX"
}

/// A fresh name that fits the template, for linking an unnamed file in beside `target`.
private func temporaryName(for target: String) -> String {
  let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
  // One draw for all six letters: each draw from the system generator is a system call.
  var bits = UInt64.random(in: 0...UInt64.max)
  var suffix = ""
  for _ in 0..<6 {
    suffix.append(letters[Int(bits % UInt64(letters.count))])
    bits /= UInt64(letters.count)
  }
  return String(temporaryTemplate(for: target).dropLast(6)) + suffix
}

/// What every temporary file name of hexmask contains.
let temporaryMarker = ".hexmask-"

/// True for names hexmask gives its temporary files: `.NAME.hexmask-XXXXXX`.
func isTemporaryName(_ name: String) -> Bool {
  let characters = Array(name)
  let markerLength = temporaryMarker.count
  // A dot, at least one character of NAME, the marker, six letters or digits.
  guard name.hasPrefix("."), characters.count >= 2 + markerLength + 6 else { return false }
  let marker = String(characters[(characters.count - 6 - markerLength)..<(characters.count - 6)])
  return marker == temporaryMarker
    && characters.suffix(6).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
}

/// Removes hexmask's named temporary files in `folder` last changed before `time` (seconds
/// since 1970): what a crash or `kill -9` left on a file system without unnamed temporary
/// files. Files other running processes are writing are newer and stay.
///
/// - Returns: how many were removed.
@discardableResult
func removeLeftoverTemporaries(in folder: String, olderThan time: Int) -> Int {
  guard let stream = folder.withFileName({ opendir($0) }) else { return 0 }
  defer { closedir(stream) }
  var removed = 0
  while let entry = readdir(stream) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(fileNameBytes: bytes.prefix(while: { $0 != 0 }))
    }
    guard isTemporaryName(name) else { continue }
    let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
    var info = stat()
    guard path.withFileName({ lstat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      Int(modificationTime(info).tv_sec) < time
    else { continue }
    if removeFile(path) == 0 { removed += 1 }
  }
  return removed
}

/// From now on SIGINT and SIGTERM remove the named temporary files being written before they
/// end the process as usual (status 130 or 143); unnamed ones vanish by themselves. A signal
/// the parent made the process ignore stays ignored.
func removeTemporaryFilesOnStopSignals() { hm_temporary_clean_up_on_signals() }

/// Removes the named temporary files being written now. Async-signal-safe: for signal
/// handlers that end the process.
func removeTemporaryFilesNow() { hm_temporary_unlink_all() }
