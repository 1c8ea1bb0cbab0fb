import Foundation
import TestSupport
import Testing

/// Crop quality on 60 seeded scenes (Fixtures/faces/scenes, made by
/// scripts/face_scenes.py): one real face placed off-centre, a saturated distractor in half
/// of them. A face is kept when its box lies inside the square and its centre is within a
/// quarter of the side of the square's centre, along the long side (scenes.json says so
/// too, and records what the centre crop, libvips' entropy and attention, and OpenCV's
/// largest face kept on the same scenes).
@Suite("Faces kept in the square", .tags(.endToEnd))
struct FaceSceneTests {
  static var modelInstalled: Bool {
    FileManager.default.fileExists(
      atPath: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml")
  }

  struct Scene {
    var width: Int
    var height: Int
    var face: (x: Int, y: Int, width: Int, height: Int)
  }

  static func scenes() throws -> (scenes: [String: Scene], counts: [String: Int]) {
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("faces/scenes.json")))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let entries = try #require(root["scenes"] as? [String: [String: Any]])
    var scenes: [String: Scene] = [:]
    for (name, entry) in entries {
      let box = try #require(entry["faceBox"] as? [Int])
      scenes[name] = Scene(
        width: try #require(entry["width"] as? Int), height: try #require(entry["height"] as? Int),
        face: (box[0], box[1], box[2], box[3]))
    }
    return (scenes, try #require(root["counts"] as? [String: Int]))
  }

  /// How many scenes keep their face with `--gravity gravity`, from the crops in `--json`.
  static func kept(gravity: String) throws -> (kept: Int, lost: [String]) {
    let (scenes, _) = try scenes()
    return try withTemporaryFolder { url in
      let folder = url.path
      let run = try runHexMask(
        [
          Fixtures.path("faces/scenes"), "--out-dir", folder, "--size", "64", "--gravity", gravity,
          "--json", "-q",
        ], timeout: 600)
      #expect(run.status == 0, "\(run.standardError)")
      var kept = 0
      var lost: [String] = []
      for line in run.standardOutput.split(separator: "\n") {
        let row = try #require(
          try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let name = try #require((row["input"] as? String)?.split(separator: "/").last)
        let scene = try #require(scenes[String(name)])
        let crop = try #require(row["crop"] as? [String: Int])
        let (x, y, side) = (crop["x"] ?? -1, crop["y"] ?? -1, crop["side"] ?? 0)
        let face = scene.face
        let inside =
          face.x >= x && face.y >= y && face.x + face.width <= x + side
          && face.y + face.height <= y + side
        let near =
          scene.width > scene.height
          ? abs(Double(face.x) + Double(face.width) / 2 - Double(x) - Double(side) / 2)
            <= 0.25 * Double(side)
          : abs(Double(face.y) + Double(face.height) / 2 - Double(y) - Double(side) / 2)
            <= 0.25 * Double(side)
        if inside && near { kept += 1 } else { lost.append("\(name) \(crop)") }
      }
      #expect(kept + lost.count == scenes.count)
      return (kept, lost)
    }
  }

  @Test("--gravity face keeps at least 58 of the 60 faces", .enabled(if: modelInstalled))
  func face() throws {
    let (kept, lost) = try Self.kept(gravity: "face")
    #expect(kept >= 58, "\(lost)")
  }

  @Test("--gravity attention keeps at least as many faces as libvips' attention did")
  func attention() throws {
    let (_, counts) = try Self.scenes()
    let vips = try #require(counts["vipsAttention"])
    let (kept, lost) = try Self.kept(gravity: "attention")
    #expect(kept >= vips, "\(lost)")
  }

