import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

#if canImport(Glibc)
  import Glibc
#endif

/// The records that let a rerun tell finished outputs from stale ones, and the temporary
/// files an output is written through.
@Suite struct RunRecordTests {
  static let input = FileStamp(size: 1234, seconds: 1_764_590_400, nanoseconds: 5)

  @Test func aRecordLineReadsBackAsItself() {
    let record = RunRecord(
      recipe: 0x00ab_cdef_0123_4567, side: 427,
      output: FileStamp(size: 99, seconds: 1_764_590_401, nanoseconds: 123_456_789))
    #expect(record.line == "hexmask-record 2 00abcdef01234567 427 99 1764590401.123456789\n")
    #expect(RunRecord(line: record.line) == record)
  }

  @Test func aRecordOfVersion4KeepsTheOutputsIdentity() {
    var output = FileStamp(size: 99, seconds: 1_764_590_401, nanoseconds: 123_456_789)
    output.identity = FileStamp.Identity(
      file: FileIdentity(device: 2049, inode: 1311),
      changed: FileTime(seconds: 1_764_590_401, nanoseconds: 125_000_001))
    let facts = HexMask.PictureFacts(
      width: 640, height: 427, hasColorProfile: true, isTurned: false, isClean: true)
    let record = RunRecord(
      recipe: 0x00ab_cdef_0123_4567, side: 427, output: output, picture: facts)
    #expect(
      record.line
        == "hexmask-record 4 00abcdef01234567 427 99 1764590401.123456789 "
        + "1764590401.125000001 2049:1311 640x427 pc\n")
    #expect(RunRecord(line: record.line) == record)
  }

  @Test(arguments: [
    "hexmask-record 4 00abcdef01234567 427 99 1.2 1.3 2049:1311 640x427",
    "hexmask-record 4 00abcdef01234567 427 99 1.2 1.3 2049-1311 640x427 pc",
    "hexmask-record 4 00abcdef01234567 427 99 1.2 x.3 2049:1311 640x427 pc",
    "hexmask-record 4 00abcdef01234567 427 99 1.2 640x427 pc",
    "hexmask-record 9 00abcdef01234567 427 99 1.2 640x427 pc",
    "hexmask-recordx 3 00abcdef01234567 427 99 1.2 640x427 pc",
  ])
  func aDamagedOrUnknownRecordIsNoRecord(line: String) {
    #expect(RunRecord(line: line) == nil)
  }

  /// A record vouches only for the very file hexmask wrote: a file of the user's with the
  /// same size and modification time (`cp -p`, `rsync -a`, `touch -r`) is another inode, or
  /// the same inode changed later, and is not vouched for. A version 3 record (no identity)
  /// vouches for an output unchanged since the record was written, and for nothing else.
  @Test func aRecordVouchesOnlyForTheVeryFileItSawWritten() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      let item = BatchItem(
        input: folder + "/in.jpg", output: folder + "/out.png", record: folder + "/out.png.rec")
      try Data("photo".utf8).write(to: URL(fileURLWithPath: item.input))
      try Data("PICTURE".utf8).write(to: URL(fileURLWithPath: item.output))
      let options = RenderSettings()
      let recipe = Recipe(options: options)
      let input = try #require(FileStamp(path: item.input))
      let written = try #require(FileStamp(path: item.output))
      let facts = HexMask.PictureFacts(
        width: 64, height: 64, hasColorProfile: false, isTurned: false, isClean: true)
      let record = try #require(item.record)
      func recordAs(_ output: FileStamp) throws {
        try RunRecord(
          recipe: RunRecord.recipe(input: input, side: 64, options: options, picture: facts),
          side: 64, output: output, picture: facts
        ).write(to: record)
      }
      try recordAs(written)
      #expect(rerunReason(for: item, recipe: recipe, force: false) == nil)

      // `cp -p` of a user's file of the same size over the output: a new inode.
      let copy = folder + "/user.png"
      try Data("USERDAT".utf8).write(to: URL(fileURLWithPath: copy))
      let times = [
        timespec(tv_sec: Int(written.seconds), tv_nsec: Int(written.nanoseconds)),
        timespec(tv_sec: Int(written.seconds), tv_nsec: Int(written.nanoseconds)),
      ]
      #expect(utimensat(AT_FDCWD, copy, times, 0) == 0)
      #expect(rename(copy, item.output) == 0)
      let replaced = try #require(FileStamp(path: item.output))
      #expect(replaced.size == written.size && replaced.seconds == written.seconds)
      #expect(replaced.nanoseconds == written.nanoseconds)
      #expect(rerunReason(for: item, recipe: recipe, force: false) == .changed)

      // The same inode written over in place, its modification time set back.
      try recordAs(replaced)
      #expect(rerunReason(for: item, recipe: recipe, force: false) == nil)
      usleep(20_000)
      let handle = try #require(FileHandle(forWritingAtPath: item.output))
      handle.write(Data("PICTURE".utf8))
      try handle.close()
      #expect(utimensat(AT_FDCWD, item.output, times, 0) == 0)
      #expect(rerunReason(for: item, recipe: recipe, force: false) == .changed)

      // A version 3 record of the same output: it vouches while the output is unchanged
      // since the record was written, not after.
      var unidentified = try #require(FileStamp(path: item.output))
      unidentified.identity = nil
      try recordAs(unidentified)
      #expect(try String(contentsOfFile: record, encoding: .utf8).hasPrefix("hexmask-record 3 "))
      #expect(rerunReason(for: item, recipe: recipe, force: false) == nil)
      usleep(20_000)
      #expect(utimensat(AT_FDCWD, item.output, times, 0) == 0)  // `touch -r`: ctime moves on
      #expect(rerunReason(for: item, recipe: recipe, force: false) == .changed)
    }
  }

  @Test(arguments: [
    "", "hexmask-record 1 00abcdef01234567 99 1.2\n", "hexmask-record 3 00abcdef01234567 4 99 1.2",
    "hexmask-record 2 xyz 4 99 1.2", "hexmask-record 2 00abcdef01234567 4 99",
    "hexmask-record 2 00abcdef01234567 4 99 1", "hexmask-record 2 00abcdef01234567 4 -x 1.2",
    "hexmask-record 2 00abcdef01234567 0 99 1.2", "PNG\r\n\u{1A}\n",
  ])
  func anythingElseIsNoRecord(line: String) {
    #expect(RunRecord(line: line) == nil)
  }

  /// The recipe of `options` for a 256 px output in `format`.
  static func recipe(_ options: RenderSettings, format: OutputFormat = .png) -> UInt64 {
    RunRecord.recipe(input: input, side: 256, options: options, format: format)
  }

  /// Every option that can change the output changes the recipe; so do the input, the side
  /// and the version.
  @Test func theRecipeFollowsEverythingThatShapesTheOutput() {
    let base = RenderSettings()
    var variants: [String: (RenderSettings, OutputFormat)] = [:]
    func variant(
      _ name: String, _ format: OutputFormat = .png, _ change: (inout RenderSettings) -> Void
    ) {
      var options = base
      change(&options)
      variants[name] = (options, format)
    }
    variant("sides") { $0.shape.sides = 7 }
    variant("corner") { $0.shape.corner = .pixels(3) }
    variant("corner %") { $0.shape.corner = .percent(3) }
    variant("line") { $0.shape.line = .pixels(2) }
    variant("rotationDegrees") { $0.shape.rotation = 90.000001 }
    variant("borderColor") { $0.shape.borderColor = .black }
    variant("layout") { $0.shape.layout = .seed }
    variant("size") { $0.output.size = 256 }
    variant("upscale") {
      $0.output.size = 256
      $0.output.upscale = false
    }
    variant("crop") { $0.output.crop = .gravity(.north) }
    variant("focus") { $0.output.crop = .focus(x: 0.2, y: 0.3) }
    variant("faceSize") { $0.output.faceSize = 0.4 }
    variant("format", .webp) { _ in }
    variant("quality", .jpeg) { $0.choices.quality = 89 }
    variant("compression") { $0.choices.compression = .small }
    variant("colors") { $0.choices.colors = 64 }
    variant("dither") {
      $0.choices.colors = 64
      $0.choices.dither = true
    }
    variant("colors of a mask") {
      $0.choices.maskOnly = true
      $0.choices.colors = 4
    }
    variant("lossless", .webp) { $0.choices.lossless = true }
    variant("effort", .avif) { $0.choices.effort = 2 }
    variant("background") { $0.choices.background = .white }
    variant("maskOnly") { $0.choices.maskOnly = true }
    variant("autoOrient") { $0.input.autoOrient = false }
    variant("keepColorProfile") { $0.output.keepColorProfile = false }
    variant("colorSpace") { $0.output.colorSpace = .srgb }
    variant("strict") { $0.input.strict = true }
    variant("frame") { $0.input.frame = 1 }
    let recipe = Self.recipe(base)
    var colored = base
    colored.choices.colors = 64
    var dithered = colored
    dithered.choices.dither = true
    #expect(Self.recipe(colored) != Self.recipe(dithered))
    for (name, (options, format)) in variants {
      #expect(Self.recipe(options, format: format) != recipe, "\(name)")
    }
    // A new field of the library's values must appear here (or be argued to not change the
    // bytes): `output.kind` is replaced by the kind each output's format makes of the
    // choices (which are all here), `threads` never
    // changes the bytes, `maxPixels` and `maxFrames` are limits every written output was
    // within, `mark` the command always sets (outputVersion 4 covers outputs made
    // before it), and `readsFewFrames` is set by a render for itself, never by a caller.
    let fields = Set(
      [
        Mirror(reflecting: base.shape), Mirror(reflecting: base.output),
        Mirror(reflecting: base.input), Mirror(reflecting: base.choices),
      ]
      .flatMap { $0.children.compactMap(\.label) })
    let covered = Set(variants.keys).union([
      "rotation", "threads", "maxPixels", "maxFrames", "memoryBudget", "mark", "kind",
      "readsFewFrames",
    ])
    #expect(
      fields.subtracting(covered).isEmpty, "not in the recipe test: \(fields.subtracting(covered))")

    // How much memory decoding may take decides when a render runs, never its bytes.
    var memory = base
    memory.memoryLimit = 1 << 20
    memory.input.memoryBudget = HexMask.MemoryBudget(limit: 1 << 20)
    #expect(Self.recipe(memory) == Self.recipe(base))
    var touched = Self.input
    touched.nanoseconds += 1
    #expect(RunRecord.recipe(input: touched, side: 256, options: base) != recipe)
    #expect(RunRecord.recipe(input: Self.input, side: 255, options: base) != recipe)
    #expect(
      RunRecord.recipe(input: Self.input, side: 256, options: base, version: outputVersion + 1)
        != recipe)
  }

  /// AV1 encoders make other bytes from version to version, so an AVIF's recipe names
  /// libheif's and its encoder's versions; AVIF's quality and lossless count as WebP's do.
  /// A palette PNG deflates at one level for no `--compression`, `default` and `small`
  /// (9), so those three make the same bytes and the same recipe; a level that makes other
  /// bytes makes another recipe, and 9 asked for by number is the same as the default.
  @Test func aPaletteRecipeFollowsTheLevelItDeflatesAt() {
    func palette(_ compression: HexMask.PNGCompression?) -> UInt64 {
      var settings = RenderSettings()
      settings.choices.colors = 16
      settings.choices.compression = compression
      return Self.recipe(settings)
    }
    #expect(HexMask.PNGCompression.default.paletteLevel == 9)
    #expect(HexMask.PNGCompression.small.paletteLevel == 9)
    #expect(HexMask.PNGCompression.fast.paletteLevel == 1)
    #expect(HexMask.PNGCompression.level(4).paletteLevel == 4)
    #expect(palette(nil) == palette(.default))
    #expect(palette(nil) == palette(.small))
    #expect(palette(nil) == palette(.level(9)))
    #expect(palette(nil) != palette(.fast))
    #expect(palette(nil) != palette(.level(5)))
    // 2 and 6 are `default`'s and `small`'s own numbers.
    #expect(palette(.level(2)) == palette(nil) && palette(.level(6)) == palette(nil))
  }

  /// A JPEG XL's recipe names libjxl, its quality and the effort libjxl runs at: 0 and 1
  /// make the same bytes, so they are one recipe, and 7 is the default's.
  @Test func aJPEGXLRecipeNamesLibjxlAndItsEffort() {
    func recipe(_ effort: Int?, lossless: Bool = false) -> String {
      var settings = RenderSettings()
      settings.choices.effort = effort
      settings.choices.lossless = lossless
      return effectiveRecipe(of: settings, side: 64, format: .jxl)
    }
    #expect(recipe(nil).contains("\nencoder libjxl \(jxlVersion)\n"))
    #expect(recipe(nil).contains("\neffort 7\n") && recipe(nil) == recipe(7))
    #expect(recipe(0) == recipe(1) && recipe(1) != recipe(2))
    #expect(recipe(nil).contains("\nquality 90\n"))
    #expect(recipe(nil, lossless: true).contains("\nquality lossless\n"))
  }

  @Test func anAVIFRecipeNamesTheEncoder() throws {
    let version = try #require(AVIFWriter.encoderVersion)
    let text = effectiveRecipe(of: RenderSettings(), side: 64, format: .avif)
    #expect(text.contains("\nencoder \(version)\n"))
    #expect(text.contains("\nquality 90\n"))
    // The effort changes the bytes, so it is in the recipe, with its default when not given.
    #expect(text.contains("\neffort \(HexMask.Output.defaultEffort(side: 64))\n"))
    // The default depends on the side, and the recipe names the one used.
    let large = effectiveRecipe(of: RenderSettings(), side: 2000, format: .avif)
    #expect(large.contains("\neffort \(HexMask.Output.defaultEffort(side: 2000))\n"))
    #expect(HexMask.Output.defaultEffort(side: 2000) != HexMask.Output.defaultEffort(side: 64))
    var effort = RenderSettings()
    effort.choices.effort = 2
    #expect(effectiveRecipe(of: effort, side: 64, format: .avif).contains("\neffort 2\n"))
    #expect(!effectiveRecipe(of: effort, side: 64, format: .webp).contains("effort"))
    #expect(Self.recipe(effort, format: .avif) != Self.recipe(RenderSettings(), format: .avif))
    var lossless = RenderSettings()
    lossless.choices.lossless = true
    #expect(
      effectiveRecipe(of: lossless, side: 64, format: .avif).contains("\nquality lossless\n"))
    #expect(!effectiveRecipe(of: RenderSettings(), side: 64, format: .webp).contains("encoder"))
    #expect(
      Self.recipe(RenderSettings(), format: .avif) != Self.recipe(RenderSettings(), format: .webp))
  }

  /// Options that change no byte of this output leave its recipe alone.
  @Test func optionsThatChangeNoByteKeepTheRecipe() {
    let base = RenderSettings()
    var same: [String: (RenderSettings, OutputFormat)] = [:]
    func variant(
      _ name: String, _ format: OutputFormat = .png, _ change: (inout RenderSettings) -> Void
    ) {
      var options = base
      change(&options)
      same[name] = (options, format)
    }
    variant("threads") { $0.output.threads = 8 }
    variant("maxPixels") { $0.input.maxPixels = 1000 }
    variant("quality on PNG") { $0.choices.quality = 50 }
    variant("lossless on PNG") { $0.choices.lossless = true }
    variant("effort on PNG") { $0.choices.effort = 2 }
    variant("no-upscale without size") { $0.output.upscale = false }
    variant("focus on the centre") { $0.output.crop = .focus(x: 0.5, y: 0.5) }
    variant("rotation 450") { $0.shape.rotation = 450 }
    variant("rotation -270") { $0.shape.rotation = -270 }
    variant("rotation -630") { $0.shape.rotation = -630 }
    variant("the defaults given") {
      $0.shape.corner = .pixels(10)
      $0.shape.line = .pixels(5)
      $0.shape.rotation = 90
      $0.shape.sides = 6
    }
    variant("output.kind, replaced per output") { $0.output.kind = .init(.jpeg) }
    for (name, (options, format)) in same {
      #expect(Self.recipe(options, format: format) == Self.recipe(base), "\(name)")
    }
    // −0° is 0°, whose recipe differs from the default 90°'s but not from 0°'s.
    var zero = base
    zero.shape.rotation = 0
    var negativeZero = base
    negativeZero.shape.rotation = -0.0
    #expect(Self.recipe(negativeZero) == Self.recipe(zero))
    var noLine = base
    noLine.shape.line = .pixels(0)
    var blackNoLine = noLine
    blackNoLine.shape.borderColor = .black
    #expect(Self.recipe(blackNoLine) == Self.recipe(noLine))
    var jpeg = base
    jpeg.choices.compression = .small
    jpeg.choices.lossless = true
    #expect(Self.recipe(jpeg, format: .jpeg) == Self.recipe(base, format: .jpeg))
    jpeg.choices.background = .white
    #expect(Self.recipe(jpeg, format: .jpeg) == Self.recipe(base, format: .jpeg))
    var mask = base
    mask.choices.maskOnly = true
    var maskWithPictureOptions = mask
    maskWithPictureOptions.choices.background = .black
    maskWithPictureOptions.output.crop = .gravity(.north)
    maskWithPictureOptions.shape.borderColor = .black
    #expect(Self.recipe(maskWithPictureOptions) == Self.recipe(mask))
    // On a canvas too small for them the defaults shrink; explicit 10 and 5 do not.
    var explicit = base
    explicit.shape.corner = .pixels(10)
    explicit.shape.line = .pixels(5)
    #expect(
      RunRecord.recipe(input: Self.input, side: 32, options: explicit)
        != RunRecord.recipe(input: Self.input, side: 32, options: base))
    // A real change of angle is still a change.
    var turned = base
    turned.shape.rotation = 91
    #expect(Self.recipe(turned) != Self.recipe(base))
  }

  /// Each output of a size list is recorded as if made alone: adding a size or reordering
  /// the list leaves the other outputs' records valid; changing its own size does not.
  @Test func aSizeListOutputIsRecordedAtItsOwnSize() {
    var list = RenderSettings()
    list.sizes = [64, 256]
    var longer = list
    longer.sizes = [256, 32, 64]
    var alone = RenderSettings()
    alone.output.size = 64
    let recipe = { (settings: RenderSettings, size: Int?) in
      Self.recipe(settings.forOutput(size: size))
    }
    #expect(recipe(list, 64) == recipe(longer, 64))
    #expect(recipe(list, 64) == Self.recipe(alone))
    #expect(recipe(list, 64) != recipe(list, 256))
  }

  @Test func aRecordIsWrittenAtomicallyIntoFoldersItMakes() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      let path = folder + "/.hexmask/a/b/c.png.rec"
      let record = RunRecord(recipe: 42, side: 64, output: Self.input)
      try record.write(to: path)
      #expect(RunRecord(contentsOf: path) == record)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder + "/.hexmask/a/b") == [
          "c.png.rec"
        ])
    }
  }

  @Test func theRerunReasonComparesInputOptionsAndOutput() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      let item = BatchItem(
        input: folder + "/in.jpg", output: folder + "/out.png", record: folder + "/out.png.rec")
      try Data("photo".utf8).write(to: URL(fileURLWithPath: item.input))
      let options = RenderSettings()
      #expect(rerunReason(for: item, recipe: Recipe(options: options), force: false) == .new)

      try Data("picture".utf8).write(to: URL(fileURLWithPath: item.output))
      // An output without a record: nothing vouches for it.
      #expect(rerunReason(for: item, recipe: Recipe(options: options), force: false) == .changed)

      let input = try #require(FileStamp(path: item.input))
      let output = try #require(FileStamp(path: item.output))
      let record = try #require(item.record)
      try RunRecord(
        recipe: RunRecord.recipe(input: input, side: 64, options: options), side: 64,
        output: output
      ).write(to: record)
      #expect(rerunReason(for: item, recipe: Recipe(options: options), force: false) == nil)
      #expect(rerunReason(for: item, recipe: Recipe(options: options), force: true) == .forced)
      var other = options
      other.shape.sides = 3
      #expect(rerunReason(for: item, recipe: Recipe(options: other), force: false) == .changed)

      try Data("another picture".utf8).write(to: URL(fileURLWithPath: item.output))
      #expect(rerunReason(for: item, recipe: Recipe(options: options), force: false) == .changed)
    }
  }

  @Test(arguments: [
    (".o.png.hexmask-AbC123", true), (".a.b.png.hexmask-000000", true),
    ("o.png.hexmask-AbC123", false), (".o.png.hexmask-AbC12", false),
    (".o.png.hexmask-AbC12-", false), (".hexmask-AbC123", false), (".hexmask", false),
  ])
  func temporaryNamesAreRecognised(name: String, isTemporary: Bool) {
    #expect(isTemporaryName(name) == isTemporary)
  }

  @Test func leftoversOlderThanTheRunAreRemovedOthersStay() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      let old = folder + "/.a.png.hexmask-Old123"
      let fresh = folder + "/.b.png.hexmask-New123"
      let other = folder + "/.c.png.other-Old123"
      for path in [old, fresh, other] {
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
      }
      let hourAgo = Date().addingTimeInterval(-3600)
      for path in [old, other] {
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: path)
      }
      let now = Int(Date().timeIntervalSince1970)
      #expect(removeLeftoverTemporaries(in: folder, olderThan: now - 60) == 1)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
          ".b.png.hexmask-New123", ".c.png.other-Old123",
        ])
    }
  }

  @Test func spellingsOfOneFileHaveOneKey() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      try FileManager.default.createDirectory(
        atPath: folder + "/sub", withIntermediateDirectories: true)
      let file = folder + "/a.png"
      #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
      #expect(link(file, folder + "/hard.png") == 0)
      #expect(symlink("a.png", folder + "/soft.png") == 0)
      let key = FileKey(output: file)
      for spelling in ["/./a.png", "/sub/../a.png", "/hard.png", "/soft.png"] {
        #expect(FileKey(output: folder + spelling) == key, "\(spelling)")
      }
      #expect(FileKey(output: folder + "/new.png") == FileKey(output: folder + "/sub/../new.png"))
      #expect(FileKey(output: folder + "/new.png") != FileKey(output: folder + "/sub/new.png"))
      #expect(symlink("made-later.png", folder + "/dangling.png") == 0)
      #expect(
        FileKey(output: folder + "/dangling.png") == FileKey(output: folder + "/made-later.png"))
    }
  }
}
