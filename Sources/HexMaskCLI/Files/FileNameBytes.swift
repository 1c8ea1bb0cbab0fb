#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A file name on Linux is bytes, not text: `f\xeate.jpg` (Latin-1) is a name the system
// accepts and cameras, old archives and Windows shares produce. The command keeps paths as
// `String` everywhere, so each byte that is not part of valid UTF-8 is carried as one
// private-use character, U+F780 + (byte − 0x80), and turned back into that byte at every
// system call. The mapping is lossless both ways: a name that really holds U+F780…U+F7FF
// (valid UTF-8 `EF 9E 80`…`EF 9F BF`) has those bytes carried one by one too, so no two
// byte strings give the same `String`. Messages show such bytes as octal escapes (`$'f\352te'`,
// as GNU `ls` does) and JSON as lone surrogates `\udcea` (Python's `surrogateescape`).

/// The private-use characters that stand for raw bytes 0x80…0xFF.
private let rawByteScalars: ClosedRange<UInt32> = 0xF780...0xF7FF

extension String {
  /// The path whose bytes are `bytes`, valid UTF-8 or not (see above).
  ///
  /// ```swift
  /// String(fileNameBytes: [0x66, 0xEA]).fileNameBytes  // [0x66, 0xEA]
  /// ```
  init(fileNameBytes bytes: some Collection<UInt8>) {
    if let text = String(validating: bytes, as: UTF8.self),
      !text.unicodeScalars.contains(where: { rawByteScalars.contains($0.value) })
    {
      self = text
      return
    }
    // Each scalar is checked on its own bytes, found by the lead byte's length; a sequence
    // that is not valid UTF-8 gives up its lead byte alone, and the rest are tried again.
    var scalars = String.UnicodeScalarView()
    var pending = Array(bytes)[...]
    while let lead = pending.first {
      let length = utf8SequenceLength(lead)
      let candidate = pending.prefix(length)
      if length > 0, candidate.count == length,
        let text = String(validating: candidate, as: UTF8.self),
        let scalar = text.unicodeScalars.first, !rawByteScalars.contains(scalar.value)
      {
        scalars.append(scalar)
        pending = pending.dropFirst(length)
      } else {
        scalars.append(rawByteScalar(lead))
        pending = pending.dropFirst()
      }
    }
    self = String(scalars)
  }

  /// The bytes a system call gets for this path: each raw-byte character turned back into
  /// its byte, everything else as UTF-8.
  var fileNameBytes: [UInt8] {
    guard hasRawFileNameBytes else { return Array(utf8) }
    var bytes: [UInt8] = []
    for scalar in unicodeScalars {
      if let byte = rawFileNameByte(scalar) {
        bytes.append(byte)
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// Calls `body` with this path as the NUL-terminated bytes the system expects.
  func withFileName<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
    guard hasRawFileNameBytes else { return try withCString(body) }
    let bytes = fileNameBytes.map { CChar(bitPattern: $0) } + [0]
    return try bytes.withUnsafeBufferPointer { buffer in
      // A non-empty array's buffer always has a base address.
      guard let start = buffer.baseAddress else { return try "".withCString(body) }
      return try body(start)
    }
  }

  /// True when this path holds bytes that are not UTF-8.
  var hasRawFileNameBytes: Bool {
    unicodeScalars.contains(where: { rawByteScalars.contains($0.value) })
  }
}

/// The raw byte a scalar stands for, or nil when it is an ordinary character.
func rawFileNameByte(_ scalar: Unicode.Scalar) -> UInt8? {
  rawByteScalars.contains(scalar.value) ? UInt8(scalar.value - 0xF700) : nil
}

/// The character that carries raw byte `byte` (0x00…0x7F are always valid UTF-8, so only
/// 0x80…0xFF ever need one).
private func rawByteScalar(_ byte: UInt8) -> Unicode.Scalar {
  Unicode.Scalar(0xF700 + UInt32(byte)) ?? "\u{FFFD}"
}

/// The length of the UTF-8 sequence `lead` starts, or 0 when it cannot start one.
private func utf8SequenceLength(_ lead: UInt8) -> Int {
  switch lead {
  case 0x00...0x7F: 1
  case 0xC2...0xDF: 2
  case 0xE0...0xEF: 3
  case 0xF0...0xF4: 4
  default: 0
  }
}

/// The command line's arguments as the system passed them, bytes kept (Swift's
/// `CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD), for
/// ``runHexMask(_:)``.
///
/// ```swift
/// exit(runHexMask(Array(commandLineArguments().dropFirst())))
/// ```
public func commandLineArguments() -> [String] {
  (0..<Int(CommandLine.argc)).map { index in
    guard let argument = CommandLine.unsafeArgv[index] else { return "" }
    let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
    return String(fileNameBytes: bytes)
  }
}

/// `rename(2)` of two paths, bytes kept; 0 or -1 with `errno` set.
@discardableResult
func renameFile(_ path: String, to target: String) -> Int32 {
  path.withFileName { from in target.withFileName { to in rename(from, to) } }
}

/// `unlink(2)` of a path, bytes kept; 0 or -1 with `errno` set.
@discardableResult
func removeFile(_ path: String) -> Int32 {
  path.withFileName { unlink($0) }
}
