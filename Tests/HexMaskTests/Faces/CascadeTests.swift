import Foundation
import TestSupport
import Testing

@testable import HexMask

/// The cascade reader refuses what it cannot evaluate safely, and the pieces of the
/// detector around the evaluator (grouping, the face square) do what OpenCV's and the
/// README say. Agreement with OpenCV itself is FaceAgreementTests'.
@Suite("Face cascades")
struct CascadeTests {
  /// A one-stage, one-stump cascade on an 8 × 8 window: "left half darker than right".
  static func tinyCascade(
    node: String = "0 -1 0 0.", rect: String = "0 0 4 8 -1.", leaves: String = "-1. 1.",
    width: String = "8", tilted: String = "0", threshold: String = "0.5"
  ) -> [UInt8] {
    Array(
      """
      <?xml version="1.0"?>
      <!-- a comment -->
      <opencv_storage>
      <cascade type_id="opencv-cascade-classifier"><stageType>BOOST</stageType>
        <featureType>HAAR</featureType><height>8</height><width>\(width)</width>
        <featureParams><maxCatCount>0</maxCatCount></featureParams>
        <stages><_><stageThreshold>\(threshold)</stageThreshold><weakClassifiers>
          <_><internalNodes>\(node)</internalNodes><leafValues>\(leaves)</leafValues></_>
        </weakClassifiers></_></stages>
        <features><_><rects><_>\(rect)</_><_>4 0 4 8 1.</_></rects><tilted>\(tilted)</tilted></_></features>
      </cascade>
      </opencv_storage>
      """.utf8)
  }

  @Test("a well-formed cascade reads, and finds the edge it was made for")
  func tinyCascadeDetects() throws {
    let cascade = try Cascade(xml: Self.tinyCascade())
    #expect(cascade.windowWidth == 8 && cascade.stages.count == 1 && cascade.isStumps)
    // Dark left half, bright right half, with texture so the windows are not flat.
    var pixels = [UInt8](repeating: 0, count: 40 * 40)
    for y in 0..<40 {
      for x in 0..<40 { pixels[y * 40 + x] = UInt8(x < 20 ? 20 + (x + y) % 7 : 220 - (x * y) % 9) }
    }
    let windows = cascade.windows(
      in: GrayPicture(width: 40, height: 40, pixels: pixels), scaleFactor: 1.1)
    #expect(!windows.isEmpty)
    // Every accepted window straddles the edge.
    #expect(windows.allSatisfy { $0.x < 20 && $0.x + $0.width > 20 })
  }

