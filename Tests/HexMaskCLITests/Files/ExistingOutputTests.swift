import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

/// The mark that tells hexmask's own outputs from everything else,
/// found by walking each container; the end-to-end rows are in HostileFileRows.
@Suite(.tags(.endToEnd)) struct ExistingOutputTests {
  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A PNG chunk (the CRC is not checked here, so zeros do).
  static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let length = UInt32(body.count)
    return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + Array(type.utf8)
      + body + [0, 0, 0, 0]
  }

  static let ihdr = chunk("IHDR", [0, 0, 2, 0, 0, 0, 2, 0, 8, 2, 0, 0, 0])

  /// Every output format, written by the library with and without the mark.
  static let outputs: [(name: String, output: HexMask.Output)] = {
    var list: [(String, HexMask.Output)] = []
    for format in OutputFormat.allCases {
      var output = HexMask.Output()
      output.kind = .init(format)
      output.size = 24
      list.append(("\(format)", output))
    }
    var palette = HexMask.Output()
    palette.kind = .png(.init(palette: .init(colors: 16)))
    palette.size = 24
    list.append(("palette", palette))
    var lossless = HexMask.Output()
    lossless.kind = .webp(.init(quality: .lossless))
    lossless.size = 24
    list.append(("lossless webp", lossless))
    return list
  }()

  @Test(arguments: outputs.map(\.name))
  func theLibraryMarksWhatItWritesUnlessTold(name: String) throws {
    var output = try #require(Self.outputs.first { $0.name == name }).output
    let photo = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/rocket.jpg"))))
    let marked = try HexMask.render(photo, output: output).bytes
    #expect(ExistingFile(bytes: marked).carriesMark)
    #expect(try HexMask.render(photo, output: output).bytes == marked, "deterministic")
    output.mark = false
    let plain = try HexMask.render(photo, output: output).bytes
    #expect(!ExistingFile(bytes: plain).carriesMark)
    // The mark is small, and the only difference: the pictures decode the same. A JPEG XL
    // needs the container to hold it: its signature and `ftyp` boxes (32 bytes), and a
    // 12-byte `jxlp` header for each 64 KiB of codestream.
    let container = name == "jxl" ? 32 + 12 * (plain.count / 65536 + 1) : 0
    #expect(marked.count - plain.count <= 40 + container && marked.count > plain.count)
    var back = HexMask.Output()
    back.kind = .init(.png)
    back.mark = false
    #expect(try HexMask.render(marked, output: back) == HexMask.render(plain, output: back))
  }

  /// An APNG keeps the mark in a `tEXt` chunk before its frames, an animated WebP in a
  /// chunk libwebpmux puts after them: both are found, and neither without the mark.
  @Test(arguments: ["png", "webp", "lossless webp"])
  func animationsAreMarkedUnlessTold(name: String) throws {
    var output = try #require(Self.outputs.first { $0.name == name }).output
    let animation = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: Fixtures.path("animation/mixed-disposal.gif"))))
    let marked = try HexMask.render(animation, output: output)
    #expect(marked.animation != nil, "the output moves")
    #expect(ExistingFile(bytes: marked.bytes).carriesMark)
    output.mark = false
    let plain = try HexMask.render(animation, output: output)
    #expect(plain.animation == marked.animation)
    #expect(!ExistingFile(bytes: plain.bytes).carriesMark)
  }

  @Test func theMaskAndTheSVGAreMarked() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      var mask = HexMask.Output()
      mask.kind = .mask(.init())
      for mark in [true, false] {
        mask.mark = mark
        let path = folder + "/m\(mark).png"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try HexMask.renderMask(side: 16, to: descriptor, output: mask)
        close(descriptor)
        #expect(try #require(ExistingFile(path: path)).carriesMark == mark)
      }
    }
    #expect(ExistingFile(bytes: Array(try HexMask.svg(side: 16).utf8)).carriesMark)
    #expect(!ExistingFile(bytes: Array(try HexMask.svg(side: 16, mark: false).utf8)).carriesMark)
  }

  /// The mark is where the format keeps it, not the word anywhere.
  @Test func theWordAloneIsNoMark() {
    let text = Array("Software\0hexmask".utf8)
    let inIDAT = Self.pngSignature + Self.ihdr + Self.chunk("IDAT", text)
    #expect(!ExistingFile(bytes: inIDAT).carriesMark)
    let otherKeyword =
      Self.pngSignature + Self.ihdr + Self.chunk("tEXt", Array("Comment\0hexmask".utf8))
    #expect(!ExistingFile(bytes: otherKeyword).carriesMark)
    let marked = Self.pngSignature + Self.ihdr + Self.chunk("tEXt", text)
    #expect(ExistingFile(bytes: marked).carriesMark)
    #expect(
      !ExistingFile(bytes: Array("hexmask <!-- hexmask --> free hexmask HXMK".utf8)).carriesMark)
    // A JPEG comment that says more than the mark is someone else's.
    let comment = [0xFF, 0xD8, 0xFF, 0xFE, 0, 11] + Array("hexmask!!".utf8) + [0xFF, 0xD9]
    #expect(!ExistingFile(bytes: comment).carriesMark)
  }

  /// Damaged lengths end the walks, never trap: every prefix of a marked file is read.
  @Test func truncatedAndDamagedFilesNeverTrap() throws {
    let photo = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/rocket.jpg"))))
    for format in OutputFormat.allCases {
      var output = HexMask.Output()
      output.kind = .init(format)
      output.size = 8
      let whole = try HexMask.render(photo, output: output).bytes
      for end in 0..<whole.count { _ = ExistingFile(bytes: Array(whole[..<end])).carriesMark }
      var damaged = whole
      for at in stride(from: 0, to: 48, by: 1) {
        damaged[at] = 0xFF
        _ = ExistingFile(bytes: damaged).carriesMark
        _ = ExistingFile(bytes: damaged).description
      }
    }
    // An ISO BMFF box with a 64-bit size of 2^63 − 1, and one of 0 ("to the end").
    let huge: [UInt8] =
      [0, 0, 0, 1] + Array("ftyp".utf8) + [0x7F] + [UInt8](repeating: 0xFF, count: 7)
    #expect(!ExistingFile(bytes: huge + Array("avif".utf8)).carriesMark)
    #expect(!ExistingFile(bytes: [0, 0, 0, 0] + Array("ftypavif".utf8)).carriesMark)
  }

  @Test(arguments: [
    ("replace/square.jpg", "a 64×64 JPEG"),
    ("replace/portrait-512.png", "a 512×512 PNG"),
    ("replace/icon-rgba.png", "a 32×32 PNG"),
    ("replace/wide.webp", "a 96×64 WebP"),
    ("replace/wide.avif", "an AVIF"),
    ("replace/small.gif", "a 20×16 GIF"),
    ("replace/small.bmp", "a 20×16 BMP"),
    ("heif/rocket.heic", "a HEIC/HEIF"),
    ("replace/MANIFEST.txt", "a text file"),
    ("photos/rocket.jpg", "a 640×427 JPEG"),
  ])
  func aFileHexMaskDidNotMakeIsNamedAndRefused(path: String, what: String) throws {
    let file = try #require(ExistingFile(path: Fixtures.path(path)))
    #expect(!file.carriesMark)
    #expect(file.description == what)
    #expect(
      ReplacementRefusal(replacing: Fixtures.path(path), force: false)
        == .notMadeByHexMask(what: what))
    #expect(ReplacementRefusal(replacing: Fixtures.path(path), force: true) == nil)
    #expect(ReplacementRefusal(replacing: Fixtures.path(path), force: false, recorded: true) == nil)
  }

  @Test func descriptionsOfOtherFiles() {
    #expect(ExistingFile(bytes: [1, 2, 3]).description == "a 3 byte file")
    #expect(ExistingFile(bytes: Array("héllo\n".utf8)).description == "a text file")
    #expect(
      ExistingFile(bytes: [0x49, 0x49, 0x2A, 0x00, 8]).description == "a TIFF or camera raw file")
    let big =
      Self.pngSignature + Self.chunk("IHDR", [0, 0, 0x1F, 0x40, 0, 0, 0x2B, 0x0C, 8, 2, 0, 0, 0])
    #expect(ExistingFile(bytes: big).description == "an 8000×11020 PNG")
  }

  @Test func anEmptyFileIsReplacedAndAMissingOneIsNew() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      let path = folder + "/e.png"
      #expect(ReplacementRefusal(replacing: path, force: false) == nil)
      FileManager.default.createFile(atPath: path, contents: Data())
      #expect(ReplacementRefusal(replacing: path, force: false) == nil)
      FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
      #expect(
        ReplacementRefusal(replacing: path, force: false) == .notMadeByHexMask(what: "a text file"))
    }
  }

  @Test func hexmasksOwnOutputsAreReplaced() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      for name in OutputFormat.allCases.map({ "o." + $0.fileExtension }) {
        let run = try runHexMask(
          [Fixtures.path("exif/Landscape_6.jpg"), folder + "/" + name], in: nil)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(ReplacementRefusal(replacing: folder + "/" + name, force: false) == nil, "\(name)")
      }
    }
  }

  /// Root may replace another user's file (a new file can be given its owner and group);
  /// anyone else may not, not even with --force: the slow lane's `as_user` rows check that
  /// side, this row the root side (a dropped `geteuid() != 0` refused root too).
  @Test(.disabled(if: getuid() != 0, "only root can give a file to another owner"))
  func rootReplacesAnotherUsersFile() throws {
    try withTemporaryFolder { url in
      let path = url.path + "/o.png"
      FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
      #expect(chown(path, 1234, 5678) == 0)
      #expect(ReplacementRefusal(replacing: path, force: true) == nil)
      #expect(
        ReplacementRefusal(replacing: path, force: false) == .notMadeByHexMask(what: "a text file"))
    }
  }
}
