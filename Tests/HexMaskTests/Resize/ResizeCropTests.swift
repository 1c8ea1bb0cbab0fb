import Testing

@testable import HexMask

@Suite("Resize crop square")
struct ResizeCropTests {
  @Test(
    "the centred square: integer halves of the margins",
    arguments: [
      (640, 427), (427, 640), (1, 1), (2, 7), (7, 2), (100, 100), (101, 100), (4032, 3024),
    ])
  func centreIsCanvas(width: Int, height: Int) {
    let side = min(width, height)
    let square = CropSquare(imageWidth: width, imageHeight: height, gravity: .center)
    #expect(CropSquare(left: (width - side) / 2, top: (height - side) / 2, side: side) == square)
    #expect(CropSquare(imageWidth: width, imageHeight: height, focus: (0.5, 0.5)) == square)
  }

  static let gravities: [(Gravity, wide: (left: Int, top: Int), tall: (left: Int, top: Int))] = [
    (.center, (50, 0), (0, 50)), (.north, (50, 0), (0, 0)), (.south, (50, 0), (0, 101)),
    (.east, (101, 0), (0, 50)), (.west, (0, 0), (0, 50)), (.northeast, (101, 0), (0, 0)),
    (.northwest, (0, 0), (0, 0)), (.southeast, (101, 0), (0, 101)),
    (.southwest, (0, 0), (0, 101)),
  ]

  @Test("each gravity picks its square", arguments: gravities)
  func gravity(_ gravity: Gravity, wide: (left: Int, top: Int), tall: (left: Int, top: Int)) {
    #expect(
      CropSquare(imageWidth: 301, imageHeight: 200, gravity: gravity)
        == CropSquare(left: wide.left, top: wide.top, side: 200))
    #expect(
      CropSquare(imageWidth: 200, imageHeight: 301, gravity: gravity)
        == CropSquare(left: tall.left, top: tall.top, side: 200))
    #expect(
      CropSquare(imageWidth: 64, imageHeight: 64, gravity: gravity)
        == CropSquare(left: 0, top: 0, side: 64))
  }

  @Test("every gravity has a name the command line can use")
  func gravityNames() {
    #expect(Gravity.allCases.count == 9)
    #expect(Gravity(rawValue: "northeast") == .northeast)
    #expect(Gravity(rawValue: "middle") == nil)
  }

  @Test(
    "focus centres the square on a point, kept inside the image",
    arguments: [
      // 400×100: the square is 100, so `left` runs 0…300.
      (400, 100, 0.0, 0.0, 0, 0), (400, 100, 1.0, 1.0, 300, 0), (400, 100, 0.25, 0.5, 50, 0),
      (400, 100, 0.1, 0.9, 0, 0), (400, 100, 0.95, 0.5, 300, 0), (400, 100, -2.0, 5.0, 0, 0),
      (400, 100, 3.0, 0.5, 300, 0), (400, 100, 0.6, 0.5, 190, 0), (400, 100, .nan, 0.5, 150, 0),
      // 100×400: `top` runs 0…300.
      (100, 400, 0.5, 0.0, 0, 0), (100, 400, 0.5, 1.0, 0, 300), (100, 400, 0.5, 0.2, 0, 30),
      (100, 400, 0.0, 0.75, 0, 250),
    ])
  func focus(width: Int, height: Int, x: Double, y: Double, left: Int, top: Int) {
    let square = CropSquare(imageWidth: width, imageHeight: height, focus: (x, y))
    #expect(square == CropSquare(left: left, top: top, side: min(width, height)))
  }

  /// An image in four coloured quadrants, 2:1: each gravity's square, shrunk to 8×8,
  /// shows the quadrants it covers. Near the square's edges the filter also sees a little
  /// of the picture beyond them, as when the whole picture is resized, so pixels are
  /// compared with a tolerance.
  @Test("gravity picks the right part of the picture", arguments: Gravity.allCases)
  func quadrants(_ gravity: Gravity) throws {
    let colours: [SIMD4<UInt8>] = [
      SIMD4(255, 0, 0, 255), SIMD4(0, 255, 0, 255), SIMD4(0, 0, 255, 255), SIMD4(255, 255, 0, 255),
    ]
    // Quadrants (top-left, top-right, bottom-left, bottom-right) of a 240×120 image.
    let image = PatternDecoder(width: 240, height: 120) { x, y in
      colours[(y < 60 ? 0 : 2) + (x < 120 ? 0 : 1)]
    }
    let crop = CropSquare(imageWidth: 240, imageHeight: 120, gravity: gravity)
    let pixels = try readPixels(ResizedDecoder(image, crop: crop, side: 8))
    func quadrant(x: Int, y: Int) -> Int? {
      let pixel = pixels[y * 8 + x]
      return colours.firstIndex { colour in
        (0..<4).allSatisfy { abs(Int(pixel[$0]) - Int(colour[$0])) <= 24 }
      }
    }
    // The square is the whole height: its top half is the top quadrants.
    let seen = [
      quadrant(x: 1, y: 1), quadrant(x: 6, y: 1), quadrant(x: 1, y: 6), quadrant(x: 6, y: 6),
    ]
    switch gravity {
    case .west, .northwest, .southwest:
      #expect(crop.left == 0)
      #expect(seen == [0, 0, 2, 2])
    case .east, .northeast, .southeast:
      #expect(crop.left == 120)
      #expect(seen == [1, 1, 3, 3])
    case .center, .north, .south:
      #expect(crop.left == 60)
      #expect(seen == [0, 1, 2, 3])
    }
  }

  /// At its own size the square is copied, not filtered: each pixel is where it was.
  @Test("a square at its own size is only cropped", arguments: Gravity.allCases)
  func passThrough(_ gravity: Gravity) throws {
    let image = PatternDecoder(width: 37, height: 23) { x, y in
      SIMD4(UInt8(x), UInt8(y), UInt8(x * y % 256), UInt8(100 + x))
    }
    let crop = CropSquare(imageWidth: 37, imageHeight: 23, gravity: gravity)
    let pixels = try readPixels(ResizedDecoder(image, crop: crop, side: 23))
    for y in 0..<23 {
      for x in 0..<23 {
        #expect(pixels[y * 23 + x] == image.pixel(crop.left + x, crop.top + y))
      }
    }
    #expect(image.rowsRead == crop.top + 23)
  }
}
