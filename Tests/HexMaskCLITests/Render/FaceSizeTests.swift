import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

/// `--face-size F` on the command line: the values it takes, the options it needs and
/// contradicts, its warnings and rerun recipe, and what the built binary writes and says.
@Suite struct FaceSizeTests {
  @Test(arguments: [("0.4", 0.4), ("1", 1.0), ("1e-3", 0.001), (".25", 0.25), ("+0.5", 0.5)])
  func valuesTaken(text: String, value: Double) throws {
    let job = try Job(parsing: ["in.jpg", "out.png", "--gravity", "face", "--face-size", text])
    #expect(job.options.output.faceSize == value)
    let joined = try Job(parsing: ["in.jpg", "out.png", "--gravity", "face", "--face-size=\(text)"])
    #expect(joined.options.output.faceSize == value)
  }

  static let badValues = [
    "0", "-0", "0.0", "-0.4", "1.0001", "2", "1e308", "1e-400", "nan", "NaN", "inf", "-inf",
    "infinity", "", "abc", "0x1p-2", "0.4.1", "40%", "0,4", " 0.4", "4e-1x",
  ]

  @Test(arguments: badValues)
  func badValuesAreUsageErrors(text: String) {
    #expect(throws: CommandError.invalidValue(text, option: "--face-size", kind: .fraction)) {
      try Job(parsing: ["in.jpg", "out.png", "--gravity", "face", "--face-size", text])
    }
  }

  @Test(arguments: [
    ([] as [String], Contradiction.faceSizeWithoutFaceGravity(nil)),
    (["--gravity", "north"], .faceSizeWithoutFaceGravity(.side(.north))),
    (["--gravity", "center"], .faceSizeWithoutFaceGravity(.side(.center))),
    (["--gravity", "attention"], .faceSizeWithoutFaceGravity(.attention)),
    (["--gravity", "face", "--gravity", "east"], .faceSizeWithoutFaceGravity(.side(.east))),
    (["--focus", "0.3,0.3"], .faceSizeAndFocus),
    (["--mask-only"], .faceSizeWithoutFaceGravity(nil)),
    (["--layout", "seed"], .faceSizeWithoutFaceGravity(nil)),
  ])
  func onlyWithGravityFace(extra: [String], contradiction: Contradiction) {
    for files in [["in.jpg", "out.png"], ["in.jpg", "--out-dir", "o"]] {
      #expect(throws: CommandError.contradiction(contradiction)) {
        try Job(parsing: files + extra + ["--face-size", "0.4"])
      }
    }
    // Without a picture: the mask or SVG of a size.
    #expect(throws: CommandError.contradiction(contradiction)) {
      try Job(parsing: ["--mask-only", "--size", "64", "m.png", "--face-size", "0.4"] + extra)
    }
  }

  @Test func gravityAndFocusIsSaidFirst() {
    #expect(throws: CommandError.contradiction(.gravityAndFocus)) {
      try Job(parsing: [
        "in.jpg", "out.png", "--gravity", "face", "--focus", "0.5,0.5", "--face-size", "0.4",
      ])
    }
  }

  @Test func contradictionWordsNameTheWayOut() {
    let words = [
      Contradiction.faceSizeWithoutFaceGravity(nil).words,
      Contradiction.faceSizeWithoutFaceGravity(.side(.north)).words,
      Contradiction.faceSizeAndFocus.words,
    ]
    for line in words {
      #expect(line.hasPrefix("--face-size frames the face that --gravity face finds"))
      #expect(!line.contains("\n"))
    }
    #expect(words[1].contains("--gravity north finds none"))
    #expect(OutputError.faceSizeWithoutFaces.words == words[0])
  }

  /// Where `--gravity face` has no effect, `--face-size` has none either, and says so.
  @Test func ineffectiveWhereGravityIs() throws {
    let mask = try Job(parsing: [
      "in.jpg", "m.png", "--mask-only", "--gravity", "face", "--face-size", "0.4",
    ])
    #expect(mask.ineffectiveOptions.contains(.withMaskOnly(option: "face-size")))
    let seed = try Job(parsing: [
      "in.jpg", "o.png", "--layout", "seed", "--gravity", "face", "--face-size", "0.4",
    ])
    #expect(seed.ineffectiveOptions.contains(.withSeedLayout(option: "face-size")))
    let svg = try Job(parsing: [
      "--svg", "s.svg", "--size", "64", "--gravity", "face", "--face-size", "0.4",
    ])
    #expect(svg.ineffectiveOptions.contains(.onlySVG(option: "face-size")))
    let plain = try Job(parsing: ["in.jpg", "o.png", "--gravity", "face", "--face-size", "0.4"])
    #expect(plain.ineffectiveOptions.isEmpty)
  }

  /// A changed F rebuilds; the same F, or none where it cannot act, does not.
  @Test func theShareIsInTheRecipe() throws {
    let facts = HexMask.PictureFacts(
      width: 1000, height: 700, hasColorProfile: false, isTurned: false, isClean: true)
    func recipe(_ faceSize: Double?, mask: Bool = false, size: Int? = 256) -> String {
      var settings = RenderSettings()
      settings.output.crop = .attention
      settings.output.faceSize = faceSize
      settings.output.size = size
      settings.choices.maskOnly = mask
      return effectiveRecipe(of: settings, side: 256, format: .png, picture: facts)
    }
    #expect(recipe(0.4) == recipe(0.4))
    #expect(recipe(0.4) != recipe(0.5))
    #expect(recipe(0.4) != recipe(nil))
    #expect(recipe(0.4).contains("face-size \(String(0.4.bitPattern, radix: 16))\n"))
    #expect(!recipe(nil).contains("face-size"))
    #expect(recipe(0.4, mask: true) == recipe(nil, mask: true))
    // The framed side is the output's own, not the picture's short side.
    #expect(recipe(0.4, size: nil).contains("side 256\nsize own\n"))
    #expect(recipe(nil, size: nil).contains("side 700\n"))
  }

  /// On a square picture every crop shows the whole picture (a rerun that switches to
  /// `--gravity face` or `attention` rebuilds nothing), except a face framed smaller.
  @Test func everyCropOnASquareIsTheWholePictureUnlessFramed() throws {
    let square = HexMask.PictureFacts(
      width: 800, height: 800, hasColorProfile: false, isTurned: false, isClean: true)
    let model = try HexMask.FaceModel(faceCascades: [Array(tinyCascadeXML().utf8)])
    func recipe(_ crop: HexMask.CropChoice, faceSize: Double? = nil) -> String {
      var settings = RenderSettings()
      settings.output.crop = crop
      settings.output.faceSize = faceSize
      settings.output.size = 256
      return effectiveRecipe(of: settings, side: 256, format: .png, picture: square)
    }
    let centre = recipe(.gravity(.center))
    for crop in [
      HexMask.CropChoice.gravity(.north), .focus(x: 0.2, y: 0.9), .attention, .faces(model),
    ] {
      #expect(recipe(crop) == centre, "\(crop)")
    }
    #expect(recipe(.faces(model), faceSize: 0.4) != centre)
  }

  @Test func verboseWords() {
    #expect(framingWords(.face) == "framed on the face")
    #expect(framingWords(.group) == "framed on the group")
    #expect(framingWords(.attention).contains("attention"))
  }
}

