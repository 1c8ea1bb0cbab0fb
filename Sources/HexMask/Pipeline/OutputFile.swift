#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output that appears only when complete.
///
/// A file is written to a temporary file beside its destination and renamed into place by
/// ``commit()``; standard output (`-`) is spooled to an anonymous temporary file and copied
/// out by ``commit()``, so a failure never leaves half an image anywhere. Dropping it
/// uncommitted removes the temporary file.
final class OutputFile {
  /// The name messages use: the path as given, or `<stdout>`.
  let name: String
  let stream: CFile
  private let destination: Destination
  private var committed = false

  private enum Destination {
    case file(path: String, temporaryPath: String)
    case standardOutput
  }

  /// Creates the temporary file; for a path, in its folder, which must exist.
  init(path: String) throws(HexMaskError) {
    if path == "-" {
      guard let spool = tmpfile() else {
        throw HexMaskError(
          file: "<stdout>", reason: "cannot create a temporary file: \(systemError())")
      }
      name = "<stdout>"
      stream = spool
      destination = .standardOutput
      return
    }
    let folder = parentFolder(of: path)
    var info = stat()
    guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
      throw HexMaskError(file: path, reason: "output folder '\(folder)' does not exist")
    }
    let base =
      path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? "out"
    var template = Array("\(folder)/.\(base).hexmask-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else {
      throw HexMaskError(
        file: path, reason: "cannot create a file in '\(folder)': \(systemError())")
    }
    // mkstemp makes the file private (0600); give it the permissions a new file gets.
    fchmod(descriptor, 0o666 & ~creationMask)
    let temporaryPath = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let opened = fdopen(descriptor, "wb") else {
      close(descriptor)
      unlink(temporaryPath)
      throw HexMaskError(file: path, reason: "cannot open a temporary file: \(systemError())")
    }
    name = path
    stream = opened
    destination = .file(path: path, temporaryPath: temporaryPath)
  }

  /// Makes the finished output visible: renames the file, or copies the spool to stdout.
  func commit() throws(HexMaskError) {
    committed = true
    switch destination {
    case .file(let path, let temporaryPath):
      let flushed = fflush(stream) == 0
      let closed = fclose(stream) == 0
      guard flushed && closed, rename(temporaryPath, path) == 0 else {
        let reason = systemError()
        unlink(temporaryPath)
        throw HexMaskError(file: name, reason: "cannot write: \(reason)")
      }
    case .standardOutput:
      defer { fclose(stream) }
      guard fflush(stream) == 0, fseek(stream, 0, SEEK_SET) == 0, copy(stream, toDescriptor: 1)
      else {
        throw HexMaskError(file: name, reason: "cannot write: \(systemError())")
      }
    }
  }

  deinit {
    guard !committed else { return }
    fclose(stream)
    if case .file(_, let temporaryPath) = destination { unlink(temporaryPath) }
  }
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
