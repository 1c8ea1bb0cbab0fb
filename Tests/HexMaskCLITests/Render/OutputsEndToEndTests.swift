import Foundation
import HexMask
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Writes a `width × height` RGBA PNG whose pixel (x, y) is `color(x, y)`.
func writeTestPNG(_ path: String, width: Int, height: Int, color: (Int, Int) -> [UInt8]) throws {
  guard let file = fopen(path, "wb") else {
    throw ProcessRunError(description: "cannot create \(path)")
  }
  defer { fclose(file) }
  let writer = try PNGStreamEncoder(file: file, width: width, height: height)
  for y in 0..<height {
    let row = (0..<width).flatMap { color($0, y) }
    try row.withUnsafeBufferPointer { try writer.writeRow($0) }
  }
  try writer.finish()
}

/// `--size`, crop focus and the other output formats, through the binary.
@Suite(.tags(.endToEnd)) struct OutputsEndToEndTests {
  @Test(arguments: [1, 2, 3, 64, 255, 256])
  func sizeGivesThatSquare(size: Int) throws {
    try withTemporaryFolder { (dir: URL) throws in
      let output = dir.appendingPathComponent("out.png").path
      let run = try runHexMask([Fixtures.path("photos/rocket.jpg"), output, "--size", "\(size)"])
      #expect(run.status == 0, "\(run.standardError)")
      let image = try decodeImage(at: output)
      #expect(image.width == size && image.height == size)
    }
  }

  @Test func noUpscaleKeepsSmallSquaresAtTheirSize() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let output = dir.appendingPathComponent("out.png").path
      #expect(
        try runHexMask([
          Fixtures.path("photos/rocket.jpg"), output, "--size", "1000", "--no-upscale",
        ])
        .status == 0)
      #expect(try decodeImage(at: output).width == 427)
    }
  }

  /// A 300 × 100 picture: red, green and blue thirds. The square shows one third.
  @Test(arguments: [
    (["--gravity", "west"], [255, 0, 0]), (["--gravity", "center"], [0, 255, 0]),
    (["--gravity", "east"], [0, 0, 255]), (["--focus", "0.9,0.5"], [0, 0, 255]),
    (["--focus", "0,0"], [255, 0, 0]), (["--gravity", "north"], [0, 255, 0]),
  ])
  func gravityAndFocusPickTheSquare(options: [String], colour: [Int]) throws {
    try withTemporaryFolder { (dir: URL) throws in
      let input = dir.appendingPathComponent("thirds.png").path
      try writeTestPNG(input, width: 300, height: 100) { x, _ in
        x < 100 ? [255, 0, 0, 255] : x < 200 ? [0, 255, 0, 255] : [0, 0, 255, 255]
      }
      let output = dir.appendingPathComponent("out.png").path
      let run = try runHexMask([input, output, "--line", "0"] + options)
      #expect(run.status == 0, "\(run.standardError)")
      let image = try decodeImage(at: output)
      #expect(image.width == 100)
      #expect(image.pixel(50, 50).map(Int.init) == colour + [255])
    }
  }

  /// (In sRGB: with rocket.jpg's Adobe RGB profile kept, the background would be written in
  /// its numbers, ColourSpaceTests.)
  @Test(arguments: [([String](), [255, 255, 255]), (["--background", "#ff0000"], [255, 0, 0])])
  func jpegIsOpaqueOnTheBackground(options: [String], background: [Int]) throws {
    try withTemporaryFolder { (dir: URL) throws in
      let output = dir.appendingPathComponent("out.jpg").path
      let run = try runHexMask(
        [Fixtures.path("photos/rocket.jpg"), output, "--size", "128", "--colorspace", "srgb"]
          + options)
      #expect(run.status == 0, "\(run.standardError)")
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
      #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]))
      let image = try decodeImage(at: output)
      #expect(image.width == 128)
      let corner = image.pixel(1, 1).map(Int.init)
      #expect(zip(corner, background + [255]).allSatisfy { abs($0 - $1) <= 3 }, "\(corner)")
    }
  }

  @Test func backgroundMakesPNGOpaque() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let output = dir.appendingPathComponent("out.png").path
      #expect(
        try runHexMask([
          Fixtures.path("photos/rocket.jpg"), output, "--size", "64", "--background", "navy",
          "--colorspace", "srgb",
        ]).status == 0)
      let image = try decodeImage(at: output)
      #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
      #expect(image.pixel(0, 0) == [0, 0, 128, 255])
    }
  }

  @Test(arguments: [[String](), ["--lossless"], ["--quality", "50"]])
  func webpIsWrittenByNameOrFormat(options: [String]) throws {
    try withTemporaryFolder { (dir: URL) throws in
      for (name, extra) in [("out.webp", [String]()), ("out.img", ["--format", "webp"])] {
        let output = dir.appendingPathComponent(name).path
        let run = try runHexMask(
          [Fixtures.path("photos/rocket.jpg"), output, "--size", "96"] + options + extra)
        #expect(run.status == 0, "\(run.standardError)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(
          bytes.count > 12 && Array(bytes[0..<4]) == Array("RIFF".utf8)
            && Array(bytes[8..<12]) == Array("WEBP".utf8))
      }
    }
  }

  @Test func unknownExtensionIsAUsageError() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let run = try runHexMask([
        Fixtures.path("photos/rocket.jpg"), dir.appendingPathComponent("out.gif").path,
      ])
      #expect(run.status == 2)
      #expect(run.standardError.contains("--format"))
      #expect(try filesIn(dir).isEmpty)
    }
  }

  /// The mask equals the alpha of a normal run on an opaque white picture, and needs no
  /// picture at all when --size is given.
  @Test(arguments: [
    [String](), ["--layout", "seed"], ["--sides", "3", "--corner", "0", "--line", "9"],
  ])
  func maskEqualsTheAlphaOfAWhitePicture(options: [String]) throws {
    try withTemporaryFolder { (dir: URL) throws in
      let white = dir.appendingPathComponent("white.png").path
      try writeTestPNG(white, width: 90, height: 90) { _, _ in [255, 255, 255, 255] }
      let normal = dir.appendingPathComponent("normal.png").path
      let mask = dir.appendingPathComponent("mask.png").path
      let bare = dir.appendingPathComponent("bare.png").path
      #expect(try runHexMask([white, normal] + options).status == 0)
      #expect(try runHexMask([white, mask, "--mask-only"] + options).status == 0)
      #expect(try runHexMask(["--mask-only", "--size", "90", bare] + options).status == 0)
      let alpha = try decodeImage(at: normal).pixels.enumerated().filter { $0.offset % 4 == 3 }.map(
        \.element)
      let gray = try decodeImage(at: mask).pixels.enumerated().filter { $0.offset % 4 == 0 }.map(
        \.element)
      #expect(gray == alpha)
      #expect(try decodeImage(at: bare).pixels == decodeImage(at: mask).pixels)
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: mask)))
      #expect(bytes[25] == 0)  // IHDR colour type 0: gray
    }
  }

  @Test func svgIsTheSameGeometryAndParses() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let svg = dir.appendingPathComponent("shape.svg").path
      let run = try runHexMask([
        Fixtures.path("photos/rocket.jpg"), dir.appendingPathComponent("o.png").path, "--svg", svg,
        "--size", "200", "--sides", "7",
      ])
      #expect(run.status == 0, "\(run.standardError)")
      var shape = HexMask.Shape()
      shape.sides = 7
      let expected = try HexMask.svg(side: 200, shape: shape)
      let written = try String(contentsOfFile: svg, encoding: .utf8)
      #expect(written == expected)
      #expect(XMLParser(data: Data(written.utf8)).parse())
      let alone = try runHexMask(["--svg", "-", "--size", "200", "--sides", "7"])
      #expect(alone.status == 0 && alone.standardOutput == expected)
    }
  }

  @Test func batchNamesFollowTheFormat() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let out = dir.appendingPathComponent("out")
      let run = try runHexMask([
        Fixtures.path("photos/rocket.jpg"), "--out-dir", out.path, "--format", "jpeg", "--size",
        "32",
        "-q",
      ])
      #expect(run.status == 0, "\(run.standardError)")
      #expect(try filesIn(out) == [".hexmask", "rocket.jpg"])
    }
  }
}