/// `--face-size` through the built binary, with the installed face model.
@Suite(.tags(.endToEnd), .enabled(if: FaceSceneTests.modelInstalled))
struct FaceSizeEndToEndTests {
  static let one = Fixtures.path("faces/framing/one-face.jpg")
  static let pair = Fixtures.path("faces/framing/pair.jpg")
  static let noFace = Fixtures.path("faces/detect/noface-coffee.jpg")

  /// The `--json` rows of a run, by output name.
  static func rows(_ run: ProcessRun) throws -> [[String: Any]] {
    try run.standardOutput.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  static func crop(_ row: [String: Any]) throws -> (x: Int, y: Int, side: Int) {
    let crop = try #require(row["crop"] as? [String: Int])
    return (try #require(crop["x"]), try #require(crop["y"]), try #require(crop["side"]))
  }

  @Test func everyBadValueAndCombinationIsOneLineAndStatus2() throws {
    var rows: [[String]] = FaceSizeTests.badValues.map {
      [Self.pair, "o.png", "--gravity", "face", "--face-size", $0]
    }
    rows += [
      [Self.pair, "o.png", "--face-size", "0.4"],
      [Self.pair, "o.png", "--gravity", "north", "--face-size", "0.4"],
      [Self.pair, "o.png", "--gravity", "attention", "--face-size", "0.4"],
      [Self.pair, "o.png", "--focus", "0.2,0.2", "--face-size", "0.4"],
      [Self.pair, "--out-dir", "o", "--face-size", "0.4"],
      ["--mask-only", "--size", "64", "m.png", "--face-size", "0.4"],
      [Self.pair, "o.png", "--gravity", "face", "--face-size"],
    ]
    try withTemporaryFolder { folder in
      for arguments in rows {
        let run = try runHexMask(arguments, in: folder)
        #expect(run.status == 2, "\(arguments)")
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.first?.hasPrefix("hexmask: ") == true, "\(arguments)")
        #expect(lines.count <= 2, "\(arguments): \(run.standardError)")
        if lines.count == 2 { #expect(lines[1].hasPrefix("Try 'hexmask --help'")) }
        #expect(run.standardError.contains("--face-size"), "\(arguments)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
      }
    }
  }

  /// Where `--gravity face` looks for no face, `--face-size` frames none: a warning, and
  /// the output as without it.
  @Test(arguments: [["--mask-only"], ["--layout", "seed"]])
  func noFaceLookedForNoneFramed(extra: [String]) throws {
    try withTemporaryFolder { folder in
      let framed = try runHexMask(
        [Self.pair, "framed.png", "--size", "32", "--gravity", "face", "--face-size", "0.4"]
          + extra, in: folder)
      #expect(framed.status == 0, "\(framed.standardError)")
      #expect(framed.standardError.contains("warning: --face-size has no effect with --"))
      let plain = try runHexMask(
        [Self.pair, "plain.png", "--size", "32", "--gravity", "face"] + extra, in: folder)
      #expect(plain.status == 0)
      #expect(
        try Data(contentsOf: folder.appendingPathComponent("framed.png"))
          == Data(contentsOf: folder.appendingPathComponent("plain.png")))
    }
  }

  @Test func jsonAndVerboseSayHowTheSquareWasFramed() throws {
    try withTemporaryFolder { folder in
      let run = try runHexMask(
        [
          Self.one, Self.pair, Self.noFace, "--out-dir", "out", "--size", "64", "--gravity",
          "face", "--face-size", "0.4", "--json", "--verbose",
        ], in: folder)
      #expect(run.status == 0, "\(run.standardError)")
      let rows = try Self.rows(run)
      #expect(rows.map { $0["framing"] as? String } == ["face", "group", "attention"])
      #expect(rows.map { $0["faces"] as? Int } == [1, 2, 0])
      #expect(run.standardError.contains("1 face, framed on the face"))
      #expect(run.standardError.contains("2 faces, framed on the group"))
      #expect(run.standardError.contains("no face (attention), not framed (no face: attention's"))
      // The attention square is the full short side, as without --face-size.
      let attention = try Self.crop(rows[2])
      #expect(attention.side == 320)
      // Without --face-size no row has the key.
      let plain = try runHexMask(
        [Self.pair, "--out-dir", "plain", "--size", "64", "--gravity", "face", "--json"],
        in: folder)
      #expect(try Self.rows(plain).allSatisfy { $0["framing"] == nil })
    }
  }

  @Test func aChangedShareRebuildsAndTheSameSkips() throws {
    try withTemporaryFolder { folder in
      func run(_ share: String) throws -> [String] {
        let run = try runHexMask(
          [
            Self.pair, "--out-dir", "out", "--size", "64", "--gravity", "face", "--face-size",
            share, "--json",
          ], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        return try Self.rows(run).map { "\($0["status"] ?? "")/\($0["reason"] ?? "")" }
      }
      #expect(try run("0.4") == ["written/new"])
      #expect(try run("0.4") == ["skipped/<null>"])
      #expect(try run("0.5") == ["written/changed"])
      #expect(try run("0.5") == ["skipped/<null>"])
      // Dropping it rebuilds too.
      let plain = try runHexMask(
        [Self.pair, "--out-dir", "out", "--size", "64", "--gravity", "face", "--json"],
        in: folder)
      #expect(try Self.rows(plain).map { $0["reason"] as? String } == ["changed"])
    }
  }

  @Test func noUpscaleKeepsTheSquaresPixels() throws {
    try withTemporaryFolder { folder in
      let run = try runHexMask(
        [
          Self.pair, "--out-dir", "out", "--size", "512", "--gravity", "face", "--face-size",
          "0.8", "--no-upscale", "--json",
        ], in: folder)
      #expect(run.status == 0, "\(run.standardError)")
      let row = try #require(try Self.rows(run).first)
      let side = try Self.crop(row).side
      #expect(side < 512)
      #expect(row["width"] as? Int == side)
      let enlarged = try runHexMask(
        [
          Self.pair, "--out-dir", "big", "--size", "512", "--gravity", "face", "--face-size",
          "0.8", "--json",
        ], in: folder)
      #expect(try Self.rows(enlarged).first?["width"] as? Int == 512)
    }
  }

  @Test func everySizeOfAListGetsTheSameFraming() throws {
    try withTemporaryFolder { folder in
      let run = try runHexMask(
        [
          Self.one, "out-{size}.png", "--size", "32,64,256", "--gravity", "face", "--face-size",
          "0.4",
        ], in: folder)
      #expect(run.status == 0, "\(run.standardError)")
      let batch = try runHexMask(
        [
          Self.one, "--out-dir", "o", "--size", "32,64,256", "--gravity", "face", "--face-size",
          "0.4", "--json",
        ], in: folder)
      let crops = try Self.rows(batch).map { try Self.crop($0) }
      #expect(crops.count == 3)
      #expect(Set(crops.map { "\($0)" }).count == 1, "\(crops)")
    }
  }

  /// Ten pictures of Fixtures/faces/detect whose face the crop's detector finds and whose
  /// framed square at 0.4 fits inside: against the pasted boxes of detect-truth.json, the
  /// face spans 0.3–0.5 of the side, centred across, its eyes near 40 % from the top.
  @Test func detectPicturesAgainstTheirTruth() throws {
    let names = [
      "astronaut", "face064-mirrored", "face056-gray", "face090-dark",
      "face070-retina-portrait", "face060-hubble-portrait", "face072-tilt-cw", "face090-bright",
      "exif6-face090", "face052-rocket",
    ]
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("faces/detect-truth.json")))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let pictures = try #require(root["pictures"] as? [String: [String: Any]])
    try withTemporaryFolder { folder in
      let run = try runHexMask(
        names.map { Fixtures.path("faces/detect/\($0).jpg") }
          + [
            "--out-dir", "o", "--size", "128", "--gravity", "face", "--face-size", "0.4", "--json",
          ],
        in: folder)
      let rows = try Self.rows(run)
      #expect(rows.count == names.count)
      for (name, row) in zip(names, rows) {
        let faces = try #require(pictures["\(name).jpg"]?["faces"] as? [[String: Any]])
        let box = try #require(faces.first?["box"] as? [Int])
        let crop = try Self.crop(row)
        let side = Double(crop.side)
        #expect(row["framing"] as? String == "face", "\(name)")
        let share = Double(box[2]) / side
        #expect((0.3...0.5).contains(share), "\(name): \(share)")
        let across = (Double(box[0]) + Double(box[2]) / 2 - Double(crop.x)) / side
        #expect(abs(across - 0.5) < 0.05, "\(name): \(across)")
        let eyes = (Double(box[1]) + 0.38 * Double(box[3]) - Double(crop.y)) / side
        #expect(abs(eyes - 0.4) < 0.05, "\(name): \(eyes)")
      }
    }
  }