  /// Photos without people: the subject ends up in the middle of the square (the cat's
  /// face at about x = 245 of 451, the cup at about x = 225 of 480, judged by eye).
  @Test(
    "--gravity attention centres the cat and the cup",
    arguments: [("cat-chelsea.jpg", 245), ("noface-coffee.jpg", 225)])
  func subject(name: String, subject: Int) throws {
    try withTemporaryFolder { url in
      let folder = url.path
      let run = try runHexMask(
        [
          Fixtures.path("faces/detect/\(name)"), "--out-dir", folder, "--size", "64", "--gravity",
          "attention", "--json", "-q",
        ], timeout: 120)
      let row = try #require(
        try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
      let crop = try #require(row["crop"] as? [String: Int])
      let (x, side) = (crop["x"] ?? 0, crop["side"] ?? 0)
      #expect(abs(x + side / 2 - subject) <= side * 15 / 100, "\(crop)")
    }
  }

  /// The crop's detector is not OpenCV's exact one (a small copy, two-pixel steps), so its
  /// own count is pinned: the detect fixtures' 40 upright faces (turned 15° or less, as
  /// scripts/face_fixtures.py pasted them), counted per picture from `--json`'s "faces".
  /// On the look (800 px long; these pictures at their own size) with OpenCV's scale step of
  /// 1.1 it finds all 40 and adds one; two-pixel steps at every scale found 38, a look of
  /// 256 px 39, which this catches.
  @Test(
    "the crop's detector finds the detect fixtures' 40 upright faces",
    .enabled(if: modelInstalled))
  func detectFixtures() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("faces/detect-truth.json")))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let pictures = try #require(root["pictures"] as? [String: [String: Any]])
    try withTemporaryFolder { url in
      let folder = url.path
      let run = try runHexMask(
        [
          Fixtures.path("faces/detect"), "--out-dir", folder, "--size", "64", "--gravity", "face",
          "--json", "-q",
        ], timeout: 600)
      #expect(run.status == 0, "\(run.standardError)")
      var (wanted, found, added, rows) = (0, 0, 0, 0)
      for line in run.standardOutput.split(separator: "\n") {
        let row = try #require(
          try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let name = try #require((row["input"] as? String)?.split(separator: "/").last)
        let truth = try #require(pictures[String(name)])
        let faces = (truth["faces"] as? [[String: Any]] ?? []).filter {
          abs($0["angle"] as? Double ?? 0) <= 15
        }
        let count = try #require(row["faces"] as? Int)
        wanted += faces.count
        found += min(count, faces.count)
        added += max(0, count - faces.count)
        rows += 1
      }
      #expect(rows == pictures.count)
      #expect(wanted == 40)
      #expect(found == 40, "found \(found) of \(wanted)")
      #expect(added <= 1, "added \(added)")
    }
  }

  @Test("the centre keeps what scenes.json says it does: the judge is the script's")
  func centre() throws {
    let (_, counts) = try Self.scenes()
    let (kept, _) = try Self.kept(gravity: "center")
    #expect(kept == counts["centre"])
  }

  /// The faces are looked for on the same small copy whatever the output size: a JPEG
  /// shrunk on load for a 32 px avatar must not lose the face a 256 px one keeps.
  /// A large JPEG decodes at 1/8, 1/4, 1/2 or whole for the render as the size asks; the
  /// look is the same at every size (and so on a rerun with other sizes), framed or not.
  @Test(
    "the face crop does not depend on --size",
    .enabled(if: modelInstalled),
    arguments: [
      ("faces/detect/face048-corner.jpg", [String]()),
      ("faces/framing/one-face.jpg", []), ("faces/framing/one-face.jpg", ["--face-size", "0.4"]),
    ])
  func sameCropForEverySize(picture: String, extra: [String]) throws {
    var crops: [String] = []
    for size in ["32", "64", "256", "700", "2048"] {
      try withTemporaryFolder { url in
        let folder = url.path
        let run = try runHexMask(
          [
            Fixtures.path(picture), "--out-dir", folder, "--size", size,
            "--gravity", "face", "--json", "-q",
          ] + extra, timeout: 120)
        let row = try #require(
          try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(row["faces"] as? Int == 1, "--size \(size)")
        let crop = try #require(row["crop"] as? [String: Int])
        crops.append("\(crop["x"] ?? -1),\(crop["y"] ?? -1),\(crop["side"] ?? -1)")
      }
    }
    #expect(Set(crops).count == 1, "\(crops)")
  }
}
