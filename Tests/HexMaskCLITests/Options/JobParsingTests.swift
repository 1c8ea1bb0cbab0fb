import HexMask
import Testing

@testable import HexMaskCLI

@Suite struct JobParsingTests {
  @Test func defaultsEqualTheSeed() throws {
    let job = try Job(parsing: ["in.jpg", "out.png"])
    #expect(job.action == .render)
    #expect(job.input == "in.jpg")
    #expect(job.output == "out.png")
    var seed = RenderSettings()
    seed.output.threads = availableCores
    #expect(job.options == seed)
    #expect(job.options.sides == 6)
    #expect(job.options.cornerRadius == nil)
    #expect(job.options.lineWidth == nil)
    #expect(job.options.rotationDegrees == 90)
    #expect(job.options.borderColor == .white)
    #expect(job.options.layout == .centered)
  }

  /// Each option with its value, and what it must set.
  static let settings: [([String], @Sendable (RenderSettings) -> Bool)] = [
    (["--sides", "8"], { $0.sides == 8 }),
    (["--sides", "3"], { $0.sides == 3 }),
    (["--sides", "64"], { $0.sides == 64 }),
    (["--corner", "12.5"], { $0.cornerRadius == 12.5 }),
    (["--corner", "0"], { $0.cornerRadius == 0 }),
    (["--line", "3"], { $0.lineWidth == 3 }),
    (["--line", "0"], { $0.lineWidth == 0 }),
    (["--corner", "8%"], { $0.corner == .percent(8) }),
    (["--line", "1.5%"], { $0.line == .percent(1.5) }),
    (["--rotation", "-30"], { $0.rotationDegrees == -30 }),
    (["--rotation", "1e2"], { $0.rotationDegrees == 100 }),
    (
      ["--border-color", "#1e90ff"], { $0.borderColor == RGBAColor(red: 30, green: 144, blue: 255) }
    ),
    (["--border-color", "Black"], { $0.borderColor == .black }),
    (["--layout", "seed"], { $0.layout == .seed }),
    (["--layout", "centered"], { $0.layout == .centered }),
  ]

  @Test(arguments: settings)
  func optionWithSeparateValue(
    arguments: [String], check: @Sendable (RenderSettings) -> Bool
  ) throws {
    let job = try Job(parsing: ["in.jpg", "out.png"] + arguments)
    #expect(check(job.options))
  }

  @Test(arguments: settings)
  func optionWithEqualsValue(
    arguments: [String], check: @Sendable (RenderSettings) -> Bool
  ) throws {
    let job = try Job(parsing: [arguments[0] + "=" + arguments[1], "in.jpg", "out.png"])
    #expect(check(job.options))
  }

  @Test func optionsAndFilesMix() throws {
    let job = try Job(parsing: ["--sides", "5", "in.jpg", "--line=2", "out.png", "--corner", "3"])
    #expect(job.input == "in.jpg" && job.output == "out.png")
    #expect(job.options.sides == 5 && job.options.lineWidth == 2 && job.options.cornerRadius == 3)
  }

  @Test func lastRepeatedOptionWins() throws {
    let job = try Job(parsing: [
      "--sides", "5", "--sides=7", "a", "b", "--border-color", "red",
      "--border-color", "blue",
    ])
    #expect(job.options.sides == 7)
    #expect(job.options.borderColor == RGBAColor(red: 0, green: 0, blue: 255))
  }

  @Test func dashIsAFile() throws {
    let job = try Job(parsing: ["-", "-"])
    #expect(job.input == "-" && job.output == "-")
  }

  @Test func doubleDashEndsOptions() throws {
    let job = try Job(parsing: ["--sides", "4", "--", "--help", "-x.png"])
    #expect(job.action == .render)
    #expect(job.input == "--help" && job.output == "-x.png")
    #expect(job.options.sides == 4)
  }

  @Test func valueMayStartWithDash() throws {
    let job = try Job(parsing: ["--rotation", "-90", "a", "b"])
    #expect(job.options.rotationDegrees == -90)
  }

  @Test func equalsValueMayContainEquals() throws {
    #expect(throws: CommandError.invalidValue("=3", option: "--sides", kind: .wholeNumber(3...64)))
    {
      try Job(parsing: ["--sides==3", "a", "b"])
    }
  }

  @Test(arguments: [
    (["--help"], Job.Action.showHelp), (["-h"], .showHelp),
    (["--version"], .showVersion), (["a", "--help", "b", "c"], .showHelp),
  ])
  func helpAndVersionNeedNoFiles(arguments: [String], action: Job.Action) throws {
    #expect(try Job(parsing: arguments).action == action)
  }

  @Test(arguments: [
    (["--cornr", "5", "a", "b"], CommandError.unknownOption("--cornr", suggestions: ["--corner"])),
    (["--cornr=5", "a", "b"], .unknownOption("--cornr", suggestions: ["--corner"])),
    (["--colour", "red", "a", "b"], .unknownOption("--colour", suggestions: [])),
    (
      ["--color", "red", "a", "b"],
      .unknownOption("--color", suggestions: ["--colors", "--colorspace", "--border-color"])
    ),
    (["-x", "a", "b"], .unknownOption("-x", suggestions: [])),
    (["a", "b", "--sides"], .missingValue(option: "--sides")),
    (["a", "b", "--border-color"], .missingValue(option: "--border-color")),
    (["--help=yes"], .unexpectedValue(option: "--help")),
    (["--version="], .unexpectedValue(option: "--version")),
    ([], .missingFiles(count: 0)),
    (["a"], .missingFiles(count: 1)),
    (["--", "a"], .missingFiles(count: 1)),
    (["a", "b", "x"], .tooManyArguments(extra: "x")),
    (["a", "b", "--", "x", "y"], .tooManyArguments(extra: "x")),
  ])
  func usageErrors(arguments: [String], error: CommandError) {
    #expect(throws: error) { try Job(parsing: arguments) }
  }

