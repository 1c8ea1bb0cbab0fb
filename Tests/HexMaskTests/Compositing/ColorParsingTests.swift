import Testing

@testable import HexMask

@Suite struct ColorParsingTests {
  @Test(arguments: [
    ("#f00", RGBAColor(red: 255, green: 0, blue: 0)),
    ("#FfF", RGBAColor.white),
    ("#1e90ff", RGBAColor(red: 30, green: 144, blue: 255)),
    ("#1E90FF", RGBAColor(red: 30, green: 144, blue: 255)),
    ("#00000000", RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)),
    ("#ff000080", RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)),
    ("white", RGBAColor.white),
    ("BLACK", RGBAColor.black),
    ("DodgerBlue", RGBAColor(red: 30, green: 144, blue: 255)),
    ("rebeccapurple", RGBAColor(red: 102, green: 51, blue: 153)),
    ("lightgoldenrodyellow", RGBAColor(red: 250, green: 250, blue: 210)),
    ("gray", RGBAColor(red: 128, green: 128, blue: 128)),
    ("grey", RGBAColor(red: 128, green: 128, blue: 128)),
    ("green", RGBAColor(red: 0, green: 128, blue: 0)),
    ("transparent", RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)),
  ])
  func validColors(text: String, color: RGBAColor) {
    #expect(RGBAColor(parsing: text) == color)
  }

  @Test(arguments: [
    "", "#", "#f", "#ff", "#f008", "#fffff", "#fffffff", "#fffffffff", "#ggg", "#12345z",
    "ff0000", "blurple", " white", "white ", "#+12", "#１２３", "rgb(1,2,3)", "#-1-1-1",
  ])
  func invalidColors(text: String) {
    #expect(RGBAColor(parsing: text) == nil)
  }

  @Test func everyCSSNameIsThere() {
    // 148 names of CSS Color Module Level 4 (with the grey/gray pairs and rebeccapurple),
    // plus `transparent`.
    #expect(RGBAColor.named.count == 149)
    #expect(RGBAColor.named.keys.allSatisfy { $0 == $0.lowercased() })
    #expect(
      RGBAColor.named.values.filter { $0.alpha != 255 } == [
        RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
      ])
  }
}
