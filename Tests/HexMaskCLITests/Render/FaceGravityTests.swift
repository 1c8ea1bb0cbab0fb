import HexMask
import Testing

@testable import HexMaskCLI

/// `--gravity face` and `--gravity attention` on the command line: parsing, when the run
/// reads the face model, what it passes on, and how rows and `--verbose` lines show the crop.
@Suite struct FaceGravityTests {
  @Test(arguments: [
    ("face", CropChoice.gravity(.center), true), ("FACE", .gravity(.center), true),
    ("attention", .attention, false), ("Attention", .attention, false),
    ("north", .gravity(.north), false),
  ])
  func gravityWords(word: String, crop: CropChoice, faces: Bool) throws {
    let job = try Job(parsing: ["in.jpg", "out.png", "--gravity", word])
    #expect(job.options.crop == crop)
    #expect(job.faceCrop == faces)
    #expect(job.needsFaceModel == faces)
  }

  @Test func theLastGravityWins() throws {
    let north = try Job(parsing: ["a.jpg", "b.png", "--gravity", "face", "--gravity", "north"])
    #expect(!north.faceCrop && north.options.crop == .gravity(.north))
    let face = try Job(parsing: ["a.jpg", "b.png", "--gravity", "attention", "--gravity", "face"])
    #expect(face.faceCrop && face.options.crop == .gravity(.center))
  }

