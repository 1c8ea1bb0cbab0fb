import Foundation
import TestSupport
import Testing

/// The fast lane leaves out exactly the tests tagged slow: in every test file, each
/// `.tags(…)` naming `.slow` comes with `.outsideTheFastLane`, and the condition is never
/// used without the tag.
@Suite struct LaneTests {
  @Test func everySlowTagComesWithTheFastLaneCondition() throws {
    let tests = packageRoot.appendingPathComponent("Tests")
    let files = try #require(FileManager.default.enumerator(atPath: tests.path))
      .compactMap { $0 as? String }.filter {
        $0.hasSuffix(".swift") && !$0.hasPrefix("TestSupport/")
      }
    #expect(!files.isEmpty)
    var slowFiles = 0
    for name in files {
      let text = try String(contentsOf: tests.appendingPathComponent(name), encoding: .utf8)
      let tagged = text.matches(of: /\.tags\([^)]*\.slow\b/).count
      let left = text.matches(of: /\.outsideTheFastLane\b/).count
      #expect(tagged == left, "\(name): \(tagged) slow tags, \(left) .outsideTheFastLane")
      if tagged > 0 { slowFiles += 1 }
    }
    #expect(slowFiles > 0, "no test is tagged slow")
  }
}