  static let refusals: [(String, [UInt8])] = [
    ("empty", []),
    ("not XML", Array("GIF89a".utf8)),
    ("an empty <opencv_storage>", Array("<opencv_storage></opencv_storage>".utf8)),
    ("truncated", Array(tinyCascade().prefix(300))),
    ("a child past the tree's end", tinyCascade(node: "2 -1 0 0.")),
    ("a loop in a tree", tinyCascade(node: "1 -1 0 0. 1 -2 0 0.", leaves: "1. 1. 1.")),
    ("a feature that does not exist", tinyCascade(node: "0 -1 7 0.")),
    ("a rectangle outside the window", tinyCascade(rect: "6 0 4 8 -1.")),
    ("a NaN threshold", tinyCascade(node: "0 -1 0 nan")),
    ("a threshold past a Float", tinyCascade(node: "0 -1 0 1e39")),
    ("a stage threshold past a Float", tinyCascade(threshold: "1e39")),
    ("a NUL inside a number", tinyCascade(threshold: "3\u{0}.5")),
    ("too few leaves", tinyCascade(leaves: "1.")),
    ("a tilted feature", tinyCascade(tilted: "1")),
    ("a window of 1000", tinyCascade(width: "1000")),
    (
      "elements nested too deep",
      Array((String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)).utf8)
    ),
  ]

  /// What each refusal says: the check that caught it, not only that something did.
  static let refusalReasons: [String: String] = [
    "empty": "not XML: no root element at byte 0",
    "not XML": "not XML: no root element at byte 0",
    "an empty <opencv_storage>": "not an OpenCV cascade (an empty <opencv_storage>)",
    "truncated": "not XML: </stag> closes <stageThreshold> at byte 300",
    "a child past the tree's end": "stage 0 has a tree with a bad node",
    "a loop in a tree": "stage 0 has a tree with a bad node",
    "a feature that does not exist": "stage 0 has a tree with a bad node",
    "a rectangle outside the window":
      "feature 0 has a rectangle that is not 5 finite numbers inside the window",
    "a NaN threshold": "stage 0 has a malformed tree",
    "a threshold past a Float": "stage 0 has a malformed tree",
    "a stage threshold past a Float": "stage 0 has no threshold or no trees",
    "a NUL inside a number": "not XML: a NUL byte at byte 292",
    "too few leaves": "stage 0 has a malformed tree",
    "a tilted feature": "feature 0 is tilted (45° features are not read)",
    "a window of 1000": "no window size from 4 to 256",
    "elements nested too deep": "not XML: elements nested too deep at byte 192",
  ]

  @Test(
    "what cannot be evaluated safely is refused with a reason",
    arguments: refusals.indices.map { refusals[$0].0 })
  func refusal(_ name: String) throws {
    let bytes = try #require(Self.refusals.first { $0.0 == name }).1
    let reason = try #require(Self.refusalReasons[name], "no reason written for \(name)")
    #expect(throws: CascadeError(reason), "\(name)") { try Cascade(xml: bytes) }
    // The model names the cascade (the first, counted from 1 in its words) and its reason.
    #expect(throws: HexMask.FaceModelError(cascade: 0, reason: reason)) {
      try HexMask.FaceModel(faceCascades: [bytes])
    }
  }

  @Test("an empty <opencv_storage> is called empty, not missing")
  func emptyStorageReason() {
    #expect(throws: CascadeError("not an OpenCV cascade (an empty <opencv_storage>)")) {
      try Cascade(xml: Array("<opencv_storage> </opencv_storage>".utf8))
    }
  }

  @Test("a model's identity follows the bytes of its cascades")
  func identity() throws {
    let a = try HexMask.FaceModel(faceCascades: [Self.tinyCascade()])
    let b = try HexMask.FaceModel(faceCascades: [Self.tinyCascade()])
    let c = try HexMask.FaceModel(faceCascades: [Self.tinyCascade(leaves: "-1. 2.")])
    #expect(a == b && a.identity == b.identity)
    #expect(a != c)
    #expect(throws: HexMask.FaceModelError(cascade: 0, reason: "no face cascade was given")) {
      try HexMask.FaceModel(faceCascades: [])
    }
  }

  @Test("groupRectangles: close windows become their average; lone ones are dropped")
  func grouping() {
    let cluster = (0..<5).map { PixelBox(x: 100 + $0, y: 50 + $0 % 2, width: 40, height: 40) }
    let lone = [PixelBox(x: 300, y: 300, width: 40, height: 40)]
    let grouped = groupRectangles(cluster + lone, minNeighbors: 3, eps: 0.2)
    #expect(grouped == [PixelBox(x: 102, y: 50, width: 40, height: 40)])
    // A small group inside a large, better-supported one goes.
    let inner = (0..<4).map { _ in PixelBox(x: 110, y: 60, width: 20, height: 20) }
    let outer = (0..<6).map { _ in PixelBox(x: 100, y: 50, width: 40, height: 40) }
    #expect(groupRectangles(inner + outer, minNeighbors: 3, eps: 0.2).count == 1)
  }

  @Test(
    "the face square keeps a face off to one side, whole, near its middle",
    arguments: [
      (600, 400, 480, 150), (600, 400, 60, 150), (400, 600, 180, 80), (400, 600, 180, 470),
    ])
  func faceSquare(width: Int, height: Int, faceX: Int, faceY: Int) {
    let look = SmallPicture(
      width: width, height: height, rgb: [UInt8](repeating: 0, count: width * height * 3))
    let face = PixelBox(x: faceX - 30, y: faceY - 30, width: 60, height: 60)
    let square = look.faceSquare([face], sides: 6, rotation: 90)
    #expect(square.side == min(width, height))
    #expect(square.left >= 0 && square.top >= 0)
    #expect(square.left + square.side <= width && square.top + square.side <= height)
    let (centre, mid) =
      width > height
      ? (faceX, square.left + square.side / 2) : (faceY, square.top + square.side / 2)
    let expected = min(max(centre, square.side / 2), max(width, height) - square.side / 2)
    #expect(abs(mid - expected) <= square.side / 6, "face at \(centre), square centre \(mid)")
  }

  /// A 900 × 300 black look: the face square depends only on the boxes given.
  static let blackLook = SmallPicture(
    width: 900, height: 300, rgb: [UInt8](repeating: 0, count: 900 * 300 * 3))

  @Test("of two faces that cannot both fit, the larger is kept")
  func largerWins() {
    let look = Self.blackLook
    let small = PixelBox(x: 60, y: 120, width: 40, height: 40)
    let large = PixelBox(x: 760, y: 110, width: 80, height: 80)
    let square = look.faceSquare([small, large], sides: 6, rotation: 90)
    #expect(square.left + square.side > 840 && square.left > 100)
  }

  @Test("a large head that cannot fit the shape whole still beats a small face far away")
  func largeHeadWins() {
    let look = Self.blackLook
    let small = PixelBox(x: 60, y: 130, width: 40, height: 40)
    let large = PixelBox(x: 600, y: 60, width: 200, height: 200)
    let square = look.faceSquare([small, large], sides: 6, rotation: 90)
    #expect(square.left <= 650 && square.left + square.side >= 750, "\(square)")
  }

  static let cascadeFolder = "/usr/share/opencv4/haarcascades"
  static var installed: Bool {
    FileManager.default.fileExists(atPath: "\(cascadeFolder)/haarcascade_frontalcatface.xml")
  }

  @Test("a cat is found as a pet where no human face is", .enabled(if: installed))
  func petFound() throws {
    func cascade(_ name: String) throws -> [UInt8] {
      Array(try Data(contentsOf: URL(fileURLWithPath: "\(Self.cascadeFolder)/\(name)")))
    }
    let model = try HexMask.FaceModel(
      faceCascades: [try cascade("haarcascade_frontalface_alt2.xml")],
      petCascades: [try cascade("haarcascade_frontalcatface.xml")])
    var output = HexMask.Output()
    output.size = 64
    output.crop = .faces(model)
    let bytes = Array(
      try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("faces/detect/cat-tilted-045.jpg"))))
    let rendered = try HexMask.render(bytes, output: output)
    #expect(rendered.faces?.count == 1)
    #expect(rendered.faces?.first?.isPet == true)
    let crop = try #require(rendered.crop)
    let face = try #require(rendered.faces?.first)
    // The cat's face lies inside the square.
    #expect(face.x >= crop.x && face.x + face.width <= crop.x + crop.side)
  }

  @Test("exact resize leaves an unscaled picture as it is")
  func resizeIdentity() {
    var generator = SplitMix64(state: 7)
    let pixels = (0..<(37 * 23)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    let picture = GrayPicture(width: 37, height: 23, pixels: pixels)
    #expect(exactBilinearResize(picture, width: 37, height: 23).pixels == pixels)
  }
}

