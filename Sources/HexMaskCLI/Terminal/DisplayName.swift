import HexMask

/// A file name as messages print it: unchanged when every character prints as itself;
/// otherwise shell-quoted as GNU `ls` quotes it, `$'a\nb.jpg'`, so a name holding a line
/// break or a terminal escape cannot start a line of its own (and forge a `hexmask: …`
/// message) and can still be pasted back into a shell.
///
/// ```swift
/// displayName("photos/a.jpg")  // photos/a.jpg
/// displayName("a\nb.jpg")      // $'a\nb.jpg'
/// ```
func displayName(_ name: String) -> String {
  needsShellEscapes(name) ? shellEscaped(name) : name
}

/// A name in the single quotes messages put around names and values (`'a b.jpg'`); a name
/// that needs escapes is `$'…'` instead, which is quoted already.
///
/// ```swift
/// quotedName("out dir")   // 'out dir'
/// quotedName("out\tdir")  // $'out\tdir'
/// ```
func quotedName(_ name: String) -> String {
  needsShellEscapes(name) ? shellEscaped(name) : "'\(name)'"
}

/// `line` with every control character written as its escape (`\n`, `\033`): the last
/// safety net for text that reaches standard error without going through `displayName`
/// (a folder named inside a library's reason), so one message stays one line.
///
/// ```swift
/// escapingControlCharacters("a\nb")  // a\nb, four characters
/// ```
func escapingControlCharacters(_ line: String) -> String {
  func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    isControl(scalar) || rawFileNameByte(scalar) != nil
  }
  guard line.unicodeScalars.contains(where: needsEscape) else { return line }
  var escaped = ""
  for scalar in line.unicodeScalars {
    if needsEscape(scalar) {
      escaped += escapeSequence(for: scalar)
    } else {
      escaped.append(Character(scalar))
    }
  }
  return escaped
}

/// `text` with every control character escaped except the line breaks that end its lines:
/// several message lines, each kept on its own line.
func escapingControlCharactersInLines(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false)
    .map { escapingControlCharacters(String($0)) }
    .joined(separator: "\n")
}

extension FileFailure {
  /// `file: reason` as messages print it, the file name through `displayName`.
  var displayed: String { "\(displayName(file)): \(reason)" }
}

/// True for the characters a terminal acts on instead of printing: C0 controls, DEL and the
/// C1 controls (U+0080–U+009F, which some terminals read as escape sequences too).
private func isControl(_ scalar: Unicode.Scalar) -> Bool {
  scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}

/// True when `name` holds a character that must be escaped to be shown safely: a control
/// character or a byte that is not UTF-8.
private func needsShellEscapes(_ name: String) -> Bool {
  name.unicodeScalars.contains { isControl($0) || rawFileNameByte($0) != nil }
}

/// `$'…'`, bash's ANSI-C quoting: the form GNU `ls` prints for such names. Inside it `\` and
/// `'` need a backslash; controls become `\n`-style or octal escapes.
private func shellEscaped(_ name: String) -> String {
  var quoted = "$'"
  for scalar in name.unicodeScalars {
    switch scalar {
    case "\\": quoted += "\\\\"
    case "'": quoted += "\\'"
    case _ where isControl(scalar) || rawFileNameByte(scalar) != nil:
      quoted += escapeSequence(for: scalar)
    default: quoted.unicodeScalars.append(scalar)
    }
  }
  return quoted + "'"
}

/// The backslash escape of one control character: a letter where C has one, else each of
/// its UTF-8 bytes as three octal digits (as `ls` writes them, unambiguous before a digit);
/// a byte of a file name that is not UTF-8 is that byte in octal.
private func escapeSequence(for scalar: Unicode.Scalar) -> String {
  if let byte = rawFileNameByte(scalar) { return "\\" + String(byte, radix: 8) }
  switch scalar {
  case "\u{07}": return "\\a"
  case "\u{08}": return "\\b"
  case "\t": return "\\t"
  case "\n": return "\\n"
  case "\u{0B}": return "\\v"
  case "\u{0C}": return "\\f"
  case "\r": return "\\r"
  default:
    return String(scalar).utf8.map { byte in
      let octal = String(byte, radix: 8)
      return "\\" + String(repeating: "0", count: 3 - octal.count) + octal
    }.joined()
  }
}
