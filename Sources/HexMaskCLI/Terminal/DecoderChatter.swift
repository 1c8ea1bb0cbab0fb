import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps the process's standard error for hexmask's own messages and silences everything
/// else that writes to descriptor 2, and returns the descriptor the messages must go to.
///
/// libde265, dav1d and libaom print their own lines ("SPS error: CB alignment", "Error
/// parsing OBU data") to descriptor 2 while decoding a damaged HEIC or AVIF, ahead of
/// hexmask's one line about the file; neither libheif nor they offer a way to turn that off.
/// So the real standard error is duplicated once, at start-up, and descriptor 2 then points at
/// `/dev/null` for the whole run. Doing it once, before any thread starts, is what keeps it
/// free of races with `-j N`: no decoder ever runs while descriptor 2 changes.
///
/// The duplicate is close-on-exec and numbered 3 or higher. When descriptor 2 was closed at
/// start-up the result is -1, so writing a message fails with `EBADF` exactly as writing to
/// the closed descriptor 2 did; descriptor 2 still gets `/dev/null`, so that no file the run
/// opens can take that number and receive a library's lines.
///
/// ```swift
/// let messages = silenceDecoderChatter()
/// let error = TextStream(descriptor: messages, name: "<stderr>")
/// ```
func silenceDecoderChatter() -> Int32 {
  let messages = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
  realStandardError.store(messages, ordering: .relaxed)
  let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
  // Without /dev/null (a bare chroot) the chatter stays; hexmask's messages are unaffected.
  guard null >= 0 else { return messages }
  if null != STDERR_FILENO {
    // dup2 clears close-on-exec on descriptor 2, as a standard stream should have it.
    _ = dup2(null, STDERR_FILENO)
    close(null)
  }
  return messages
}

/// The descriptor that reaches the standard error the process started with: 2 until
/// ``silenceDecoderChatter()`` moves it, so that `/dev/stderr` named as an output still
/// means the user's standard error, not `/dev/null`.
let realStandardError = Atomic<Int32>(STDERR_FILENO)
