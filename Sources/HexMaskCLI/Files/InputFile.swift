import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An input opened for reading: a file, or standard input when the path is `-`.
final class InputFile {
  /// The name messages use: the path as given, or `<stdin>`.
  let name: String
  let stream: CFile

  init(path: String) throws(FileFailure) {
    if path == "-" {
      // A stream of our own on a copy of descriptor 0: closing it leaves stdin alone.
      name = "<stdin>"
      let copy = dup(0)
      guard copy >= 0, let opened = fdopen(copy, "rb") else {
        throw FileFailure(file: name, reason: "cannot read: \(systemError())")
      }
      stream = opened
      return
    }
    name = path
    var info = stat()
    if path.withFileName({ stat($0, &info) }) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
      throw FileFailure(file: path, reason: "is a folder, not an image")
    }
    guard let opened = path.withFileName({ fopen($0, "rb") }) else {
      throw FileFailure(file: path, reason: "cannot open: \(systemError())")
    }
    // A batch input that is a terminal (`/dev/tty`, `/dev/stdin` typed at) would wait for
    // someone to type a picture; single-file mode refused it before opening.
    if isatty(fileno(opened)) == 1 {
      fclose(opened)
      throw FileFailure(file: path, reason: "is a terminal, not a picture")
    }
    stream = opened
  }

  deinit {
    fclose(stream)
  }
}