@Suite("Cascade windows, eight at a time", .tags(.slow), .outsideTheFastLane)
struct VectorScanTests {
  /// The detect fixtures at the detector's size, gray, as the crop sees them.
  static func pictures() throws -> [(String, GrayPicture)] {
    let folder = Fixtures.path("faces/detect")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasSuffix(".jpg") }.sorted()
    return try names.enumerated().filter { $0.offset % 4 == 0 }.map { _, name in
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
      let small = try HexMask.readingBytes(bytes) { file throws(HexMask.Error) in
        do throws(ImageError) {
          let stored = try openDecoder(file: file, maxPixels: 1 << 26, need: nil)
          let orientation = stored.metadata.exif.map(Orientation.fromExif) ?? .up
          return try SmallPicture(
            averaging: openOriented(stored, orientation: orientation), longSide: 320)
        } catch {
          throw .decoding(error)
        }
      }
      return (name, GrayPicture(width: small.width, height: small.height, pixels: small.gray))
    }
  }

  @Test(
    "the vectorized scan accepts exactly the windows the one-at-a-time scan does",
    .enabled(if: CascadeTests.installed),
    arguments: [
      "haarcascade_frontalface_alt2.xml", "haarcascade_frontalcatface.xml",
      "haarcascade_frontalface_default.xml", "haarcascade_profileface.xml",
    ])
  func sameWindows(_ name: String) throws {
    let cascade = try Cascade(
      xml: Array(
        try Data(contentsOf: URL(fileURLWithPath: "\(CascadeTests.cascadeFolder)/\(name)"))))
    var accepted = 0
    for (picture, gray) in try Self.pictures() {
      for coarse in [false, true] {
        let alone = cascade.windows(in: gray, scaleFactor: 1.1, coarse: coarse, vectorized: false)
        let together = cascade.windows(in: gray, scaleFactor: 1.1, coarse: coarse)
        #expect(together == alone, "\(picture), coarse \(coarse)")
        accepted += alone.count
      }
    }
    // The comparison is not between two empty lists.
    #expect(accepted > 20)
  }

  /// The crop judges every other scale, then the scales between only near what their
  /// neighbours accepted: every window it accepts the full scan accepts too, and the
  /// grouped faces are the full scan's (within a few pixels) on pictures of one to three
  /// faces, cats and none.
  @Test("every other scale first finds the full scan's faces", .enabled(if: CascadeTests.installed))
  func everyOtherScale() throws {
    let cascade = try Cascade(
      xml: Array(
        try Data(
          contentsOf: URL(
            fileURLWithPath: "\(CascadeTests.cascadeFolder)/haarcascade_frontalface_alt2.xml"))))
    var faces = 0
    for (picture, gray) in try Self.pictures() {
      let full = cascade.windows(in: gray, scaleFactor: 1.1, coarse: true)
      let half = cascade.windows(in: gray, scaleFactor: 1.1, coarse: true, everyOtherScale: true)
      #expect(Set(half).isSubset(of: Set(full)), "\(picture)")
      let fullFaces = groupRectangles(full, minNeighbors: 3, eps: 0.2)
      let halfFaces = groupRectangles(half, minNeighbors: 3, eps: 0.2)
      #expect(halfFaces.count == fullFaces.count, "\(picture): \(halfFaces) \(fullFaces)")
      for face in fullFaces {
        #expect(halfFaces.contains { overlap($0, face) > 0.8 }, "\(picture): \(face)")
      }
      faces += fullFaces.count
    }
    #expect(faces >= 5)  // not a comparison of empty lists
  }
}

