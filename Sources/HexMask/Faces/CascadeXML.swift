import CImageShims

/// Just enough XML for OpenCV's cascade files: elements, their text, comments and the
/// declaration. Attributes are skipped, entities are not expanded (a cascade has only
/// numbers and names), and anything else (a DOCTYPE, CDATA, a tag left open) is an error
/// rather than a guess. Foundation's XMLParser would pull in libxml2 for one file format.
///
/// ```swift
/// let root = try XMLElement.parse(Array("<a><b>1 2</b></a>".utf8))
/// root.child("b")?.text   // "1 2"
/// ```
package struct XMLElement: Sendable {
  /// The tag name.
  package var name: String
  /// The text directly inside, outside any child, trimmed of surrounding white space.
  package var text: String
  package var children: [XMLElement]

  /// The first child named `name`.
  package func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

  /// The numbers in the text, split at white space; nil if any piece is not a number.
  /// Read in place by the C library's strtod in the C locale: a cascade holds some 10⁵
  /// numbers, and a String for each (then `Double(_:)`, which calls the same strtod) took
  /// a third of the 20 ms that reading OpenCV's two cascades took.
  package var numbers: [Double]? {
    guard !text.utf8.contains(0) else { return nil }
    var values: [Double] = []
    let complete = text.withCString { start -> Bool in
      var cursor = start
      while true {
        while XMLReader.isSpace(UInt8(bitPattern: cursor.pointee)) { cursor += 1 }
        if cursor.pointee == 0 { return true }
        var end: UnsafeMutablePointer<CChar>? = nil
        let value = hm_strtod_c(cursor, &end)
        // A number ends at white space or at the end of the text ("1x" is not one).
        guard let end, UnsafePointer(end) > cursor else { return false }
        let next = UInt8(bitPattern: end.pointee)
        guard next == 0 || XMLReader.isSpace(next) else { return false }
        values.append(value)
        cursor = UnsafePointer(end)
      }
    }
    return complete ? values : nil
  }

  /// The document's root element.
  package static func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
    var reader = XMLReader(bytes: bytes)
    return try reader.document()
  }
}

/// Where and why a document is not the XML a cascade is written in.
package struct XMLError: Swift.Error, Equatable, Sendable {
  package var reason: String
  package var offset: Int
}

struct XMLReader {
  let bytes: [UInt8]
  var position = 0
  /// Elements open at once; a cascade nests about six deep, so this only stops a hostile
  /// file from exhausting the stack.
  static let maximumDepth = 64

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func document() throws(XMLError) -> XMLElement {
    // XML has no NUL character; C's number reading would stop at one ("3\0.5" as 3).
    if let nul = bytes.firstIndex(of: 0) {
      position = nul
      throw failure("a NUL byte")
    }
    // A UTF-8 byte order mark, as some editors write one.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    try skipMisc()
    guard peek(of: "<") else { throw failure("no root element") }
    let root = try element(depth: 0)
    try skipMisc()
    guard position == bytes.count else { throw failure("text after the root element") }
    return root
  }

  /// White space, comments and `<?…?>` declarations between elements.
  mutating func skipMisc() throws(XMLError) {
    while true {
      skipSpace()
      if peek(of: "<?") {
        try skip(past: "?>")
      } else if peek(of: "<!--") {
        try skip(past: "-->")
      } else {
        return
      }
    }
  }

  mutating func element(depth: Int) throws(XMLError) -> XMLElement {
    guard depth < Self.maximumDepth else { throw failure("elements nested too deep") }
    position += 1  // "<"
    let name = readName()
    guard !name.isEmpty else { throw failure("a tag without a name") }
    // Attributes: skipped, quoted values may hold ">".
    while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        position += 1
        while position < bytes.count, bytes[position] != byte { position += 1 }
      } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count,
        bytes[position + 1] == UInt8(ascii: ">")
      {
        position += 2
        return XMLElement(name: name, text: "", children: [])
      }
      position += 1
    }
    guard position < bytes.count else { throw failure("<\(name)> is not closed") }
    position += 1  // ">"
    var text: [UInt8] = []
    var children: [XMLElement] = []
    while true {
      guard position < bytes.count else { throw failure("<\(name)> has no end tag") }
      if bytes[position] != UInt8(ascii: "<") {
        // Text up to the next tag, as one slice (a cascade is mostly text).
        let end = bytes[position...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
        text.append(contentsOf: bytes[position..<end])
        position = end
      } else if peek(of: "<!--") {
        try skip(past: "-->")
      } else if peek(of: "</") {
        position += 2
        let end = readName()
        guard end == name else { throw failure("</\(end)> closes <\(name)>") }
        skipSpace()
        guard peek(of: ">") else { throw failure("</\(end) is not closed") }
        position += 1
        return XMLElement(name: name, text: Self.trimmed(text), children: children)
      } else if peek(of: "<!") || peek(of: "<?") {
        throw failure("markup a cascade does not use")
      } else {
        children.append(try element(depth: depth + 1))
      }
    }
  }

  mutating func readName() -> String {
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      let isNameByte =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        || byte == UInt8(ascii: ":")
      guard isNameByte else { break }
      position += 1
    }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// XML's white space: space, tab, line feed, carriage return.
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  mutating func skipSpace() {
    while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
  }

  func peek(of literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    return literal.withUTF8Buffer { expected in
      for index in 0..<count where bytes[position + index] != expected[index] { return false }
      return true
    }
  }

  mutating func skip(past literal: StaticString) throws(XMLError) {
    while position < bytes.count {
      if peek(of: literal) {
        position += literal.utf8CodeUnitCount
        return
      }
      position += 1
    }
    throw failure("\(literal) is missing")
  }

  func failure(_ reason: String) -> XMLError { XMLError(reason: reason, offset: position) }

  static func trimmed(_ text: [UInt8]) -> String {
    guard let first = text.firstIndex(where: { !isSpace($0) }),
      let last = text.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(decoding: text[first...last], as: UTF8.self)
  }
}
