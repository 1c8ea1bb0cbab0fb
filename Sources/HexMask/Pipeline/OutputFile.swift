#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output written to a temporary file beside its destination and renamed into place
/// only by ``commit()``, so a failure or a crash never leaves a half-written image.
/// Dropping it uncommitted removes the temporary file.
final class OutputFile {
  let path: String
  let stream: CFile
  private let temporaryPath: String
  private var committed = false

  /// Creates the temporary file in `path`'s folder, which must exist.
  init(path: String) throws(HexMaskError) {
    let folder = parentFolder(of: path)
    var info = stat()
    guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
      throw HexMaskError(file: path, reason: "output folder '\(folder)' does not exist")
    }
    let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "out")
    var template = Array("\(folder)/.\(name).hexmask-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw HexMaskError(
        file: path, reason: "cannot create a file in '\(folder)': \(systemError())")
    }
    // mkstemp makes the file private (0600); give it the permissions a new file gets.
    fchmod(descriptor, 0o666 & ~creationMask)
    guard let stream = fdopen(descriptor, "wb") else {
      close(descriptor)
      throw HexMaskError(file: path, reason: "cannot open a temporary file: \(systemError())")
    }
    self.path = path
    self.stream = stream
    self.temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  /// Flushes, closes and renames the finished file over `path`.
  func commit() throws(HexMaskError) {
    let flushed = fflush(stream) == 0
    let closed = fclose(stream) == 0
    committed = true
    guard flushed && closed else {
      let reason = systemError()
      unlink(temporaryPath)
      throw HexMaskError(file: path, reason: "cannot write: \(reason)")
    }
    guard rename(temporaryPath, path) == 0 else {
      let reason = systemError()
      unlink(temporaryPath)
      throw HexMaskError(file: path, reason: "cannot write: \(reason)")
    }
  }

  deinit {
    if !committed {
      fclose(stream)
      unlink(temporaryPath)
    }
  }
}

/// The folder part of a path: "." for a bare name, "/" for a file at the root.
func parentFolder(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The text of the current `errno`, e.g. "No such file or directory".
func systemError() -> String { String(cString: strerror(errno)) }

/// The process's umask, read once (reading it means setting it, so do it only here).
let creationMask: mode_t = {
  let mask = umask(0o022)
  umask(mask)
  return mask
}()

/// True when both paths name the same existing file, however they are spelled or linked.
func sameFile(_ a: String, _ b: String) -> Bool {
  var first = stat()
  var second = stat()
  guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
  return first.st_dev == second.st_dev && first.st_ino == second.st_ino
}