  @Test(arguments: ["face", "attention"])
  func gravityWithFocusIsStillAUsageError(word: String) {
    #expect(
      throws: CommandError.contradiction(.gravityAndFocus)
    ) {
      try Job(parsing: ["in.jpg", "out.png", "--gravity", word, "--focus", "0.5,0.5"])
    }
  }

  @Test func aWordThatIsNoGravityListsThemAll() {
    let words = GravityWord.allCases.map(\.rawValue)
    #expect(words.suffix(2) == ["face", "attention"])
    #expect(words.count == HexMask.Gravity.allCases.count + 2)
    #expect(throws: CommandError.invalidValue("faces", option: "--gravity", kind: .choice(words))) {
      try Job(parsing: ["in.jpg", "out.png", "--gravity", "faces"])
    }
  }

  /// A batch, a dry run and one file need the model; a mask, help and the SVG alone do not.
  @Test(arguments: [
    (["a.jpg", "b.png"], true), (["a.jpg", "--out-dir", "o"], true),
    (["a.jpg", "--out-dir", "o", "--dry-run"], true), (["--mask-only", "a.jpg", "m.png"], false),
    (["--mask-only", "--size", "64", "m.png"], false), (["--svg", "s.svg", "--size", "64"], false),
    (["--help"], false), (["a.jpg", "b.png", "--layout", "seed"], false),
    (["a.jpg", "--out-dir", "o", "--layout", "seed"], false),
  ])
  func onlyRunsThatRenderAPictureNeedTheModel(arguments: [String], needs: Bool) throws {
    #expect(try Job(parsing: arguments + ["--gravity", "face"]).needsFaceModel == needs)
  }

  /// Runs `arguments` with a fake renderer and a fake model loader that counts its calls.
  func run(_ arguments: [String], model: Result<HexMask.FaceModel, CommandError>) -> (
    status: Int32, loads: Int, crops: [CropChoice], standardError: String
  ) {
    var loads = 0
    var crops: [CropChoice] = []
    var standardError = ""
    let status = HexMaskCLI.run(
      arguments,
      render: { _, outputs, settings throws(FileFailure) in
        crops.append(settings.output.crop)
        return outputs.map { _ in fakeRendered(side: 1) }
      },
      renderBatch: { job throws(CommandError) in crops.append(job.options.output.crop) },
      faceModel: { () throws(CommandError) in
        loads += 1
        return LoadedFaceModel(model: try model.get(), files: [])
      },
      standardOutput: { _ in }, standardError: { standardError += $0 })
    return (status, loads, crops, standardError)
  }

  @Test func theRunReadsTheModelOnceAndRendersWithIt() throws {
    let model = try tinyModel(mark: 7)
    for arguments in [["in.jpg", "out.png"], ["in.jpg", "--out-dir", "o", "-j", "4"]] {
      let outcome = run(arguments + ["--gravity", "face"], model: .success(model))
      #expect(outcome.status == 0, "\(outcome.standardError)")
      #expect(outcome.loads == 1)
      #expect(outcome.crops == [.faces(model)])
    }
  }

  @Test(arguments: [
    ["in.jpg", "out.png", "--gravity", "attention"], ["in.jpg", "out.png", "--gravity", "north"],
    ["in.jpg", "out.png"], ["--mask-only", "in.jpg", "m.png", "--gravity", "face"],
    ["--help", "--gravity", "face"], ["--svg", "/dev/null", "--size", "8", "--gravity", "face"],
    ["in.jpg", "out.png", "--gravity", "face", "--layout", "seed"],
  ])
  func otherRunsNeverLookForTheModel(arguments: [String]) {
    let outcome = run(arguments, model: .failure(.noFaceModel))
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(outcome.loads == 0)
  }

  @Test func noModelStopsTheRunWithOneLineAndStatus2() {
    let outcome = run(["in.jpg", "out.png", "--gravity", "face"], model: .failure(.noFaceModel))
    #expect(outcome.status == 2)
    #expect(outcome.crops.isEmpty)
    #expect(outcome.standardError.hasPrefix("hexmask: --gravity face needs OpenCV's face cascades"))
    #expect(outcome.standardError.split(separator: "\n").count == 1)
  }

  /// Two models give two recipes, so a rerun with another model rebuilds.
  @Test func theModelIsPartOfTheRecipe() throws {
    func recipe(_ crop: CropChoice) -> String {
      var settings = RenderSettings()
      settings.output.crop = crop
      return effectiveRecipe(of: settings, side: 64, format: .png)
    }
    let (a, b) = (try tinyModel(mark: 1), try tinyModel(mark: 2))
    #expect(recipe(.faces(a)) == recipe(.faces(try tinyModel(mark: 1))))
    #expect(recipe(.faces(a)) != recipe(.faces(b)))
    #expect(recipe(.faces(a)).contains("crop gravity face \(a.identity)\n"))
    #expect(recipe(.attention).contains("crop gravity attention\n"))
  }

  /// The seed layout always takes the top-left square: its recipe says so whatever the
  /// crop, so switching `--gravity` or `--focus` with it rebuilds nothing.
  @Test func theSeedRecipeIsTheTopLeftSquareWhateverTheCrop() throws {
    func recipe(_ crop: CropChoice, layout: Layout = .seed) -> String {
      var settings = RenderSettings()
      settings.shape.layout = layout
      settings.output.crop = crop
      return effectiveRecipe(of: settings, side: 64, format: .png)
    }
    let crops: [CropChoice] = [
      .gravity(.center), .gravity(.east), .focus(x: 0.9, y: 0.1), .attention,
      .faces(try tinyModel(mark: 1)),
    ]
    for crop in crops {
      #expect(recipe(crop) == recipe(.gravity(.northwest)), "\(crop)")
    }
    #expect(recipe(.gravity(.center)).contains("crop gravity northwest\n"))
    // The centred layout still tells them apart.
    #expect(
      recipe(.gravity(.east), layout: .centered) != recipe(.gravity(.west), layout: .centered))
  }

  @Test func jsonRowsEndWithTheCropAndTheFacesFound() {
    let item = BatchItem(input: "p/a.jpg", output: "o/a.png")
    var result = BatchResult(
      item: item, status: .written,
      report: RenderedFile(
        side: 64, warnings: [], stamp: nil, crop: HexMask.Crop(x: 106, y: 0, side: 427),
        faces: [HexMask.Face(x: 200, y: 40, width: 60, height: 60)]),
      milliseconds: 5)
    result.reason = .new
    #expect(
      jsonLine(result, status: "written")
        == #"{"input":"p/a.jpg","output":"o/a.png","status":"written","reason":"new","#
        + #""error":null,"width":64,"height":64,"milliseconds":5,"warnings":[],"#
        + #""crop":{"x":106,"y":0,"side":427},"faces":1}"# + "\n")
    result.report?.faces = nil
    #expect(
      jsonLine(result, status: "written").hasSuffix(#""crop":{"x":106,"y":0,"side":427}}"# + "\n"))
    let skipped = BatchResult(item: item, status: .skipped)
    #expect(jsonLine(skipped, status: "skipped").hasSuffix(#""warnings":[],"crop":null}"# + "\n"))
  }

  @Test func verboseWordsForTheCropAndTheFaces() {
    #expect(cropWords(HexMask.Crop(x: 106, y: 0, side: 427)) == "crop 427x427+106+0")
    let face = HexMask.Face(x: 1, y: 2, width: 3, height: 3)
    let pet = HexMask.Face(x: 1, y: 2, width: 3, height: 3, isPet: true)
    #expect(faceWords([]) == "no face (attention)")
    #expect(faceWords([face]) == "1 face")
    #expect(faceWords([face, face]) == "2 faces")
    #expect(faceWords([pet]) == "1 pet face")
  }

  /// `--help`, the manual page and the completions offer the new words and say where the
  /// model comes from.
  @Test func theGeneratedDocumentsKnowTheWords() {
    let help = helpText().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(help.contains("face puts the faces in the shape"))
    #expect(help.contains("HEXMASK_FACE_MODEL"))
    let page = manPage()
    #expect(page.contains(".SH ENVIRONMENT\n.TP\n\\fBHEXMASK_FACE_MODEL\\fR\n"))
    #expect(page.contains("\\fI/usr/share/opencv4/haarcascades\\fR"))
    for shell in Shell.allCases {
      #expect(completionScript(for: shell).contains("southwest face attention"), "\(shell)")
    }
  }
}
