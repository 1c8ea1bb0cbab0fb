import Foundation
import HexMask
import TestSupport
import Testing

/// Faces of 2, 3, 5, 10 and 20 % of the long side on seven aspect ratios
/// (Fixtures/faces/sizes, made by scripts/face_sizes.py from four real people). The crop's
/// own detector must find at least as many faces in each size band as the "floor" that
/// truth.json records: what the detector found when the floor was last raised. A better
/// detector raises the floor; one that loses a face fails here. About 3 s (35 decodes and
/// looks), so outside the fast lane.
@Suite("Faces found by size", .tags(.slow), .outsideTheFastLane)
struct FaceSizeTests {
  static let cascadeFolder = "/usr/share/opencv4/haarcascades"
  static var installed: Bool {
    FileManager.default.fileExists(atPath: "\(cascadeFolder)/haarcascade_frontalface_alt2.xml")
  }

  struct Scene {
    var band: Int
    var faces: [[Int]]
  }

  static func truth() throws -> (scenes: [String: Scene], floor: [String: Int]) {
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("faces/sizes/truth.json")))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let entries = try #require(root["scenes"] as? [String: [String: Any]])
    var scenes: [String: Scene] = [:]
    for (name, entry) in entries {
      let band = try #require(entry["band"] as? Double)
      scenes[name] = Scene(
        band: Int((band * 100).rounded()), faces: try #require(entry["faces"] as? [[Int]]))
    }
    return (scenes, try #require(root["floor"] as? [String: Int]))
  }

  /// Intersection over union of two [x, y, width, height] boxes.
  static func overlap(_ a: [Int], _ b: [Int]) -> Double {
    let ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    let iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    let union = a[2] * a[3] + b[2] * b[3] - ix * iy
    return union > 0 ? Double(ix * iy) / Double(union) : 0
  }

  @Test("each size band keeps at least its recorded floor", .enabled(if: installed))
  func floorPerBand() throws {
    let (scenes, floor) = try Self.truth()
    let model = try HexMask.FaceModel(
      faceCascades: [
        Array(
          try Data(
            contentsOf: URL(
              fileURLWithPath: "\(Self.cascadeFolder)/haarcascade_frontalface_alt2.xml")))
      ])
    var output = HexMask.Output()
    output.size = 32
    output.crop = .faces(model)
    var found: [String: Int] = [:]
    var total: [String: Int] = [:]
    for (name, scene) in scenes {
      let bytes = Array(
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("faces/sizes/\(name)"))))
      let boxes = (try HexMask.render(bytes, output: output).faces ?? []).map {
        [$0.x, $0.y, $0.width, $0.height]
      }
      let band = String(scene.band)
      for face in scene.faces {
        total[band, default: 0] += 1
        // The same rule as face_sizes.py: found when a box overlaps the truth by IoU 0.3.
        if boxes.contains(where: { Self.overlap($0, face) >= 0.3 }) { found[band, default: 0] += 1 }
      }
    }
    #expect(Set(total.keys) == ["2", "3", "5", "10", "20"])
    #expect(Set(floor.keys) == Set(total.keys))
    for (band, least) in floor {
      #expect(least <= total[band] ?? 0, "band \(band) %: floor above its face count")
      #expect(found[band, default: 0] >= least, "band \(band) %: \(found[band, default: 0]) found")
    }
  }
}
