import Foundation
import TestSupport
import Testing

@testable import HexMask

/// A picture to draw test scenes on: `width` × `height`, RGB, filled with `fill`.
private struct Canvas {
  var width: Int
  var height: Int
  var rgb: [UInt8]

  init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (120, 120, 120)) {
    self.width = width
    self.height = height
    rgb = [UInt8](repeating: 0, count: width * height * 3)
    for index in 0..<width * height {
      rgb[3 * index] = fill.0
      rgb[3 * index + 1] = fill.1
      rgb[3 * index + 2] = fill.2
    }
  }

  mutating func set(_ x: Int, _ y: Int, _ colour: (UInt8, UInt8, UInt8)) {
    let at = 3 * (y * width + x)
    rgb[at] = colour.0
    rgb[at + 1] = colour.1
    rgb[at + 2] = colour.2
  }

  /// Fills the ellipse centred on (`cx`, `cy`) with radii `rx`, `ry`.
  mutating func ellipse(cx: Int, cy: Int, rx: Int, ry: Int, _ colour: (UInt8, UInt8, UInt8)) {
    for y in max(0, cy - ry)...min(height - 1, cy + ry) {
      for x in max(0, cx - rx)...min(width - 1, cx + rx) {
        let dx = x - cx
        let dy = y - cy
        if dx * dx * ry * ry + dy * dy * rx * rx <= rx * rx * ry * ry { set(x, y, colour) }
      }
    }
  }

  /// A gray checkerboard of `cell`-pixel squares, levels 40 and 200, centred on
  /// (`cx`, `cy`).
  mutating func checkerboard(cx: Int, cy: Int, width w: Int, height h: Int, cell: Int) {
    for y in 0..<h {
      for x in 0..<w {
        let level: UInt8 = (x / cell + y / cell) % 2 == 0 ? 40 : 200
        set(cx - w / 2 + x, cy - h / 2 + y, (level, level, level))
      }
    }
  }

  /// The same scene turned a quarter: rows become columns.
  var transposed: Canvas {
    var out = Canvas(width: height, height: width)
    for y in 0..<height {
      for x in 0..<width {
        let at = 3 * (y * width + x)
        out.set(y, x, (rgb[at], rgb[at + 1], rgb[at + 2]))
      }
    }
    return out
  }

  var picture: SmallPicture { SmallPicture(width: width, height: height, rgb: rgb) }
}

/// Where the square's centre is along the picture's long axis.
private func squareCentre(_ square: CropSquare, width: Int, height: Int) -> Double {
  Double(width > height ? square.left : square.top) + Double(square.side) / 2
}

/// The side is the short side, the square lies inside, and only the long axis moves.
private func isValid(_ square: CropSquare, width: Int, height: Int) -> Bool {
  let side = min(width, height)
  return square.side == side && square.left >= 0 && square.top >= 0
    && square.left + side <= width && square.top + side <= height
    && (width >= height ? square.top == 0 : square.left == 0)
}

/// A skin tone (BT.601: Y 185, Cb 108, Cr 155), as on the face in astronaut.png.
private let skinTone: (UInt8, UInt8, UInt8) = (224, 172, 150)

/// A saturated red, as on a jacket or a sign.
private let saturatedRed: (UInt8, UInt8, UInt8) = (230, 30, 40)

@Suite("Attention crop")
struct AttentionTests {
  /// A saturated disc on a flat field, along the long axis at `fraction` of the reach of
  /// the square's centre (0: the square touches the start; 1: the end).
  @Test(
    "a saturated blob on a flat field lands in the middle of the square",
    arguments: [(800, 600), (600, 800), (451, 300), (300, 451), (1000, 100), (101, 37)],
    [0.0, 0.1, 0.5, 0.9, 1.0])
  func blobIsCentred(size: (width: Int, height: Int), fraction: Double) {
    let (width, height) = size
    let long = max(width, height)
    let short = min(width, height)
    let along = short / 2 + Int((fraction * Double(long - short)).rounded())
    var canvas = Canvas(width: width, height: height)
    let radius = max(2, short / 8)
    if width > height {
      canvas.ellipse(cx: along, cy: height / 2, rx: radius, ry: radius, saturatedRed)
    } else {
      canvas.ellipse(cx: width / 2, cy: along, rx: radius, ry: radius, saturatedRed)
    }
    let square = canvas.picture.attentionSquare()
    #expect(isValid(square, width: width, height: height))
    #expect(abs(squareCentre(square, width: width, height: height) - Double(along)) <= 3)
  }

