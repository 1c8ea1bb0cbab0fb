import Foundation
import TestSupport
import Testing

@testable import HexMask

/// `Output.faceSize`: the framed square's geometry (``FaceFraming``), the decision that
/// carries it to every decode size, the decode it asks for, and the library's checks.
@Suite struct FaceFramingTests {
  typealias Box = FaceFraming.Box

  /// A square face box of `side` with its top-left corner at (x, y).
  static func face(_ x: Double, _ y: Double, _ side: Double) -> Box {
    Box(x: x, y: y, width: side, height: side)
  }

  /// One face in pictures of three aspect ratios, in the middle, at every edge and corner,
  /// at three shares: the side is the face's width over the share (at most the short side),
  /// the face is centred across and its eyes on the eye line unless the square met an edge,
  /// and the square always lies inside the picture.
  @Test(arguments: [(3000, 2000), (2000, 3000), (1000, 1000)], [0.2, 0.4, 1.0])
  func oneFace(picture: (width: Int, height: Int), faceSize: Double) throws {
    let (width, height) = (Double(picture.width), Double(picture.height))
    let short = min(width, height)
    for faceSide in [20.0, 100, 300, 900] {
      let places: [(Double, Double)] = [
        (width / 2 - faceSide / 2, height / 2 - faceSide / 2), (0, 0),
        (width - faceSide, 0), (0, height - faceSide), (width - faceSide, height - faceSide),
        (width / 2, 0), (0, height / 2), (width - faceSide, height / 2),
        (width / 2, height - faceSide),
      ]
      for (x, y) in places {
        let box = Self.face(x, y, faceSide)
        let frame = try #require(
          FaceFraming.frame([box], width: picture.width, height: picture.height, faceSize: faceSize)
        )
        let label = "\(picture) F \(faceSize) face \(faceSide) at \(x),\(y): \(frame)"
        #expect(frame.framing == .face, "\(label)")
        #expect(abs(frame.side - min(faceSide / faceSize, short)) < 1e-9, "\(label)")
        // Inside the picture: slid, never shrunk.
        #expect(frame.left >= 0 && frame.top >= 0, "\(label)")
        #expect(frame.left + frame.side <= width + 1e-9, "\(label)")
        #expect(frame.top + frame.side <= height + 1e-9, "\(label)")
        let centred = abs(frame.left + frame.side / 2 - (x + faceSide / 2)) < 1e-9
        let eyes = y + FaceFraming.eyeHeight * faceSide
        let onEyeLine = abs(eyes - frame.top - FaceFraming.eyeLine * frame.side) < 1e-9
        let atLeftOrRight = frame.left == 0 || abs(frame.left + frame.side - width) < 1e-9
        let atTopOrBottom = frame.top == 0 || abs(frame.top + frame.side - height) < 1e-9
        #expect(centred || atLeftOrRight, "\(label)")
        #expect(onEyeLine || atTopOrBottom, "\(label)")
        // A face in the middle of the picture with room around it is framed exactly.
        if x == width / 2 - faceSide / 2 && y == height / 2 - faceSide / 2
          && faceSide / faceSize <= short * 0.8
        {
          #expect(centred && onEyeLine, "\(label)")
        }
      }
    }
  }

  @Test("the eyes sit at 40 % of the side, and the face spans the share asked for")
  func eyeLineAndShare() throws {
    let box = Self.face(1400, 900, 100)
    let frame = try #require(FaceFraming.frame([box], width: 3000, height: 2000, faceSize: 0.4))
    #expect(abs(frame.side - 250) < 1e-9)
    #expect(abs((box.y + 38 - frame.top) / frame.side - 0.4) < 1e-9)
    #expect(abs(frame.left - 1325) < 1e-9 && abs(frame.top - 838) < 1e-9)
  }

  @Test("faces that fit together at that share are framed as a group")
  func groupFits() throws {
    let faces = [Self.face(1000, 800, 100), Self.face(1150, 820, 90)]
    let frame = try #require(FaceFraming.frame(faces, width: 3000, height: 2000, faceSize: 0.4))
    #expect(frame.framing == .group)
    // The union is 240 wide and 110 high: its width spans the share.
    #expect(abs(frame.side - 600) < 1e-9)
    for face in faces {
      #expect(face.x >= frame.left && face.x + face.width <= frame.left + frame.side)
      #expect(face.y >= frame.top && face.y + face.height <= frame.top + frame.side)
    }
    #expect(abs(frame.left + frame.side / 2 - 1120) < 1e-9)
  }

  @Test("faces stacked up and down are framed by the union's height")
  func groupByHeight() throws {
    let faces = [Self.face(1000, 400, 100), Self.face(1010, 600, 100)]
    let frame = try #require(FaceFraming.frame(faces, width: 3000, height: 2000, faceSize: 0.5))
    #expect(frame.framing == .group && abs(frame.side - 600) < 1e-9)
  }

  @Test("faces too far apart to fit together: the most prominent one alone")
  func groupTooWide() throws {
    // Union 2700 wide at 0.4 is far more than the short side.
    let faces = [Self.face(100, 900, 120), Self.face(1450, 950, 100), Self.face(2700, 900, 115)]
    let frame = try #require(FaceFraming.frame(faces, width: 3000, height: 2000, faceSize: 0.4))
    #expect(frame.framing == .face)
    // The middle face is smaller than either edge face, but near the centre it wins.
    #expect(abs(frame.side - 250) < 1e-9)
    #expect(abs(frame.left + frame.side / 2 - 1500) < 1e-9)
  }

  /// Prominence is area times a weight falling from 1 at the centre to 0.5 at a corner.
  @Test func prominence() {
    let (width, height) = (3000, 2000)
    let middle = Self.face(1450, 950, 100)
    #expect(FaceFraming.prominence(of: middle, width: width, height: height) == 10_000)
    let corner = Self.face(-50, -50, 100)
    #expect(abs(FaceFraming.prominence(of: corner, width: width, height: height) - 5_000) < 1e-6)
    // A face twice as wide wins wherever it is; a slightly larger one at the edge does not.
    let large = Self.face(2800, 1800, 200)
    #expect(
      FaceFraming.prominence(of: large, width: width, height: height)
        > FaceFraming.prominence(of: middle, width: width, height: height))
    let edge = Self.face(2880, 950, 110)
    #expect(
      FaceFraming.prominence(of: edge, width: width, height: height)
        < FaceFraming.prominence(of: middle, width: width, height: height))
    let faces = [edge, middle]
    let frame = FaceFraming.frame(faces, width: width, height: height, faceSize: 0.1)
    #expect(frame?.framing == .face && abs((frame?.side ?? 0) - 1000) < 1e-9)
  }

  @Test("no face, no picture or a share out of range frames nothing")
  func nothingToFrame() {
    #expect(FaceFraming.frame([], width: 100, height: 100, faceSize: 0.4) == nil)
    let face = Self.face(10, 10, 20)
    #expect(FaceFraming.frame([face], width: 0, height: 100, faceSize: 0.4) == nil)
    for share in [0, -0.0, -1, 1.5, .nan, .infinity, 1e308] {
      #expect(FaceFraming.frame([face], width: 100, height: 100, faceSize: share) == nil)
    }
    // The smallest share there is: the square is the short side, not infinite.
    let tiny = FaceFraming.frame([face], width: 300, height: 100, faceSize: .leastNonzeroMagnitude)
    #expect(tiny?.side == 100)
  }

  /// The decision found on one size places the same square, scaled, at every decode size,
  /// and reports it in input pixels.
  @Test func decisionAtEverySize() throws {
    let found = HexMask.CropDecision.FoundFaces(
      faces: [HexMask.Face(x: 2000, y: 700, width: 200, height: 200)], width: 4000, height: 3000)
    let looked = HexMask.CropDecision.faces(x: 0.5, y: 0.5, found: found)
    // Without a framing, the full-side square the look chose.
    #expect(looked.square(width: 4000, height: 3000).side == 3000)
    let (decision, framing) = looked.framed(faceSize: 0.4)
    #expect(framing == .face)
    #expect(abs(decision.squareShare - 500.0 / 3000) < 1e-12)
    let full = decision.square(width: 4000, height: 3000)
    #expect(full == CropSquare(left: 1850, top: 576, side: 500))
    for shrink in [2, 4, 8] {
      let small = decision.square(width: 4000 / shrink, height: 3000 / shrink)
      #expect(abs(small.side * shrink - 500) <= shrink, "\(shrink)")
      #expect(abs(small.left * shrink - 1850) <= shrink, "\(shrink)")
      #expect(abs(small.top * shrink - 576) <= shrink, "\(shrink)")
    }
    // No face found: the attention square as it was, framed as attention.
    let attention = HexMask.CropDecision.focus(x: 0.2, y: 0.5)
    #expect(attention.framed(faceSize: 0.4) == (attention, .attention))
  }

  @Test("a JPEG shrinks on load only as far as the framed square allows")
  func decodeForTheSmallerSquare() {
    var need = PictureNeed(largestSide: 256, smallestSide: 256)
    #expect(need.wholeTargetSide == 256)
    need.squareShare = 0.25
    #expect(need.wholeTargetSide == 1024)
    // A 4032 × 3024 photo: 1/4 for the full side, 1/1 for a square of a quarter of it.
    #expect(shrinkFactor(sourceShortSide: 3024, targetSide: 256) == 4)
    #expect(shrinkFactor(sourceShortSide: 3024, targetSide: need.wholeTargetSide ?? 0) == 1)
    need.squareShare = 0.5
    #expect(shrinkFactor(sourceShortSide: 3024, targetSide: need.wholeTargetSide ?? 0) == 2)
    need.squareShare = .leastNonzeroMagnitude
    #expect(need.wholeTargetSide == 1 << 31)
    #expect(shrinkFactor(sourceShortSide: 65_535, targetSide: need.wholeTargetSide ?? 0) == 1)
  }

  @Test(
    "a share out of range is an invalid value naming Output.faceSize",
    arguments: [
      0, -0.0, -0.4, 1.0000001, 2, 1e308, .nan, .infinity, -.infinity,
    ])
  func invalidShare(share: Double) throws {
    var output = HexMask.Output()
    output.faceSize = share
    output.crop = .attention
    #expect {
      _ = try HexMask.render(try Fixtures.bytes("faces/framing/pair.jpg"), output: output)
    } throws: { error in
      guard case .invalidValue(let value) = error as? HexMask.Error else { return false }
      return value.field == "Output.faceSize" && value.value == "\(share)"
    }
  }

  @Test(
    "a share without the faces crop is a typed error",
    arguments: [
      HexMask.CropChoice.gravity(.center), .gravity(.north), .focus(x: 0.2, y: 0.3), .attention,
    ])
  func shareWithoutFaces(crop: HexMask.CropChoice) throws {
    var output = HexMask.Output()
    output.faceSize = 0.4
    output.crop = crop
    let bytes = try Fixtures.bytes("faces/framing/pair.jpg")
    #expect(throws: HexMask.Error.output(.faceSizeWithoutFaces)) {
      try HexMask.render(bytes, output: output)
    }
    #expect(throws: HexMask.Error.output(.faceSizeWithoutFaces)) {
      try HexMask.render(bytes, sizes: [32, 64], output: output)
    }
  }

  static let cascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"
  static var installed: Bool { FileManager.default.fileExists(atPath: cascade) }

  static func model() throws -> HexMask.FaceModel {
    try HexMask.FaceModel(faceCascades: [Array(try Data(contentsOf: URL(fileURLWithPath: cascade)))]
    )
  }

  /// The pasted face boxes of Fixtures/faces/framing (scripts/framing_fixtures.py).
  static func truth(_ name: String) throws -> [Box] {
    let data = try Data(
      contentsOf: URL(fileURLWithPath: Fixtures.path("faces/framing/truth.json")))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let pictures = try #require(root["pictures"] as? [String: [String: Any]])
    let faces = try #require(pictures[name]?["faces"] as? [[Int]])
    return faces.map {
      Box(x: Double($0[0]), y: Double($0[1]), width: Double($0[2]), height: Double($0[3]))
    }
  }

  @Test("a real face at 0.4 spans 0.3–0.5 of the output, eyes near 40 %", .enabled(if: installed))
  func realFace() throws {
    var output = HexMask.Output()
    output.crop = .faces(try Self.model())
    output.faceSize = 0.4
    let bytes = try Fixtures.bytes("faces/framing/one-face.jpg")
    let avatars = try HexMask.render(bytes, sizes: [64, 256], output: output)
    let truth = try #require(try Self.truth("one-face.jpg").first)
    for avatar in avatars {
      #expect(avatar.framing == .face)
      let crop = try #require(avatar.crop)
      let share = truth.width / Double(crop.side)
      #expect((0.3...0.5).contains(share), "\(share) \(crop)")
      let eyes =
        (truth.y + FaceFraming.eyeHeight * truth.height - Double(crop.y)) / Double(crop.side)
      #expect(abs(eyes - 0.4) < 0.05, "\(eyes)")
      let across = (truth.x + truth.width / 2 - Double(crop.x)) / Double(crop.side)
      #expect(abs(across - 0.5) < 0.05, "\(across)")
    }
    // One decision for every size.
    #expect(avatars[0].crop == avatars[1].crop)
  }

  @Test("two faces close together are framed as a group", .enabled(if: installed))
  func realPair() throws {
    var output = HexMask.Output()
    output.crop = .faces(try Self.model())
    output.faceSize = 0.4
    output.size = 128
    let rendered = try HexMask.render(try Fixtures.bytes("faces/framing/pair.jpg"), output: output)
    #expect(rendered.framing == .group)
    let crop = try #require(rendered.crop)
    for face in try Self.truth("pair.jpg") {
      #expect(Double(crop.x) <= face.x && face.x + face.width <= Double(crop.x + crop.side))
      #expect(Double(crop.y) <= face.y && face.y + face.height <= Double(crop.y + crop.side))
    }
  }

  @Test("no face: the full-side attention square, framed as attention", .enabled(if: installed))
  func noFace() throws {
    var output = HexMask.Output()
    output.crop = .faces(try Self.model())
    output.size = 64
    let bytes = try Fixtures.bytes("faces/detect/noface-coffee.jpg")
    let plain = try HexMask.render(bytes, output: output)
    output.faceSize = 0.4
    let framed = try HexMask.render(bytes, output: output)
    #expect(framed.framing == .attention && framed.faces == [])
    #expect(framed.crop == plain.crop && framed.bytes == plain.bytes)
    #expect(plain.framing == nil)
  }

  /// The picture is large enough for the render's decode (1/2) to be kept for the look, but
  /// the framed square needs the full size: the render decodes again at full size, once.
  @Test("the render decodes large enough for the smaller square", .enabled(if: installed))
  func decodeLargeEnough() throws {
    var output = HexMask.Output()
    output.crop = .faces(try Self.model())
    let bytes = try Fixtures.bytes("faces/framing/one-face.jpg")
    func opened(_ faceSize: Double?) throws -> HexMask.OpenedPicture {
      output.faceSize = faceSize
      return try HexMask.readingBytes(bytes) { file throws(HexMask.Error) in
        try HexMask.decoding { () throws(ImageError) in
          try HexMask.openPicture(
            file, sizes: [256], shape: HexMask.Shape(), output: output, input: HexMask.Input())
        }
      }
    }
    let plain = try opened(nil)
    #expect(plain.upright.width == 1200, "the full-side square's decode is 1/2")
    let framed = try opened(0.4)
    #expect(framed.upright.width == 2400)
    #expect(framed.square.side >= 512 && framed.square.side < 1600)
    // A share whose square keeps twice the output side at 1/2 keeps that decode.
    let loose = try opened(0.2)
    #expect(loose.upright.width == 1200 && loose.square.side >= 512)
  }

  @Test("--no-upscale keeps a small framed square at its own pixels", .enabled(if: installed))
  func noUpscale() throws {
    var output = HexMask.Output()
    output.crop = .faces(try Self.model())
    output.faceSize = 0.8
    output.upscale = false
    output.size = 512
    let rendered = try HexMask.render(try Fixtures.bytes("faces/framing/pair.jpg"), output: output)
    let crop = try #require(rendered.crop)
    #expect(crop.side < 512)
    #expect(rendered.side == crop.side)
  }
}