  @Test(arguments: ["2", "65", "3.5", "abc", "", "-6", "0x6", " 6"])
  func badSides(text: String) {
    #expect(throws: CommandError.invalidValue(text, option: "--sides", kind: .wholeNumber(3...64)))
    {
      try Job(parsing: ["--sides", text, "a", "b"])
    }
  }

  @Test(
    arguments: ["--corner", "--line"],
    [
      "-1", "nan", "inf", "-inf", "NaN", "1e999", "abc", "", "0x10", "5px", "%", "-3%", "nan%",
      "5%%",
    ])
  func badPixels(option: String, text: String) {
    #expect(throws: CommandError.invalidValue(text, option: option, kind: .length)) {
      try Job(parsing: ["\(option)=\(text)", "a", "b"])
    }
  }

  @Test(arguments: ["nan", "inf", "ninety", ""])
  func badRotation(text: String) {
    #expect(throws: CommandError.invalidValue(text, option: "--rotation", kind: .degrees)) {
      try Job(parsing: ["--rotation", text, "a", "b"])
    }
  }

  @Test(arguments: ["blurple", "#ggg", "#f008", "", "#12345"])
  func badBorderColor(text: String) {
    #expect(throws: CommandError.invalidValue(text, option: "--border-color", kind: .color)) {
      try Job(parsing: ["--border-color", text, "a", "b"])
    }
  }

  @Test(arguments: ["centre", "center", ""])
  func badLayout(text: String) {
    let kind = ValueKind.choice(["centered", "seed"])
    #expect(throws: CommandError.invalidValue(text, option: "--layout", kind: kind)) {
      try Job(parsing: ["--layout", text, "a", "b"])
    }
  }

  /// `--size` draws N × N pixels, so N × N may not exceed `--max-pixels`: checked while the
  /// command line is read, in whatever order the two come, for every action that draws.
  @Test(arguments: [
    ["in.jpg", "out.png", "--size", "16384"],
    ["--size", "65500", "--mask-only", "mask.png"],
    ["photos", "--out-dir", "out", "--size", "65500"],
    ["--max-pixels", "4095", "in.jpg", "out.png", "--size", "64"],
  ])
  func sizeBeyondMaxPixelsIsAUsageError(arguments: [String]) throws {
    let at = try #require(arguments.firstIndex(of: "--size"))
    let side = try #require(Int(arguments[at + 1]))
    var smaller = arguments
    smaller[at + 1] = "1"
    let job = try? Job(parsing: smaller)
    #expect(job != nil, "only the size makes these wrong")
    let limit = job?.options.maxPixels ?? 0
    let error = CommandError.tooManyOutputPixels(side: side, maxPixels: limit)
    #expect(throws: error) { try Job(parsing: arguments) }
    #expect(error.exitStatus == 2)
    #expect(
      error.message
        == "--size \(side) asks for \(side)×\(side) = \(side * side) pixels, more than --max-pixels \(limit)"
    )
  }

  @Test func sizeListsKeepTheirOrderAndCountEachSizeOnce() throws {
    let job = try Job(parsing: ["in.jpg", "a-{size}.png", "--size", "256,64,256,128"])
    #expect(job.options.sizes == [256, 64, 128])
    #expect(job.outputFiles.map(\.path) == ["a-256.png", "a-64.png", "a-128.png"])
    #expect(job.outputFiles.map(\.size) == [256, 64, 128])
    // One size may still name its file with {size}.
    #expect(
      try Job(parsing: ["in.jpg", "a-{size}.png", "--size", "9"]).outputFiles.map(\.path) == [
        "a-9.png"
      ])
    // The largest size is the one --max-pixels bounds.
    #expect(throws: CommandError.tooManyOutputPixels(side: 100, maxPixels: 5000)) {
      try Job(parsing: ["in.jpg", "a-{size}.png", "--size", "10,100", "--max-pixels", "5000"])
    }
  }

  @Test(arguments: ["64,", ",64", "64,,128", "64;128", "64,0", "64,65501", "64, 128", ""])
  func malformedSizeListsAreRefused(text: String) {
    #expect(throws: CommandError.invalidValue(text, option: "--size", kind: .sizes(1...65500))) {
      try Job(parsing: ["in.jpg", "a-{size}.png", "--size", text])
    }
  }

  @Test func sizeWithinMaxPixelsOrForTheSVGAloneIsAccepted() throws {
    #expect(try Job(parsing: ["in.jpg", "out.png", "--size", "16383"]).options.size == 16383)
    #expect(
      try Job(parsing: ["a", "b", "--size", "64", "--max-pixels", "4096"]).options.size == 64)
    let svg = try Job(parsing: ["--svg", "s.svg", "--size", "65500"])
    #expect(svg.action == .writeShape)
  }

  @Test func firstErrorIsReported() {
    #expect(throws: CommandError.invalidValue("1", option: "--sides", kind: .wholeNumber(3...64))) {
      try Job(parsing: ["--sides", "1", "--cornr", "2"])
    }
  }
}
