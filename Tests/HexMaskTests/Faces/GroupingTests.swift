import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Grouping the windows a cascade accepts: the same groups as comparing every pair (OpenCV's
/// partition), and bounded when a model accepts everything.
@Suite("Grouping accepted windows")
struct GroupingTests {
  /// Grouping compares each window only with those near it across; every pair compared,
  /// as OpenCV's partition does, gives the same groups.
  @Test("grouping near windows only is grouping every pair", arguments: 0..<20)
  func groupingIsEveryPair(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed))
    let boxes = (0..<400).map { _ in
      let side = 20 + Int(random.next() % 40)
      return PixelBox(
        x: Int(random.next() % 300), y: Int(random.next() % 300), width: side, height: side)
    }
    #expect(similarGroups(boxes, eps: 0.2) == everyPair(boxes, eps: 0.2))
    // Not one group of everything nor all alone: the comparison says something.
    #expect(Set(similarGroups(boxes, eps: 0.2)).count > 20)
    #expect(Set(similarGroups(boxes, eps: 0.2)).count < 380)
  }

  /// A one-node model that accepts every window would hand grouping every window of the
  /// look (found by a tryout: minutes a picture); the look stops at the most it accepts.
  @Test("a cheap model that accepts every window stops at the most windows accepted")
  func acceptingEverythingCheaplyIsBounded() throws {
    let cascade = try Cascade(xml: CascadeTests.acceptingCascade(stages: 1))
    let picture = CascadeTests.textured(width: 1024, height: 768)
    for everyOtherScale in [false, true] {
      let found = cascade.windows(
        in: picture, scaleFactor: 1.1, coarse: true, everyOtherScale: everyOtherScale)
      #expect(found.count == Cascade.mostAcceptedWindows)
    }
    #expect(!cascade.detect(in: picture, coarse: true).isEmpty)
  }
}

/// The groups as OpenCV's partition finds them, every pair compared: for each box, the
/// index of the first box of its group.
private func everyPair(_ boxes: [PixelBox], eps: Double) -> [Int] {
  var group = Array(boxes.indices)
  func root(_ i: Int) -> Int { group[i] == i ? i : root(group[i]) }
  for i in boxes.indices {
    for j in (i + 1)..<boxes.count {
      let (a, b) = (boxes[i], boxes[j])
      let delta = eps * Double(min(a.width, b.width) + min(a.height, b.height)) * 0.5
      let similar =
        Double(abs(a.x - b.x)) <= delta && Double(abs(a.y - b.y)) <= delta
        && Double(abs(a.x + a.width - b.x - b.width)) <= delta
        && Double(abs(a.y + a.height - b.y - b.height)) <= delta
      let (ra, rb) = (root(i), root(j))
      if similar && ra != rb { group[max(ra, rb)] = min(ra, rb) }
    }
  }
  return boxes.indices.map(root)
}
