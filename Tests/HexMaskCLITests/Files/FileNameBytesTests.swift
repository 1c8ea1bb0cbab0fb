import Testing

@testable import HexMaskCLI

@Suite struct FileNameBytesTests {
  /// Byte strings a file system accepts: UTF-8, Latin-1, cut sequences, overlong forms,
  /// surrogates, and the private-use characters the codec itself uses.
  static let names: [[UInt8]] = [
    Array("photo.jpg".utf8),
    Array("fête.jpg".utf8),
    [0x66, 0xEA, 0x74, 0x65],  // Latin-1 fête
    [0xE9, 0x74, 0xE9, 0x2E, 0x70, 0x6E, 0x67],
    [0xFF, 0xFE, 0x80],
    [0xE2, 0x82],  // a cut three-byte sequence
    [0xC0, 0xAF],  // overlong '/'
    [0xED, 0xA0, 0x80],  // an encoded surrogate
    [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
    [0xEF, 0x9E, 0x80, 0x41],  // U+F780, valid UTF-8 but the codec's own range
    [0xEF, 0x9F, 0xBF],  // U+F7FF
    Array("日本語/写真.heic".utf8),
  ]

  @Test(arguments: names)
  func bytesSurviveTheRoundTrip(_ bytes: [UInt8]) {
    let name = String(fileNameBytes: bytes)
    #expect(name.fileNameBytes == bytes)
    name.withFileName { pointer in
      #expect(strlenBytes(pointer) == bytes)
    }
  }

  @Test func differentBytesGiveDifferentNames() {
    let decoded = Self.names.map { String(fileNameBytes: $0) }
    #expect(Set(decoded).count == Self.names.count)
  }

  @Test func validUTF8StaysItself() {
    #expect(String(fileNameBytes: Array("fête.jpg".utf8)) == "fête.jpg")
    #expect(!"fête.jpg".hasRawFileNameBytes)
    #expect(String(fileNameBytes: [0x66, 0xEA]).hasRawFileNameBytes)
  }

  @Test func messagesEscapeRawBytesAsOctal() {
    let name = String(fileNameBytes: [0x66, 0xEA, 0x74, 0x65, 0x2E, 0x6A, 0x70, 0x67])
    #expect(displayName(name) == #"$'f\352te.jpg'"#)
    #expect(escapingControlCharacters("x \(name)") == #"x f\352te.jpg"#)
  }

  @Test func jsonWritesRawBytesAsLoneSurrogates() {
    let name = String(fileNameBytes: [0x66, 0xEA, 0x2E, 0x6A, 0x70, 0x67])
    #expect(jsonString(name) == #""f\udcea.jpg""#)
    #expect(jsonString("fête") == "\"fête\"")
  }
}

/// The bytes before the NUL at `pointer`.
private func strlenBytes(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
  var bytes: [UInt8] = []
  var cursor = pointer
  while cursor.pointee != 0 {
    bytes.append(UInt8(bitPattern: cursor.pointee))
    cursor += 1
  }
  return bytes
}
