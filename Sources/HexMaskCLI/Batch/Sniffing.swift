import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the first bytes of a file found in a folder say about it.
enum SniffedFile: Equatable {
  /// A picture hexmask reads.
  case picture(ImageFormat)
  /// Something else: a TIFF, notes.txt, an empty file, or no regular file at all.
  case other
  /// It could not be opened or read (no permission); `reason` is the system's.
  case unreadable(reason: String)

  /// Looks at the file `path` names. Opening never blocks: a FIFO that replaced a file since
  /// it was listed would otherwise wait for a writer forever, so the open is non-blocking and
  /// `fstat` checks the kind of what was opened before anything is read.
  ///
  /// - Complexity: one `open`, one `fstat` and one read of 64 bytes.
  init(sniffingFileAt path: String) {
    let descriptor = path.withFileName {
      open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    }
    guard descriptor >= 0 else {
      self = errno == ENOENT ? .other : .unreadable(reason: "cannot open: \(systemError())")
      return
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      self = .other
      return
    }
    var head = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
    let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count >= 0 else {
      self = .unreadable(reason: "cannot read: \(systemError())")
      return
    }
    self = ImageFormat(sniffing: head[..<count]).map(SniffedFile.picture) ?? .other
  }
}

extension ImageFormat {
  /// The format of the regular file at `path` from its first bytes, or nil when it is none
  /// hexmask reads, cannot be read, or is not a regular file (see ``SniffedFile``).
  init?(sniffingFileAt path: String) {
    guard case .picture(let format) = SniffedFile(sniffingFileAt: path) else { return nil }
    self = format
  }
}
