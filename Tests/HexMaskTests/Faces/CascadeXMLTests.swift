import Foundation
import Testing

@testable import HexMask

/// The numbers of a cascade's XML, read by the C library in the C locale.
@Suite("Cascade XML numbers")
struct CascadeXMLTests {
  @Test(
    "an element's numbers are read as Double(_:) reads them, or not at all",
    arguments: [
      ("1 2.5e-1", [1, 0.25]),
      (" \n\t-3.1511999666690826e-02\r\n4 ", [-3.1511999666690826e-02, 4]),
      ("", []), ("7", [7]), ("1e999 -1e999", [.infinity, -.infinity]), ("1x", nil),
      ("1,5", nil), ("1 2 three", nil), ("--1", nil), ("1\u{0}2", nil),
    ] as [(String, [Double]?)])
  func numbers(text: String, expected: [Double]?) throws {
    let element = XMLElement(name: "n", text: text, children: [])
    #expect(element.numbers == expected)
  }

  @Test("17-digit numbers round as Swift's own parser rounds them")
  func numbersRoundCorrectly() {
    var generator = SystemRandomNumberGenerator()
    let values = (0..<2000).map { _ in
      Double(sign: .plus, exponent: Int.random(in: -30...30, using: &generator), significand: 1)
        * Double.random(in: -1...1, using: &generator)
    }
    let text = values.map { "\($0)" }.joined(separator: " ")
    let element = XMLElement(name: "n", text: text, children: [])
    #expect(element.numbers == text.split(separator: " ").map { Double(String($0)) ?? .nan })
  }

  @Test("a byte order mark before the declaration is read past")
  func byteOrderMark() throws {
    let plain = try Cascade(xml: CascadeTests.tinyCascade())
    let marked = try Cascade(xml: [0xEF, 0xBB, 0xBF] + CascadeTests.tinyCascade())
    #expect(marked.stages.count == plain.stages.count && marked.windowWidth == plain.windowWidth)
  }
}
