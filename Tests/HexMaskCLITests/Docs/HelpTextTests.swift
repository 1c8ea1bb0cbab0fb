import Testing

@testable import HexMaskCLI

@Suite struct HelpTextTests {
  let help = helpText()

  @Test func startsWithUsage() {
    #expect(
      help.hasPrefix(
        "Usage: hexmask [options] INPUT OUTPUT\n"
          + "       hexmask [options] INPUT... --out-dir DIR\n\n"))
  }

  @Test func fitsIn80Columns() {
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      #expect(line.count <= 80, "\(line)")
      #expect(!line.hasSuffix(" "), "trailing space: \(line)")
    }
  }

  @Test(arguments: optionTable.map(\.long))
  func everyOptionIsListedWithItsValueAndDefault(long: String) throws {
    let option = try #require(optionTable.first { $0.long == long })
    let value = option.value.isFlag ? "" : " " + option.value.name
    #expect(help.contains(option.longName + value))
    if let short = option.shortName { #expect(help.contains("\(short), \(option.longName)")) }
    if let defaultValue = option.defaultValue {
      // Defaults may be wrapped; compare with spaces and line breaks collapsed.
      let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(flat.contains("(default: \(defaultValue))"))
    }
  }

  @Test func groupsAppearInOrder() throws {
    let headings = [
      "Shape options:", "Canvas options:", "Input options:", "Output options:", "Batch options:",
      "General options:", "Examples:",
    ]
    let positions = try headings.map { heading in
      try #require(help.range(of: "\n\(heading)\n")).lowerBound
    }
    #expect(positions == positions.sorted())
  }

  @Test func showsTheExamples() {
    for example in [
      "hexmask in.jpg out.png --corner 10 --line 5",
      "hexmask photo.png avatar.png --sides 8 --border-color '#1e90ff'",
      "hexmask in.jpg out.png --layout seed",
    ] {
      #expect(help.contains("\n  \(example)\n"))
    }
  }

  @Test func wrapBreaksBetweenWords() {
    #expect(wrap("aa bb cc dd", width: 5) == ["aa bb", "cc dd"])
    #expect(wrap("aa bb cc", width: 6, indent: 2) == ["  aa", "  bb", "  cc"])
    #expect(wrap("longword x", width: 4) == ["longword", "x"])
    #expect(wrap("", width: 10).isEmpty)
  }
}
