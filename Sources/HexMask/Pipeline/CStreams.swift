#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The adapters between Swift and C streams: descriptors and bytes in memory become `FILE *`
// the decoders and writers use, and C failures become typed errors.

extension HexMask {
  /// Runs a decoding step; its failure is the input's.
  static func decoding<T>(_ step: () throws(ImageError) -> T) throws(Error) -> T {
    do {
      return try step()
    } catch {
      throw .decoding(error)
    }
  }

  /// Runs an encoding step; its failure is the output's.
  static func encoding<T>(_ step: () throws(ImageError) -> T) throws(Error) -> T {
    do {
      return try step()
    } catch {
      throw .encoding(error)
    }
  }

  /// A C stream of its own on a copy of `descriptor`: closing it leaves the caller's open.
  static func stream(
    _ descriptor: Int32, mode: String, failure: (ImageError) -> Error
  ) throws(Error) -> CFile {
    let copy = dup(descriptor)
    guard copy >= 0, let opened = fdopen(copy, mode) else {
      let reason = systemError()
      if copy >= 0 { close(copy) }
      throw failure(ImageError(.unreadable, "cannot use descriptor \(descriptor): \(reason)"))
    }
    return opened
  }

  /// Runs `body` with a C stream that reads `bytes` (fmemopen), so the file pipeline serves
  /// bytes in memory too.
  static func readingBytes<T>(
    _ bytes: [UInt8], _ body: (CFile) throws(Error) -> T
  ) throws(Error) -> T {
    guard !bytes.isEmpty else { throw .decoding(ImageError(.unreadable, "empty file")) }
    var result: Result<T, Error> = .failure(.decoding(ImageError(.unreadable, "no data")))
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress,
        let source = fmemopen(UnsafeMutableRawPointer(mutating: base), buffer.count, "rb")
      else {
        result = .failure(.decoding(ImageError(.unreadable, "cannot read: \(systemError())")))
        return
      }
      defer { fclose(source) }
      result = Result(catching: { () throws(Error) -> T in try body(source) })
    }
    return try result.get()
  }

  /// Runs `body` with `count` C streams that collect what is written into memory.
  static func collectingBytes(
    count: Int, _ body: ([CFile]) throws(Error) -> Void
  ) throws(Error) -> [[UInt8]] {
    let buffers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: count)
    let sizes = UnsafeMutablePointer<Int>.allocate(capacity: count)
    buffers.initialize(repeating: nil, count: count)
    sizes.initialize(repeating: 0, count: count)
    var streams: [CFile] = []
    defer {
      for index in 0..<count { free(buffers[index]) }
      buffers.deallocate()
      sizes.deallocate()
    }
    var failure: Error?
    for index in 0..<count {
      guard let memory = open_memstream(buffers + index, sizes + index) else {
        failure = .encoding(writeFailure())
        break
      }
      streams.append(memory)
    }
    if failure == nil {
      do throws(Error) {
        try body(streams)
      } catch {
        failure = error
      }
    }
    var closed = true
    for stream in streams where fclose(stream) != 0 { closed = false }
    if let failure { throw failure }
    guard closed else {
      throw .encoding(writeFailure())
    }
    return (0..<count).map { index in
      guard let buffer = buffers[index] else { return [] }
      return Array(UnsafeRawBufferPointer(start: buffer, count: sizes[index]))
    }
  }
}

/// The error of a failed write, from the current `errno`.
func writeFailure() -> ImageError {
  ImageError(.writeFailed, "cannot write: \(systemError())")
}

/// The text of the current `errno`, e.g. "No space left on device".
package func systemError() -> String { String(cString: strerror(errno)) }