extension CascadeTests {
  /// A cascade on a 24 × 24 window whose every stage accepts every window: `stages` stages
  /// of `trees` stumps each, on `features` features of `rects` rectangles.
  static func acceptingCascade(stages: Int, trees: Int = 1, features: Int = 1, rects: Int = 2)
    -> [UInt8]
  {
    let tree = "<_><internalNodes>0 -1 0 0.</internalNodes><leafValues>1. 1.</leafValues></_>"
    let stage =
      "<_><stageThreshold>0.5</stageThreshold><weakClassifiers>"
      + String(repeating: tree, count: trees) + "</weakClassifiers></_>"
    let rectangles = ["<_>0 0 12 24 -1.</_>", "<_>12 0 12 24 1.</_>", "<_>0 0 24 12 1.</_>"]
    let feature =
      "<_><rects>" + rectangles.prefix(rects).joined() + "</rects><tilted>0</tilted></_>"
    return Array(
      ("<?xml version=\"1.0\"?><opencv_storage><cascade><stageType>BOOST</stageType>"
        + "<featureType>HAAR</featureType><height>24</height><width>24</width><stages>"
        + String(repeating: stage, count: stages) + "</stages><features>"
        + String(repeating: feature, count: features) + "</features></cascade></opencv_storage>")
        .utf8)
  }