  /// The pasted face (Fixtures/faces/framing/truth.json) spans 0.3–0.5 of the square at
  /// 0.4, centred across, its eyes near 40 % from the top.
  @Test func aRealFaceSpansTheShareAskedFor() throws {
    let data = try Data(
      contentsOf: URL(fileURLWithPath: Fixtures.path("faces/framing/truth.json")))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let pictures = try #require(root["pictures"] as? [String: [String: Any]])
    let box = try #require((pictures["one-face.jpg"]?["faces"] as? [[Int]])?.first)
    try withTemporaryFolder { folder in
      let run = try runHexMask(
        [
          Self.one, "--out-dir", "o", "--size", "256", "--gravity", "face", "--face-size", "0.4",
          "--json",
        ], in: folder)
      let crop = try Self.crop(try #require(try Self.rows(run).first))
      let side = Double(crop.side)
      let share = Double(box[2]) / side
      #expect((0.3...0.5).contains(share), "\(share)")
      let across = (Double(box[0]) + Double(box[2]) / 2 - Double(crop.x)) / side
      #expect(abs(across - 0.5) < 0.05, "\(across)")
      let eyes = (Double(box[1]) + 0.38 * Double(box[3]) - Double(crop.y)) / side
      #expect(abs(eyes - 0.4) < 0.05, "\(eyes)")
    }
  }
}