/// The PNG encoder's settings and threads, through the binary.
@Suite struct CompressionEndToEndTests {
  @Test func threadsNeverChangeTheBytes() throws {
    try withTemporaryFolder { (dir: URL) throws in
      var outputs: [Data] = []
      for jobs in ["1", "2", "3"] {
        let output = dir.appendingPathComponent("j\(jobs).png")
        // 640 px wide upscaled to 1200: several deflate bands.
        let run = try runHexMask([
          Fixtures.path("photos/rocket.jpg"), output.path, "--size", "1200", "-j", jobs,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        outputs.append(try Data(contentsOf: output))
      }
      #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
    }
  }

  @Test func everyCompressionDecodesToTheSamePixels() throws {
    try withTemporaryFolder { (dir: URL) throws in
      var images: [DecodedImage] = []
      var sizes: [Int] = []
      for level in ["fast", "default", "small", "0", "9"] {
        let output = dir.appendingPathComponent("\(level).png")
        let run = try runHexMask([
          Fixtures.path("photos/rocket.jpg"), output.path, "--compression", level,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        images.append(try decodeImage(at: output.path))
        sizes.append(try Data(contentsOf: output).count)
      }
      #expect(images.allSatisfy { $0.pixels == images[0].pixels })
      #expect(sizes[3] > sizes[2] && sizes[2] < sizes[0])  // stored is largest, small beats fast
    }
  }
}
