/// The usage lines: one file (`INPUT OUTPUT`), then batch mode (`INPUT... --out-dir DIR`).
let usageLine =
  "Usage: hexmask [options] " + positionalNames.joined(separator: " ") + "\n"
  + "       hexmask [options] " + batchPositionalNames.joined(separator: " ")

/// The text `--help` prints, generated from `optionTable`, wrapped at `width` columns.
///
/// ```swift
/// print(helpText())
/// ```
func helpText(options table: [OptionDescription] = optionTable, width: Int = 80) -> String {
  let labels = table.map(optionLabel)
  let helpColumn = min((labels.map(\.count).max() ?? 0) + 2, width / 3)
  var lines = [usageLine, ""]
  lines += wrap(commandSummary, width: width)
  lines += [""] + wrap(filesSummary, width: width)
  for group in OptionGroup.allCases {
    let members = table.indices.filter { table[$0].group == group }
    guard !members.isEmpty else { continue }
    lines += ["", "\(group.rawValue) options:"]
    for index in members {
      let option = table[index]
      var help = option.help
      if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
      lines += hangingParagraph(
        label: labels[index], text: help, column: helpColumn, width: width)
    }
  }
  lines += ["", "Examples:"]
  for example in helpExamples {
    lines.append("  " + example.command)
    lines += wrap(example.purpose, width: width, indent: 6)
  }
  lines += ["", "Exit status:"]
  for (status, meaning) in CommandError.exitStatuses {
    lines += hangingParagraph(label: "  \(status)", text: meaning, column: 8, width: width)
  }
  return lines.joined(separator: "\n") + "\n"
}

/// `  -h, --help` or `      --sides N`: short names line up in their own column.
private func optionLabel(_ option: OptionDescription) -> String {
  let short = option.shortName.map { "\($0), " } ?? "    "
  let value = option.value.isFlag ? "" : " \(option.value.name)"
  return "  " + short + option.longName + value
}

/// `label` followed by `text` wrapped in a column starting at `column`; a label too wide for
/// its column gets a line of its own.
private func hangingParagraph(label: String, text: String, column: Int, width: Int)
  -> [String]
{
  var lines = wrap(text, width: width, indent: column)
  if label.count + 2 <= column, let first = lines.first {
    let padding = String(repeating: " ", count: column - label.count)
    lines[0] = label + padding + first.drop(while: { $0 == " " })
  } else {
    lines.insert(label, at: 0)
  }
  return lines
}

/// Splits `text` into lines of at most `width` columns, each starting with `indent` spaces.
/// A word longer than a line gets a line of its own.
func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
  let margin = String(repeating: " ", count: indent)
  var lines: [String] = []
  var line = ""
  for word in text.split(separator: " ") {
    if line.isEmpty {
      line = margin + word
    } else if line.count + 1 + word.count <= width {
      line += " " + word
    } else {
      lines.append(line)
      line = margin + word
    }
  }
  if !line.isEmpty { lines.append(line) }
  return lines
}
