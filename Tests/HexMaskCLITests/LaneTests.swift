import Foundation
import TestSupport
import Testing

/// The fast lane leaves out exactly the tests tagged slow: every `@Suite(…)` or `@Test(…)`
/// whose tags name `.slow` also has the fast lane's condition, and no other has it.
@Suite struct LaneTests {
  /// The argument lists of the `@Suite(…)` and `@Test(…)` attributes in `text`.
  static func attributes(in text: String) -> [Substring] {
    var found: [Substring] = []
    var rest = text[...]
    while let start = rest.firstRange(of: /@(Suite|Test)\(/) {
      var depth = 1
      var end = start.upperBound
      while end < rest.endIndex, depth > 0 {
        if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
        end = rest.index(after: end)
      }
      found.append(rest[start.upperBound..<end])
      rest = rest[end...]
    }
    return found
  }

  @Test func everySlowTagComesWithTheFastLaneCondition() throws {
    let tests = packageRoot.appendingPathComponent("Tests")
    let files = try #require(FileManager.default.enumerator(atPath: tests.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    var slow = 0
    for name in files {
      let text = try String(contentsOf: tests.appendingPathComponent(name), encoding: .utf8)
      for attribute in Self.attributes(in: text) {
        let tagged = attribute.contains(/\.tags\([^)]*\.slow\b/)
        let leftOut = attribute.contains(/\.outsideTheFastLane\b/)
        #expect(tagged == leftOut, "\(name): @…(\(attribute)")
        if tagged { slow += 1 }
      }
    }
    #expect(slow > 0, "no suite or test is tagged slow")
  }
}
