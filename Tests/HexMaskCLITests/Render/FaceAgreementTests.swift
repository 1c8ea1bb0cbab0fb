import Foundation
import TestSupport
import Testing

/// The evaluator against OpenCV itself: `hexmask-faces` runs each cascade over the
/// fixtures of Fixtures/faces/detect at their full upright size, and its boxes are compared
/// with those `scripts/opencv_faces.py` recorded from OpenCV 4.14's
/// `detectMultiScale(gray, 1.1, 3)` (Fixtures/faces/opencv-faces.json). hexmask must find at
/// least 95 % of OpenCV's boxes (IoU ≥ 0.7) and add at most 5 % that OpenCV does not report.
@Suite("Faces found as OpenCV finds them", .tags(.slow, .endToEnd), .outsideTheFastLane)
struct FaceAgreementTests {
  static let cascadeFolder = "/usr/share/opencv4/haarcascades"
  static let cascades = [
    "haarcascade_frontalface_default.xml", "haarcascade_frontalface_alt2.xml",
    "haarcascade_profileface.xml", "haarcascade_frontalcatface.xml",
  ]
  static var installed: Bool {
    cascades.allSatisfy {
      FileManager.default.fileExists(atPath: "\(cascadeFolder)/\($0)")
    }
  }

  struct Box: Hashable {
    var x, y, width, height: Int

    func overlap(_ other: Box) -> Double {
      let w = min(x + width, other.x + other.width) - max(x, other.x)
      let h = min(y + height, other.y + other.height) - max(y, other.y)
      guard w > 0, h > 0 else { return 0 }
      let inter = Double(w * h)
      return inter / (Double(width * height + other.width * other.height) - inter)
    }
  }

  struct Picture {
    var width: Int
    var height: Int
    var graySum: Int
    var boxes: [String: [Box]]
  }

  /// OpenCV's record, by picture name.
  static func recorded() throws -> [String: Picture] {
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("faces/opencv-faces.json")))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let pictures = try #require(root["pictures"] as? [String: [String: Any]])
    var result: [String: Picture] = [:]
    for (name, entry) in pictures {
      let cascades = try #require(entry["cascades"] as? [String: [[Int]]])
      result[name] = Picture(
        width: try #require(entry["width"] as? Int), height: try #require(entry["height"] as? Int),
        graySum: try #require(entry["graySum"] as? Int),
        boxes: cascades.mapValues {
          $0.map { Box(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        })
    }
    return result
  }

  /// hexmask's boxes for every fixture with one cascade, and the pictures' gray sums.
  static func found(cascade: String, files: [String]) throws -> [String: Picture] {
    let run = try runProcess(
      try hexmaskExecutable(named: "hexmask-faces"), ["\(cascadeFolder)/\(cascade)"] + files,
      timeout: 900)
    #expect(run.status == 0, "\(run.standardError)")
    var result: [String: Picture] = [:]
    for line in run.standardOutput.split(separator: "\n") {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let faces = try #require(object["faces"] as? [[Int]])
      result[try #require(object["file"] as? String)] = Picture(
        width: try #require(object["width"] as? Int),
        height: try #require(object["height"] as? Int),
        graySum: try #require(object["graySum"] as? Int),
        boxes: [cascade: faces.map { Box(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }])
    }
    return result
  }

  @Test(
    "each cascade finds OpenCV's faces and few others", .enabled(if: installed),
    arguments: cascades)
  func agreement(cascade: String) throws {
    let expected = try Self.recorded()
    #expect(expected.count >= 30, "at least 30 fixture pictures")
    let files = expected.keys.sorted().map { Fixtures.path("faces/detect/\($0)") }
    let found = try Self.found(cascade: cascade, files: files)
    var (opencv, matched, ours, extra) = (0, 0, 0, 0)
    var misses: [String] = []
    for (name, picture) in expected {
      let mine = try #require(found[name], "no answer for \(name)")
      // The same upright gray picture: decoding and orientation agree with OpenCV's.
      #expect(mine.width == picture.width && mine.height == picture.height, "\(name)")
      #expect(mine.graySum == picture.graySum, "\(name): another gray picture")
      let theirs = picture.boxes[cascade] ?? []
      let boxes = mine.boxes[cascade] ?? []
      opencv += theirs.count
      ours += boxes.count
      for box in theirs {
        if boxes.contains(where: { $0.overlap(box) >= 0.7 }) {
          matched += 1
        } else {
          misses.append("\(name) missed \(box)")
        }
      }
      for box in boxes where !theirs.contains(where: { $0.overlap(box) >= 0.7 }) {
        extra += 1
        misses.append("\(name) added \(box)")
      }
    }
    #expect(opencv == 0 || Double(matched) >= 0.95 * Double(opencv), "\(misses)")
    #expect(Double(extra) <= 0.05 * Double(opencv), "\(misses)")
    print("\(cascade): OpenCV \(opencv), hexmask \(ours), matched \(matched), added \(extra)")
  }
}

extension FaceAgreementTests {
  /// Faces at the picture's right and bottom edges, where only the last window position of
  /// a row or column of the pyramid sees them: the boxes are exactly OpenCV's
  /// (Fixtures/faces/edge-faces.json, `scripts/edge_faces.py`), at five face sizes.
  @Test(
    "faces touching the right and bottom edges are OpenCV's boxes",
    .enabled(
      if: FileManager.default.fileExists(
        atPath: "\(cascadeFolder)/haarcascade_frontalface_default.xml")))
  func edgeFaces() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("faces/edge-faces.json")))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let pictures = try #require(root["pictures"] as? [String: [String: Any]])
    #expect(pictures.count == 17)
    let cascade = "haarcascade_frontalface_default.xml"
    let files = pictures.keys.sorted().map { Fixtures.path("faces/edge/\($0)") }
    let found = try Self.found(cascade: cascade, files: files)
    for (name, entry) in pictures {
      let mine = try #require(found[name], "no answer for \(name)")
      #expect(mine.graySum == entry["graySum"] as? Int, "\(name): another gray picture")
      let theirs = try #require(entry["boxes"] as? [[Int]]).map {
        Box(x: $0[0], y: $0[1], width: $0[2], height: $0[3])
      }
      let boxes = mine.boxes[cascade] ?? []
      #expect(!theirs.isEmpty)
      #expect(Set(boxes) == Set(theirs), "\(name)")
    }
  }
}