  @Test(
    "a blob beyond the reach of the square's centre pulls the square to that end",
    arguments: [(640, 320), (320, 640)])
  func blobNearTheEnd(width: Int, height: Int) {
    let long = max(width, height)
    for (along, expected) in [(40, 0), (long - 40, long - min(width, height))] {
      var canvas = Canvas(width: width, height: height)
      if width > height {
        canvas.ellipse(cx: along, cy: height / 3, rx: 24, ry: 24, saturatedRed)
      } else {
        canvas.ellipse(cx: width / 3, cy: along, rx: 24, ry: 24, saturatedRed)
      }
      let square = canvas.picture.attentionSquare()
      #expect((width > height ? square.left : square.top) == expected)
    }
  }

  /// The texture alone draws the square to itself, so it is a real rival; with a
  /// skin-toned ellipse at the other end, the ellipse wins although the texture is a third
  /// larger (64×80 against an ellipse of radii 30×40).
  @Test(
    "a skin-toned ellipse beats a slightly larger gray texture",
    arguments: [false, true], [false, true])
  func skinBeatsTexture(portrait: Bool, skinOnTheLeft: Bool) {
    let skinAt = skinOnTheLeft ? 130 : 350
    let textureAt = skinOnTheLeft ? 350 : 130
    var texture = Canvas(width: 480, height: 240, fill: (110, 110, 110))
    texture.checkerboard(cx: textureAt, cy: 120, width: 64, height: 80, cell: 12)
    var both = texture
    both.ellipse(cx: skinAt, cy: 120, rx: 30, ry: 40, skinTone)
    if portrait {
      texture = texture.transposed
      both = both.transposed
    }
    let rival = texture.picture.attentionSquare()
    #expect(
      abs(squareCentre(rival, width: texture.width, height: texture.height) - Double(textureAt))
        <= 4)
    let square = both.picture.attentionSquare()
    #expect(isValid(square, width: both.width, height: both.height))
    #expect(abs(squareCentre(square, width: both.width, height: both.height) - Double(skinAt)) <= 4)
  }

  /// A smooth gradient backdrop, gray-blue at one end and a skin colour at the other, with
  /// a small face (a skin ellipse with eyes and a mouth) at the gray end. Skin without
  /// detail near it does not count, so the square holds the face, not the backdrop's
  /// skin-coloured end. (Found on the wide scenes: five people on a gradient backdrop lost
  /// to its empty end.)
  @Test(
    "a face beats the skin-coloured end of a smooth backdrop", arguments: [false, true],
    [false, true])
  func faceBeatsSmoothSkin(portrait: Bool, faceOnTheLeft: Bool) {
    var canvas = Canvas(width: 600, height: 300)
    let (grey, skin) = ((110, 118, 135), (226, 176, 150))
    for y in 0..<300 {
      for x in 0..<600 {
        // Gray for the first two thirds from the face's end, then turning to skin.
        let t = max(0, (faceOnTheLeft ? x : 599 - x) - 400)
        func mix(_ a: Int, _ b: Int) -> UInt8 { UInt8(a + (b - a) * t / 199) }
        canvas.set(x, y, (mix(grey.0, skin.0), mix(grey.1, skin.1), mix(grey.2, skin.2)))
      }
    }
    let faceAt = faceOnTheLeft ? 90 : 510
    canvas.ellipse(cx: faceAt, cy: 140, rx: 16, ry: 21, skinTone)
    for eye in [-7, 7] { canvas.ellipse(cx: faceAt + eye, cy: 134, rx: 3, ry: 2, (40, 30, 30)) }
    canvas.ellipse(cx: faceAt, cy: 152, rx: 6, ry: 2, (120, 40, 50))
    let scene = portrait ? canvas.transposed : canvas
    let square = scene.picture.attentionSquare()
    let centre = squareCentre(square, width: scene.width, height: scene.height)
    #expect(abs(centre - Double(faceAt)) <= 150 - 30, "square at \(square)")
  }

  @Test("skin that covers much of the picture does not outweigh a thing on it")
  func skinEverywhere() {
    // A skin-toned wall with a dark frame off to the right.
    var canvas = Canvas(width: 600, height: 300, fill: skinTone)
    for y in 90..<210 {
      for x in 330..<430 where x < 340 || x >= 420 || y < 100 || y >= 200 {
        canvas.set(x, y, (30, 30, 30))
      }
    }
    let square = canvas.picture.attentionSquare()
    #expect(abs(squareCentre(square, width: 600, height: 300) - 380) <= 4)
  }

  @Test(
    "flat pictures give the centred square",
    arguments: [
      (1, 1), (1, 2), (2, 1), (1, 7), (7, 1), (1, 1000), (1000, 1), (2, 3), (3, 2),
      (129, 128), (800, 600), (600, 800), (16000, 100), (100, 1000),
    ],
    [(120, 120, 120), (0, 0, 0), (255, 255, 255), (230, 30, 40), (224, 172, 150)]
      as [(UInt8, UInt8, UInt8)])
  func flatIsCentre(size: (width: Int, height: Int), colour: (UInt8, UInt8, UInt8)) {
    let picture = Canvas(width: size.width, height: size.height, fill: colour).picture
    #expect(
      picture.attentionSquare()
        == CropSquare(imageWidth: size.width, imageHeight: size.height, gravity: .center))
  }

  @Test(
    "pixels that do not match the size give the centred square",
    arguments: [
      (4, 2, 0), (4, 2, 23), (4, 2, 25), (4, 2, 48), (0, 0, 0), (0, 5, 0), (-3, 2, 0),
      (Int.max, 2, 6), (3, Int.max / 2, 9),
    ])
  func mismatchedPixels(width: Int, height: Int, count: Int) {
    let picture = SmallPicture(
      width: width, height: height, rgb: [UInt8](repeating: 200, count: count))
    #expect(
      picture.attentionSquare()
        == CropSquare(imageWidth: width, imageHeight: height, gravity: .center))
  }

  /// Random pictures of every shape, strips and single pixels included: never a trap,
  /// always a valid square, the same answer each time.
  @Test("random pictures give a valid square, the same every time", arguments: 0..<40)
  func randomPictures(seed: UInt64) {
    var random = SplitMix64(seed: 0xA77E_0000 + seed)
    let shapes = [(1, 1), (1, 300), (300, 1), (2, 900), (900, 3), (5, 4), (130, 129)]
    let (width, height) =
      seed < UInt64(shapes.count)
      ? shapes[Int(seed)] : (random.int(in: 1...820), random.int(in: 1...820))
    var canvas = Canvas(width: width, height: height)
    // Blocks of noise, so that the reduced map is not flat.
    let block = random.int(in: 1...40)
    for y in 0..<height {
      for x in 0..<width {
        var cell = SplitMix64(seed: seed &* 7919 &+ UInt64((y / block) * 10_007 + x / block))
        canvas.set(
          x, y, (UInt8(cell.next() & 255), UInt8(cell.next() & 255), UInt8(cell.next() & 255)))
      }
    }
    let picture = canvas.picture
    let square = picture.attentionSquare()
    #expect(isValid(square, width: width, height: height), "\(width)×\(height): \(square)")
    #expect(picture.attentionSquare() == square)
  }

  @Test("every thread gets the same square")
  func sameOnEveryThread() async throws {
    let picture = try fixturePicture("attention/coffee-160.png")
    let expected = picture.attentionSquare()
    let squares = await withTaskGroup(of: CropSquare.self) { group in
      for _ in 0..<8 { group.addTask { picture.attentionSquare() } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(squares.allSatisfy { $0 == expected })
  }

  /// chelsea.png and coffee.png, shrunk to 160×106 and 160×107: the cat's face (between
  /// its eyes, x ≈ 87) and the cup (x 47…109, centre 78) are in the middle of the square,
  /// within an eighth of its side.
  @Test(
    "the cat and the cup end up in the middle of the square",
    arguments: [
      ("attention/chelsea-160.png", 87, 87...87),
      ("attention/coffee-160.png", 78, 47...109),
    ])
  func realPhotos(name: String, subjectCentre: Int, subject: ClosedRange<Int>) throws {
    let picture = try fixturePicture(name)
    let square = picture.attentionSquare()
    #expect(isValid(square, width: picture.width, height: picture.height))
    let centre = squareCentre(square, width: picture.width, height: picture.height)
    #expect(abs(centre - Double(subjectCentre)) <= Double(square.side) / 8, "\(square)")
    #expect(square.left <= subject.lowerBound && subject.upperBound < square.left + square.side)
  }

  /// The same photos at full size, when the shared corpus is on this machine.
  @Test(
    "the cat and the cup, full size",
    .enabled(
      if: FileManager.default.fileExists(
        atPath: SharedCorpus.path("photos/coffee.png"))),
    arguments: [
      ("photos/chelsea.png", 245, 245...245),
      ("photos/coffee.png", 292, 175...410),
    ])
  func fullSizePhotos(name: String, subjectCentre: Int, subject: ClosedRange<Int>) throws {
    let path = SharedCorpus.path(name)
    let image = try withFile(path) { file in try decode(file: file) }
    let picture = SmallPicture(width: image.width, height: image.height, rgb: rgb(image))
    let square = picture.attentionSquare()
    let centre = squareCentre(square, width: picture.width, height: picture.height)
    #expect(abs(centre - Double(subjectCentre)) <= Double(square.side) / 8, "\(square)")
    #expect(square.left <= subject.lowerBound && subject.upperBound < square.left + square.side)
  }
}

/// A fixture decoded into a SmallPicture (RGB, alpha dropped).
private func fixturePicture(_ name: String) throws -> SmallPicture {
  let image = try decodeFixture(name)
  return SmallPicture(width: image.width, height: image.height, rgb: rgb(image))
}
