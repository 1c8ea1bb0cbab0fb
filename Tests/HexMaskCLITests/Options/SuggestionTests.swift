import Testing

@testable import HexMaskCLI

@Suite struct SuggestionTests {
  static let names = optionTable.map(\.longName)

  @Test(arguments: [
    ("--cornr", "--corner"), ("--corners", "--corner"), ("--side", "--sides"),
    ("--Sides", "--sides"), ("--rotatoin", "--rotation"), ("--rot", "--rotation"),
    ("--lyaout", "--layout"),
    ("--border", "--border-color"), ("--colours", "--colors"),
    ("--border-colour", "--border-color"), ("--hlep", "--help"), ("--versoin", "--version"),
    ("--he", "--help"),
  ])
  func closeNamesAreSuggested(typed: String, expected: String) {
    #expect(suggestions(for: typed, among: Self.names) == [expected])
  }

  /// `--color` may be the palette's `--colors`, `--colorspace` or the border's
  /// `--border-color`: all three.
  @Test func severalMeaningsAreAllSuggested() {
    #expect(
      suggestions(for: "--color", among: Self.names)
        == ["--colors", "--colorspace", "--border-color"])
  }

  @Test(arguments: ["--frobnicate", "--zoom", "--colour", "--x", "-s", "--", "---"])
  func farNamesAreNot(typed: String) {
    #expect(suggestions(for: typed, among: Self.names).isEmpty)
  }

  @Test(arguments: [
    ("", "", 0), ("abc", "", 3), ("", "abc", 3), ("kitten", "sitting", 3), ("flaw", "lawn", 2),
    ("same", "same", 0), ("ab", "ba", 1), ("--hlep", "--help", 1),
  ])
  func editDistances(a: String, b: String, distance: Int) {
    #expect(editDistance(a, b) == distance)
    #expect(editDistance(b, a) == distance)
  }
}
