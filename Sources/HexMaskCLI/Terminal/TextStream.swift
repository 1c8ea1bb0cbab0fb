import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text going to one of the process's own descriptors (standard output or error), written
/// with POSIX `write`, so that a full disk or a closed pipe is a failure the command reports
/// when it ends rather than a crash: Foundation's `FileHandle.write(_:)` traps on any error.
///
/// The first failure is remembered and later text is dropped: a full disk stays full, and a
/// pipe whose reader left gets no new one. Safe to use from any thread; each text is written
/// whole before another starts, so lines from different threads never interleave.
///
/// ```swift
/// let output = TextStream(descriptor: STDOUT_FILENO, name: "<stdout>")
/// output.write("hexmask 0.1.0\n")
/// if let code = output.failure { print(String(cString: strerror(code))) }
/// ```
final class TextStream: Sendable {
  /// The descriptor written to; the stream never closes it.
  let descriptor: Int32
  /// How messages name the stream, e.g. `<stdout>`.
  let name: String
  /// The `errno` of the first failed write; 0 while every write succeeded.
  private let firstError = Mutex<Int32>(0)

  init(descriptor: Int32, name: String) {
    self.descriptor = descriptor
    self.name = name
  }

  /// Writes all of `text`, or remembers why it could not be written.
  func write(_ text: String) {
    firstError.withLock { firstError in
      guard firstError == 0 else { return }
      firstError = writeAll(text, to: descriptor)
    }
  }

  /// The `errno` of the first write that failed (`ENOSPC`, `EPIPE`, …); nil when none did.
  var failure: Int32? {
    let code = firstError.withLock { $0 }
    return code == 0 ? nil : code
  }
}

/// Writes every byte of `text` to `descriptor`, and returns 0, or the `errno` of the failure.
///
/// `write` may take only part of the bytes (a pipe, a signal arriving mid-way) or be
/// interrupted before writing anything (`EINTR`): both go on with the rest. A descriptor a
/// parent left non-blocking (`EAGAIN`) is waited for with `poll` instead of failing.
func writeAll(_ text: String, to descriptor: Int32) -> Int32 {
  var text = text
  return text.withUTF8 { bytes -> Int32 in
    guard let start = bytes.baseAddress else { return 0 }
    var done = 0
    while done < bytes.count {
      let written = write(descriptor, start + done, bytes.count - done)
      if written > 0 {
        done += written
        continue
      }
      // write returns 0 only for a count of 0, which never reaches it; do not spin on it.
      guard written < 0 else { return EIO }
      let code = errno
      switch code {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK:
        guard waitUntilWritable(descriptor) else { return errno }
      default: return code
      }
    }
    return 0
  }
}

/// Blocks until `descriptor` accepts more bytes (or reports an error `write` will return);
/// false when `poll` itself fails.
private func waitUntilWritable(_ descriptor: Int32) -> Bool {
  var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
  while poll(&request, 1, -1) < 0 {
    guard errno == EINTR else { return false }
  }
  return true
}
