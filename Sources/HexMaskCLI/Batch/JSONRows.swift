import HexMask

// The rows `--json` prints, one object per file, for a batch and its dry run.

/// One `--json` line: the keys always in the same order, `null` for what does not apply.
/// `warnings` (`[]` when there are none) says what a file written from a damaged input
/// lacks, as the warnings on standard error do. `crop` is the square of the upright input
/// the output shows, `{"x":…,"y":…,"side":…}`, null unless written; `faces`, the number of
/// faces found, is there only for outputs written with `--gravity face`; `kept`, true, only
/// for a failed file whose earlier output is still there, left as it was; `framing` (`face`,
/// `group`, or `attention` where no face was found: ``HexMask/Framing``) only for outputs
/// written with `--face-size`; `profile` (the input profile's description, null when it has
/// none) and `colour` (`kept`, `converted`, `srgb` or `unusable`:
/// ``HexMask/ColourReport/Action``) only for outputs of an input with a profile; `frames`,
/// `duration_ms` (their delays summed, as browsers play them) and `loop` (how many times it
/// plays in all, 0 forever) only for an animated output. The keys older versions printed
/// keep their order: new ones come after them.
func jsonLine(_ result: BatchResult, status: String) -> String {
  let side = result.report.map { String($0.side) } ?? "null"
  let warnings = (result.report?.warnings ?? []).map { jsonString($0.description) }
  let crop = result.report?.crop.map { #"{"x":\#($0.x),"y":\#($0.y),"side":\#($0.side)}"# }
  var fields: [(String, String)] = [
    ("input", jsonString(result.item.input)),
    ("output", result.item.output.isEmpty ? "null" : jsonString(result.item.output)),
    ("status", jsonString(status)),
    ("reason", result.reason.map { jsonString($0.rawValue) } ?? "null"),
    ("error", result.error.map { jsonString($0.description) } ?? "null"),
    ("width", side),
    ("height", side),
    ("milliseconds", String(result.milliseconds)),
    ("warnings", "[" + warnings.joined(separator: ",") + "]"),
    ("crop", crop ?? "null"),
  ]
  if let faces = result.report?.faces { fields.append(("faces", String(faces.count))) }
  if result.keptOutput { fields.append(("kept", "true")) }
  if let framing = result.report?.framing {
    fields.append(("framing", jsonString(framing.rawValue)))
  }
  if let colour = result.report?.colour {
    fields.append(("profile", colour.profile.map(jsonString) ?? "null"))
    fields.append(("colour", jsonString(colour.action.rawValue)))
  }
  if let animation = result.report?.animation {
    fields.append(("frames", String(animation.frames)))
    fields.append(("duration_ms", String(animation.durationMilliseconds)))
    fields.append(("loop", String(animation.loopCount)))
  }
  return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
}

/// `text` as a JSON string literal: quotes, backslashes and control characters escaped. A
/// byte of a file name that is not UTF-8 becomes a lone surrogate, `\udc80`…`\udcff`, as
/// Python's `surrogateescape` writes it (`os.fsencode` turns it back into the byte).
func jsonString(_ text: String) -> String {
  var escaped = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": escaped += "\\\""
    case "\\": escaped += "\\\\"
    case "\n": escaped += "\\n"
    case "\r": escaped += "\\r"
    case "\t": escaped += "\\t"
    case let control where control.value < 0x20 || control.value == 0x7F:
      escaped += "\\u" + zeroPadded(Int(control.value), digits: 4, radix: 16)
    default:
      if let byte = rawFileNameByte(scalar) {
        escaped += "\\udc" + zeroPadded(Int(byte), digits: 2, radix: 16)
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
  }
  return escaped + "\""
}
