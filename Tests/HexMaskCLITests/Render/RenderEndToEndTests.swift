import Foundation
import TestSupport
import Testing

/// Runs the built executable on real images and checks the pixels, the exit status and
/// that nothing is left behind.
@Suite(.tags(.endToEnd)) struct RenderEndToEndTests {
  @Test func photoBecomesAHexagonWithAWhiteBorder() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let output = dir.appendingPathComponent("out.png").path
      let run = try runHexMask([Fixtures.path("photos/rocket.jpg"), output])
      #expect(run.status == 0, "\(run.standardError)")
      #expect(run.standardOutputData.isEmpty && run.standardError.isEmpty)
      let input = try decodeImage(at: Fixtures.path("photos/rocket.jpg"))
      let image = try decodeImage(at: output)
      let side = 427  // the photo is 640×427: the canvas is its centred square
      #expect(image.width == side && image.height == side)
      // Corners of the canvas lie outside the hexagon.
      for (x, y) in [(0, 0), (side - 1, 0), (0, side - 1), (side - 1, side - 1)] {
        #expect(image.pixel(x, y) == [0, 0, 0, 0])
      }
      // The middle is the photo's own pixel, untouched.
      let left = (640 - side) / 2
      #expect(image.pixel(side / 2, side / 2) == input.pixel(left + side / 2, side / 2))
      // Rotation 90° puts a corner at the bottom; its curve reaches y = S − w/2, so the
      // 5 px border covers rows S−5…S−1 there.
      #expect(image.pixel(side / 2, side - 3) == [255, 255, 255, 255])
      #expect(try filesIn(dir) == ["out.png"])
    }
  }

  @Test func sameInputAndOptionsGiveTheSameBytes() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let first = dir.appendingPathComponent("a.png")
      let second = dir.appendingPathComponent("b.png")
      let options = ["--sides", "5", "--corner", "30", "--border-color", "#1e90ff80"]
      #expect(
        try runHexMask([Fixtures.path("photos/rocket.jpg"), first.path] + options).status == 0)
      #expect(
        try runHexMask([Fixtures.path("photos/rocket.jpg"), second.path] + options).status == 0)
      #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }
  }

  @Test(arguments: ["pngsuite/basn0g01.png", "pngsuite/s01n3p01.png", "jpeg/jpg-size-1x1.jpg"])
  func defaultsFitTinyImages(name: String) throws {
    try withTemporaryFolder { (dir: URL) throws in
      let output = dir.appendingPathComponent("tiny.png").path
      let run = try runHexMask([Fixtures.path(name), output])
      #expect(run.status == 0, "\(run.standardError)")
      let input = try decodeImage(at: Fixtures.path(name))
      let image = try decodeImage(at: output)
      #expect(image.width == min(input.width, input.height))
    }
  }

  @Test func seedLayoutUsesTheTopLeftSquare() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let output = dir.appendingPathComponent("seed.png").path
      #expect(
        try runHexMask([Fixtures.path("photos/rocket.jpg"), output, "--layout", "seed"]).status == 0
      )
      let input = try decodeImage(at: Fixtures.path("photos/rocket.jpg"))
      let image = try decodeImage(at: output)
      #expect(image.width == 427)
      #expect(image.pixel(213, 213) == input.pixel(213, 213))
      // The border is clipped by the mask: the outermost row of the shape is never opaque white.
      #expect(image.pixel(213, 426)[3] < 255)
    }
  }

  @Test func missingInputIsReportedWithItsName() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let run = try runHexMask(["nope.jpg", "out.png"], in: dir)
      #expect(run.status == 1)
      #expect(run.standardError == "hexmask: nope.jpg: cannot open: No such file or directory\n")
      #expect(try filesIn(dir).isEmpty)
    }
  }

  @Test(arguments: ["pngsuite/xcrn0g04.png", "corrupt/truncated.png", "photos/MANIFEST.txt"])
  func badInputLeavesNoOutput(name: String) throws {
    try withTemporaryFolder { (dir: URL) throws in
      let run = try runHexMask([Fixtures.path(name), dir.appendingPathComponent("out.png").path])
      #expect(run.status == 1)
      #expect(run.standardError.hasPrefix("hexmask: \(Fixtures.path(name)): "))
      #expect(run.standardError.filter { $0 == "\n" }.count == 1)
      #expect(try filesIn(dir).isEmpty)
    }
  }

  @Test func outputFolderMustExist() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let output = dir.appendingPathComponent("missing/out.png").path
      let run = try runHexMask([Fixtures.path("photos/rocket.jpg"), output])
      #expect(run.status == 1)
      #expect(run.standardError.contains("output folder"))
      #expect(try filesIn(dir).isEmpty)
    }
  }

  @Test func inputIsNeverOverwritten() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let copy = dir.appendingPathComponent("photo.jpg")
      try FileManager.default.copyItem(
        atPath: Fixtures.path("photos/rocket.jpg"), toPath: copy.path)
      try FileManager.default.createSymbolicLink(
        at: dir.appendingPathComponent("link.png"), withDestinationURL: copy)
      let before = try Data(contentsOf: copy)
      for output in [
        copy.path, dir.path + "/./photo.jpg", dir.appendingPathComponent("link.png").path,
      ] {
        let run = try runHexMask([copy.path, output])
        #expect(run.status == 2)
        #expect(run.standardError.contains("refusing to overwrite"))
      }
      #expect(try Data(contentsOf: copy) == before)
      #expect(try filesIn(dir) == ["link.png", "photo.jpg"])
    }
  }

  @Test func cornerTooLargeIsAUsageErrorNamingTheMaximum() throws {
    try withTemporaryFolder { (dir: URL) throws in
      let run = try runHexMask([
        Fixtures.path("photos/rocket.jpg"), dir.appendingPathComponent("o.png").path, "--corner",
        "500",
      ])
      #expect(run.status == 2)
      // (427 − 5) / (3 + cos 60°) = 120.57…
      #expect(run.standardError.contains("at most 120.57"))
      #expect(try filesIn(dir).isEmpty)
    }
  }
}
