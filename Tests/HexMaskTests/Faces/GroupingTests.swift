import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Grouping the windows a cascade accepts: the same groups as comparing every pair (OpenCV's
/// partition), and bounded when a model accepts everything.
@Suite("Grouping accepted windows")
struct GroupingTests {
  /// Grouping compares each window only with those near it across; every pair compared,
  /// as OpenCV's partition does, gives the same faces.
  @Test("grouping near windows only is grouping every pair", arguments: 0..<20)
  func groupingIsEveryPair(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed))
    let boxes = (0..<400).map { _ in
      let side = 20 + Int(random.next() % 40)
      return PixelBox(
        x: Int(random.next() % 300), y: Int(random.next() % 300), width: side, height: side)
    }
    for minNeighbors in [1, 3] {
      #expect(
        groupRectangles(boxes, minNeighbors: minNeighbors, eps: 0.2)
          == everyPair(boxes, minNeighbors: minNeighbors, eps: 0.2))
    }
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

/// The grouping as it was, comparing every pair: the reference.
private func everyPair(_ boxes: [PixelBox], minNeighbors: Int, eps: Double) -> [PixelBox] {
  guard minNeighbors > 0, !boxes.isEmpty else { return boxes }
  func similar(_ a: PixelBox, _ b: PixelBox) -> Bool {
    let delta = eps * Double(min(a.width, b.width) + min(a.height, b.height)) * 0.5
    return Double(abs(a.x - b.x)) <= delta && Double(abs(a.y - b.y)) <= delta
      && Double(abs(a.x + a.width - b.x - b.width)) <= delta
      && Double(abs(a.y + a.height - b.y - b.height)) <= delta
  }
  // Connected components, numbered in the order of their first box (as cv::partition).
  var parent = Array(boxes.indices)
  func root(_ index: Int) -> Int {
    var index = index
    while parent[index] != index {
      parent[index] = parent[parent[index]]
      index = parent[index]
    }
    return index
  }
  for i in boxes.indices {
    for j in (i + 1)..<boxes.count where similar(boxes[i], boxes[j]) {
      let (a, b) = (root(i), root(j))
      if a != b { parent[max(a, b)] = min(a, b) }
    }
  }
  var label: [Int: Int] = [:]
  var sums: [(x: Int, y: Int, width: Int, height: Int, count: Int)] = []
  for index in boxes.indices {
    let group = root(index)
    let number = label[group] ?? sums.count
    if number == sums.count {
      label[group] = number
      sums.append((0, 0, 0, 0, 0))
    }
    let box = boxes[index]
    sums[number].x += box.x
    sums[number].y += box.y
    sums[number].width += box.width
    sums[number].height += box.height
    sums[number].count += 1
  }
  let averaged = sums.map { sum -> (box: PixelBox, count: Int) in
    let s = 1 / Float(sum.count)
    return (
      PixelBox(
        x: roundEven(Float(sum.x) * s), y: roundEven(Float(sum.y) * s),
        width: roundEven(Float(sum.width) * s), height: roundEven(Float(sum.height) * s)),
      sum.count
    )
  }
  var kept: [PixelBox] = []
  for (i, (r1, n1)) in averaged.enumerated() where n1 > minNeighbors {
    let inside = averaged.enumerated().contains { j, other in
      let (r2, n2) = other
      guard j != i, n2 > minNeighbors else { return false }
      let dx = Int((Double(r2.width) * eps).rounded(.toNearestOrEven))
      let dy = Int((Double(r2.height) * eps).rounded(.toNearestOrEven))
      return r1.x >= r2.x - dx && r1.y >= r2.y - dy && r1.x + r1.width <= r2.x + r2.width + dx
        && r1.y + r1.height <= r2.y + r2.height + dy && (n2 > max(3, n1) || n1 < 3)
    }
    if !inside { kept.append(r1) }
  }
  return kept
}
