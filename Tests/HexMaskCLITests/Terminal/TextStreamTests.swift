import Foundation
import Testing

@testable import HexMaskCLI

#if canImport(Glibc)
  import Glibc
#endif

/// Text written with POSIX `write`: whole through partial writes, failures remembered.
@Suite struct TextStreamTests {
  /// A megabyte through a non-blocking pipe drained slowly by another thread: `write` takes
  /// part of it at a time and says `EAGAIN` when the pipe is full, and every byte still
  /// arrives once, in order.
  @Test func everyByteArrivesThroughPartialWritesAndEAGAIN() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let (reading, writing) = (ends[0], ends[1])
    defer { close(reading) }
    try #require(fcntl(writing, F_SETFL, fcntl(writing, F_GETFL) | O_NONBLOCK) == 0)
    let text = (0..<20_000).map { "line \($0) of a long text\n" }.joined()
    let received = Thread.readAll(from: reading)

    let stream = TextStream(descriptor: writing, name: "<pipe>")
    stream.write(text)
    close(writing)

    #expect(stream.failure == nil)
    #expect(received.wait() == Data(text.utf8))
  }

  @Test func aFullDiskIsRememberedAndLaterTextDropped() throws {
    let descriptor = open("/dev/full", O_WRONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let stream = TextStream(descriptor: descriptor, name: "<stdout>")
    stream.write("")
    #expect(stream.failure == nil, "nothing to write cannot fail")
    stream.write("hexmask 0.1.0\n")
    #expect(stream.failure == ENOSPC)
    stream.write("more\n")
    #expect(stream.failure == ENOSPC)
  }

  @Test func aClosedDescriptorIsAFailureNotACrash() {
    let stream = TextStream(descriptor: -1, name: "<stdout>")
    stream.write("text\n")
    #expect(stream.failure == EBADF)
  }
}

/// How a run's status changes when text could not be written.
@Suite struct FinalStatusTests {
  func final(_ status: Int32, _ failure: (stream: String, code: Int32)?) -> (Int32, String) {
    var messages = ""
    let result = finalStatus(status, writeFailure: failure) { messages += $0 }
    return (result, messages)
  }

  @Test func nothingLostKeepsTheStatus() {
    for status: Int32 in [0, 1, 2, 130] {
      #expect(final(status, nil) == (status, ""))
    }
  }

  @Test func aFullDiskTurnsSuccessIntoOneAndSaysSoOnce() {
    #expect(
      final(0, ("<stdout>", ENOSPC))
        == (1, "hexmask: <stdout>: cannot write: No space left on device\n"))
  }

  @Test func aFailedRunKeepsItsOwnStatus() {
    #expect(final(2, ("<stderr>", ENOSPC)).0 == 2)
    #expect(final(1, ("<stdout>", EIO)).0 == 1)
    #expect(final(130, ("<stdout>", ENOSPC)).0 == 130)
  }

  /// What SIGPIPE's default action gives, without a word, whatever the run's own status.
  @Test func aClosedPipeEndsQuietlyWith141() {
    for status: Int32 in [0, 1, 2] {
      #expect(final(status, ("<stdout>", EPIPE)) == (141, ""))
    }
  }
}

extension Thread {
  /// Reads `descriptor` to its end on a new thread, a little at a time; `wait()` returns
  /// what was read.
  static func readAll(from descriptor: Int32) -> Reading {
    let reading = Reading()
    Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      var data = Data()
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        data.append(contentsOf: buffer[..<count])
        usleep(100)
      }
      reading.finish(data)
    }.start()
    return reading
  }

  /// The bytes a reader thread collected, once it has read them all.
  final class Reading: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    fileprivate func finish(_ data: Data) {
      self.data = data
      done.signal()
    }

    /// Nil when the reader has not reached the end within a minute.
    func wait() -> Data? {
      guard done.wait(timeout: .now() + 60) == .success else { return nil }
      return data
    }
  }
}