  static let pastTheCaps: [(String, [UInt8], String)] = [
    (
      "1001 stages", acceptingCascade(stages: 1001),
      "1001 stages, more than the 1000 a cascade may have"
    ),
    (
      "200 000 stages", acceptingCascade(stages: 200_000),
      "200000 stages, more than the 1000 a cascade may have"
    ),
    (
      "100 001 features", acceptingCascade(stages: 1, features: 100_001, rects: 1),
      "100001 features, more than the 100000 a cascade may have"
    ),
    (
      "200 001 rectangles", acceptingCascade(stages: 1, features: 66_667, rects: 3),
      "200001 rectangles, more than the 200000 a cascade may have"
    ),
    (
      "100 001 tree nodes", acceptingCascade(stages: 1, trees: 100_001),
      "more than the 100000 tree nodes a cascade may have"
    ),
  ]

  @Test(
    "a cascade past a cap is refused, naming the number and the cap",
    arguments: pastTheCaps.indices)
  func pastACap(_ index: Int) {
    let (_, xml, reason) = Self.pastTheCaps[index]
    #expect(throws: CascadeError(reason)) { try Cascade(xml: xml) }
  }

  @Test("a cascade at every cap is read")
  func atTheCaps() throws {
    let stages = try Cascade(xml: Self.acceptingCascade(stages: 1000, trees: 100))
    #expect(stages.stages.count == 1000 && stages.nodes.count == 100_000)
    #expect(stages.nodesThrough.last == 100_000)
    let features = try Cascade(xml: Self.acceptingCascade(stages: 1, features: 66_666, rects: 3))
    #expect(features.features.count == 66_666)
  }

  /// A textured picture, so no window is too flat to judge.
  static func textured(width: Int, height: Int) -> GrayPicture {
    var pixels = [UInt8](repeating: 0, count: width * height)
    for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: index * 37 % 251) }
    return GrayPicture(width: width, height: height, pixels: pixels)
  }

  @Test("the scan stops when the work for a picture is spent, both ways", arguments: [false, true])
  func workIsCapped(vectorized: Bool) throws {
    let cascade = try Cascade(xml: Self.acceptingCascade(stages: 1))
    let picture = Self.textured(width: 64, height: 48)
    let all = cascade.windows(in: picture, scaleFactor: 1.1, vectorized: vectorized)
    #expect(all.count > 100)
    // Each window costs its one node.
    let capped = cascade.windows(in: picture, scaleFactor: 1.1, vectorized: vectorized, work: 10)
    #expect(capped == Array(all.prefix(10)))
  }

  /// A model at the caps whose every stage accepts: 100 000 nodes a window, so the
  /// picture's 10⁸ are spent after exactly 1000 windows, not the 10⁵ a 256-pixel look has.
  @Test("a model that accepts every window costs at most the work per picture")
  func acceptingModelIsBounded() throws {
    let cascade = try Cascade(xml: Self.acceptingCascade(stages: 1000, trees: 100))
    let found = cascade.windows(
      in: Self.textured(width: 256, height: 192), scaleFactor: 1.1, coarse: true)
    #expect(found.count == Cascade.workPerPicture / 100_000)
  }
}
