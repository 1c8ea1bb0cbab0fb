import Foundation
import HexMask
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Batch mode through the built binary, on temporary folder trees.
@Suite(.tags(.endToEnd)) struct BatchEndToEndTests {
  static let photo = Fixtures.path("photos/rocket.jpg")
  static let png = Fixtures.path("pngsuite/basn2c08.png")

  /// Copies fixtures (or writes text, for values starting with `text:`) to paths under `dir`.
  func makeFiles(_ dir: URL, _ files: [String: String]) throws {
    for (relative, source) in files {
      let url = dir.appendingPathComponent(relative)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      let contents =
        source.hasPrefix("text:")
        ? Data(source.dropFirst(5).utf8) : try Data(contentsOf: URL(fileURLWithPath: source))
      try contents.write(to: url)
    }
  }

  /// Every file under `dir`, relative, sorted; hidden and temporary files included.
  func tree(_ dir: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: dir.path)
    var files: [String] = []
    while let path = enumerator?.nextObject() as? String {
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(
        atPath: dir.appendingPathComponent(path).path, isDirectory: &isFolder)
      // The rerun records are hexmask's own bookkeeping, not outputs.
      if !isFolder.boolValue && !path.hasPrefix(".hexmask" + "/") { files.append(path) }
    }
    return files.sorted()
  }

  /// a.jpg, b.png, notes.txt, .hidden.jpg, sub/c.jpg, sub/deeper/d.png, .git/e.jpg
  func makePhotos(_ dir: URL) throws {
    try makeFiles(
      dir,
      [
        "in/a.jpg": Self.photo, "in/b.png": Self.png, "in/notes.txt": "text:notes",
        "in/.hidden.jpg": Self.photo, "in/sub/c.jpg": Self.photo,
        "in/sub/deeper/d.png": Self.png, "in/.git/e.jpg": Self.photo,
      ])
  }

  @Test func recursionMirrorsFoldersAndSkipsHiddenFiles() throws {
    try withTemporaryFolder { dir in
      try makePhotos(dir)
      let run = try runHexMask(["-r", "in", "--out-dir", "out"], in: dir)
      #expect(run.status == 0, "\(run.standardError)")
      #expect(run.standardOutputData.isEmpty)
      #expect(
        tree(dir.appendingPathComponent("out")) == [
          "a.png", "b.png", "sub/c.png", "sub/deeper/d.png",
        ])
      // notes.txt is passed over, and said so; then the summary.
      #expect(
        run.standardError.hasPrefix(
          "hexmask: skipped 1 file in the folders that is not a picture hexmask reads "
            + "(--verbose lists them)\nhexmask: 4 written, 0 skipped, 0 failed in "),
        "\(run.standardError)")
      #expect(!run.standardError.contains("\r"), "no progress line when stderr is not a terminal")
      let decoded = try decodeImage(at: dir.appendingPathComponent("out/sub/deeper/d.png").path)
      #expect(decoded.width == 32 && decoded.height == 32)

      let flat = try runHexMask(["in", "--out-dir", "flat"], in: dir)
      #expect(flat.status == 0)
      #expect(tree(dir.appendingPathComponent("flat")) == ["a.png", "b.png"])
    }
  }

  @Test func theOutputFolderInsideTheInputsIsNeverRead() throws {
    try withTemporaryFolder { dir in
      try makePhotos(dir)
      for _ in 0..<2 {
        let run = try runHexMask(["-r", "in", "--out-dir", "in/out", "--quiet"], in: dir)
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
      }
      #expect(
        tree(dir.appendingPathComponent("in/out")) == [
          "a.png", "b.png", "sub/c.png", "sub/deeper/d.png",
        ])
    }
  }

  @Test func templatesNameTheOutputs() throws {
    try withTemporaryFolder { dir in
      try makePhotos(dir)
      try makeFiles(dir, ["in/sub/a.png": Self.png])
      let run = try runHexMask(
        ["-r", "in", "--out-dir", "out", "--name", "hex/{dir}/{name}_{ext}.png"], in: dir)
      #expect(run.status == 0, "\(run.standardError)")
      #expect(
        tree(dir.appendingPathComponent("out")) == [
          "hex/a_jpg.png", "hex/b_png.png", "hex/sub/a_png.png", "hex/sub/c_jpg.png",
          "hex/sub/deeper/d_png.png",
        ])
      let flat = try runHexMask(
        ["-r", "in", "--out-dir", "flat", "--name", "{name}.{ext}.png"], in: dir)
      #expect(flat.status == 0)
      #expect(tree(dir.appendingPathComponent("flat")).count == 5)
    }
  }

  @Test func conflictsStopTheBatchBeforeAnythingIsWritten() throws {
    try withTemporaryFolder { dir in
      try makeFiles(dir, ["a/x.jpg": Self.photo, "b/x.png": Self.png, "a/y.jpg": Self.photo])
      let run = try runHexMask(["a", "b", "--out-dir", "out"], in: dir)
      #expect(run.status == 2)
      #expect(
        run.standardError.hasPrefix(
          "hexmask: conflict: 'a/x.jpg' and 'b/x.png' would both write 'out/x.png'\n"))
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
      let mirrored = try runHexMask(["-r", "a", "b", "--out-dir", "out"], in: dir)
      #expect(mirrored.status == 2, "folders given as roots still share the top of DIR")
      let apart = try runHexMask(
        ["a", "b", "--out-dir", "out", "--name", "{name}-{ext}.png"], in: dir)
      #expect(apart.status == 0)
      #expect(tree(dir.appendingPathComponent("out")) == ["x-jpg.png", "x-png.png", "y-jpg.png"])
    }
  }

  @Test func filesFromNULSeparatedListWithAwkwardNames() throws {
    try withTemporaryFolder { dir in
      let names = ["with space.jpg", "new\nline.png", "tab\there.jpg", "-"]
      try makeFiles(
        dir,
        [
          "in/" + names[0]: Self.photo, "in/" + names[1]: Self.png, "in/" + names[2]: Self.photo,
          "in/" + names[3]: Self.png,
        ])
      let list = names.map { "in/" + $0 }.joined(separator: "\0") + "\0"
      let run = try runHexMask(
        ["--files-from", "-", "-0", "--out-dir", "out"], standardInput: Data(list.utf8), in: dir)
      #expect(run.status == 0, "\(run.standardError)")
      #expect(
        tree(dir.appendingPathComponent("out")) == [
          "-.png", "new\nline.png", "tab\there.png", "with space.png",
        ])
    }
  }

  @Test func filesFromALineListWithSpacesAndMirroring() throws {
    try withTemporaryFolder { dir in
      try makeFiles(dir, ["in/my photos/a b.jpg": Self.photo, "in/c.png": Self.png])
      try Data("in/my photos/a b.jpg\n\nin/c.png\n".utf8).write(
        to: dir.appendingPathComponent("list.txt"))
      let run = try runHexMask(["--files-from", "list.txt", "-r", "--out-dir", "out"], in: dir)
      #expect(run.status == 0, "\(run.standardError)")
      #expect(tree(dir.appendingPathComponent("out")) == ["in/c.png", "in/my photos/a b.png"])
      let missing = try runHexMask(["--files-from", "nope.txt", "--out-dir", "out"], in: dir)
      #expect(missing.status == 1)
      #expect(
        missing.standardError
          == "hexmask: nope.txt: cannot open the list: No such file or directory\n")
    }
  }

  @Test func corruptFilesFailAloneAndTheRestIsWritten() throws {
    try withTemporaryFolder { dir in
      try makeFiles(
        dir,
        [
          "in/a.jpg": Self.photo, "in/bad.png": Fixtures.path("corrupt/badcrc.png"),
          "in/c.png": Self.png,
          "in/truncated.png": Fixtures.path("corrupt/truncated.png"),
        ])
      let run = try runHexMask(["in", "in/missing.jpg", "--out-dir", "out", "--json"], in: dir)
      #expect(run.status == 1)
      let outputs = tree(dir.appendingPathComponent("out"))
      #expect(outputs.contains("a.png") && outputs.contains("c.png"))
      #expect(!outputs.contains { $0.hasPrefix(".") || $0.contains(".hexmask-") })
      let lines = run.standardError.split(separator: "\n")
      #expect(lines.contains { $0.hasPrefix("hexmask: in/missing.jpg: cannot open") })
      #expect(lines.last?.contains(" failed in ") == true)
      let failed = try jsonObjects(run.standardOutputData).filter {
        $0["status"] as? String == "failed"
      }
      #expect(failed.count == lines.count - 1)
      #expect(failed.allSatisfy { ($0["error"] as? String)?.isEmpty == false })
    }
  }

  @Test func outputsAreTheSameBytesWhateverTheJobs() throws {
    try withTemporaryFolder { dir in
      var files: [String: String] = [:]
      for (index, name) in [
        "photos/rocket.jpg", "pngsuite/basn2c08.png", "pngsuite/basi6a16.png", "jpeg/jpg-gray.jpg",
        "jpeg/jpg-progressive.jpg", "exif/Landscape_6.jpg", "jpeg/testimgp.jpg",
        "pngsuite/s33i3p04.png",
      ].enumerated() {
        files["in/\(index)-" + (name.split(separator: "/").last ?? "")] = Fixtures.path(name)
      }
      try makeFiles(dir, files)
      for jobs in ["1", "4"] {
        let run = try runHexMask(["in", "--out-dir", "out\(jobs)", "-j", jobs, "-q"], in: dir)
        #expect(run.status == 0, "\(run.standardError)")
      }
      let one = tree(dir.appendingPathComponent("out1"))
      #expect(one.count == files.count)
      #expect(one == tree(dir.appendingPathComponent("out4")))
      for name in one {
        let a = try Data(contentsOf: dir.appendingPathComponent("out1/" + name))
        let b = try Data(contentsOf: dir.appendingPathComponent("out4/" + name))
        #expect(a == b, "\(name)")
      }
    }
  }

  @Test func jsonDescribesEveryFileAndNothingElse() throws {
    try withTemporaryFolder { dir in
      try makePhotos(dir)
      try makeFiles(dir, ["in/zz.png": Fixtures.path("corrupt/badcrc.png")])
      try makeFiles(dir, ["out/b.png": "text:already there"])
      let run = try runHexMask(["-r", "in", "--out-dir", "out", "--json"], in: dir)
      #expect(run.status == 1)
      let objects = try jsonObjects(run.standardOutputData)
      #expect(
        objects.map { $0["input"] as? String } == [
          "in/a.jpg", "in/b.png", "in/sub/c.jpg", "in/sub/deeper/d.png", "in/zz.png",
        ])
      #expect(
        objects.map { $0["status"] as? String } == [
          "written", "failed", "written", "written", "failed",
        ])
      // out/b.png was not made by hexmask (no mark, no record vouches for it): it is that
      // file's failure, and it is kept.
      #expect(
        objects.map { $0["reason"] as? String } == ["new", nil, "new", "new", nil])
      #expect(
        objects[1]["error"] as? String
          == "out/b.png: exists and was not made by hexmask (a text file); --force replaces it")
      #expect(
        try String(contentsOf: dir.appendingPathComponent("out/b.png"), encoding: .utf8)
          == "already there")
      for object in objects {
        // `profile` and `colour` only for an input with a colour profile (rocket.jpg's).
        let colour: Set<String> = object["colour"] == nil ? [] : ["profile", "colour"]
        let keys: Set<String> = [
          "input", "output", "status", "reason", "error", "width", "height", "milliseconds",
          "warnings", "crop",
        ]
        #expect(Set(object.keys) == keys.union(colour))
        #expect(object["milliseconds"] is Int)
        guard object["status"] as? String == "written", let output = object["output"] as? String
        else {
          #expect(object["crop"] is NSNull)
          continue
        }
        let image = try decodeImage(at: dir.appendingPathComponent(output).path)
        #expect(object["width"] as? Int == image.width && object["height"] as? Int == image.height)
        #expect(object["error"] is NSNull)
        // The square the output shows: at its own size, as large as the output.
        let crop = object["crop"] as? [String: Int]
        #expect(crop?["side"] == image.width)
        #expect(Set(crop.map { Array($0.keys) } ?? []) == ["x", "y", "side"])
      }
      #expect(
        run.standardOutput.hasPrefix(
          #"{"input":"in/a.jpg","output":"out/a.png","status":"written","reason":"new","error":null,"#
            + #""width":427,"#)
      )
    }
  }

  @Test func existingOutputsAreSkippedForcedOrOnlyListed() throws {
    try withTemporaryFolder { dir in
      try makePhotos(dir)
      let dry = try runHexMask(["-r", "in", "--out-dir", "out", "--dry-run"], in: dir)
      #expect(dry.status == 0)
      #expect(
        dry.standardOutput == """
          in/a.jpg -> out/a.png
          in/b.png -> out/b.png
          in/sub/c.jpg -> out/sub/c.png
          in/sub/deeper/d.png -> out/sub/deeper/d.png

          """)
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))

      #expect(try runHexMask(["-r", "in", "--out-dir", "out"], in: dir).status == 0)
      let again = try runHexMask(["-r", "in", "--out-dir", "out", "--verbose"], in: dir)
      #expect(again.status == 0)
      #expect(again.standardError.contains("hexmask: skipped out/a.png (up to date)\n"))
      #expect(
        again.standardError.hasSuffix(
          "hexmask: 0 written, 4 skipped, 0 failed in "
            + (again.standardError.split(separator: " in ").last ?? "")))

      // An output changed since it was written is not vouched for by its record; one
      // replaced by a file hexmask did not make is refused, by the dry run as by the run.
      try Data("changed by hand".utf8).write(to: dir.appendingPathComponent("out/a.png"))
      let listed = try runHexMask(["-r", "in", "--out-dir", "out", "--dry-run", "--json"], in: dir)
      #expect(listed.status == 1)
      let rows = try jsonObjects(listed.standardOutputData)
      #expect(rows.map { $0["status"] as? String } == ["failed", "skipped", "skipped", "skipped"])
      #expect(rows.map { $0["reason"] as? String } == [nil, nil, nil, nil])
      #expect(
        (rows.first?["error"] as? String)?.hasPrefix(
          "out/a.png: exists and was not made by hexmask (a text file") == true)
      let forced = try runHexMask(
        ["-r", "in", "--out-dir", "out", "--force", "--dry-run"], in: dir)
      #expect(
        forced.standardOutput.hasPrefix(
          "in/a.jpg -> out/a.png (changed, rebuilt)\nin/b.png -> out/b.png (forced)\n"))

      let force = try runHexMask(["-r", "in", "--out-dir", "out", "--force", "--verbose"], in: dir)
      #expect(force.status == 0)
      #expect(
        force.standardError.contains("hexmask: wrote out/a.png from in/a.jpg (changed, 427x427, "))
      #expect(
        force.standardError.contains("hexmask: wrote out/b.png from in/b.png (forced, "))
      #expect(try decodeImage(at: dir.appendingPathComponent("out/a.png").path).width == 427)
    }
  }

  @Test func quietSaysNothingButErrors() throws {
    try withTemporaryFolder { dir in
      try makeFiles(
        dir,
        [
          "in/a.jpg": Fixtures.path("jpeg/truncated_jpeg.jpg"),
          "in/b.png": Fixtures.path("corrupt/badcrc.png"),
        ])
      let run = try runHexMask(["in", "--out-dir", "out", "-q"], in: dir)
      #expect(run.status == 1)
      #expect(
        run.standardError.split(separator: "\n").map { String($0.prefix(18)) } == [
          "hexmask: in/b.png:"
        ])
      let normal = try runHexMask(["in", "--out-dir", "out2"], in: dir)
      #expect(normal.standardError.contains("hexmask: in/a.jpg: warning: "))
    }
  }

  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func aSignalStopsCleanlyAndARerunFinishes(signal: Int32, status: Int32) throws {
    try withTemporaryFolder { dir in
      let count = 60
      try makeFiles(
        dir,
        Dictionary(
          uniqueKeysWithValues: (0..<count).map {
            (String(format: "in/photo%02d.jpg", $0), Self.photo)
          }))
      let out = dir.appendingPathComponent("out")
      let errorURL = dir.appendingPathComponent("stderr.txt")
      try Data().write(to: errorURL)
      let process = Process()
      process.executableURL = try hexmaskExecutable()
      process.arguments = ["in", "--out-dir", "out", "-j", "1", "--json"]
      process.currentDirectoryURL = dir
      let outputURL = dir.appendingPathComponent("stdout.jsonl")
      try Data().write(to: outputURL)
      let outputHandle = try FileHandle(forWritingTo: outputURL)
      defer { try? outputHandle.close() }
      process.standardOutput = outputHandle
      let errorHandle = try FileHandle(forWritingTo: errorURL)
      defer { try? errorHandle.close() }
      process.standardError = errorHandle
      try process.run()
      let deadline = Date().addingTimeInterval(60)
      while process.isRunning, Date() < deadline,
        (try? filesIn(out).contains { $0.hasSuffix(".png") && !$0.hasPrefix(".") }) != true
      {
        usleep(1_000)
      }
      kill(process.processIdentifier, signal)
      process.waitUntilExit()
      let message = String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
      #expect(process.terminationReason == .exit)
      #expect(process.terminationStatus == status, "\(message)")
      #expect(message.contains(" not started in "))
      #expect(message.hasSuffix("; run the same command again to finish the rest\n"))
      let written = try filesIn(out).filter { $0 != ".hexmask" }
      #expect(!written.contains { $0.hasPrefix(".") || $0.contains(".hexmask-") }, "\(written)")
      #expect(!written.isEmpty && written.count < count)
      for name in written {
        #expect(try decodeImage(at: out.appendingPathComponent(name).path).width == 427)
      }
      // Every file has its --json row, in input order: those not started say so.
      let rows = try jsonObjects(try Data(contentsOf: outputURL))
      #expect(
        rows.map { $0["input"] as? String }
          == (0..<count).map { String(format: "in/photo%02d.jpg", $0) })
      #expect(rows.filter { $0["status"] as? String == "written" }.count == written.count)
      #expect(
        rows.filter { $0["status"] as? String == "not started" }.count == count - written.count)

      let rerun = try runHexMask(["in", "--out-dir", "out", "--json"], in: dir, timeout: 120)
      #expect(rerun.status == 0, "\(rerun.standardError)")
      let statuses = try jsonObjects(rerun.standardOutputData).map { $0["status"] as? String }
      #expect(statuses.filter { $0 == "skipped" }.count == written.count)
      #expect(statuses.filter { $0 == "written" }.count == count - written.count)
      #expect(try filesIn(out).filter { $0 != ".hexmask" }.count == count)
    }
  }

  @Test func usageMistakesInBatchMode() throws {
    let stdin = try runHexMask(["-", "--out-dir", "o"])
    #expect(stdin.status == 2)
    #expect(stdin.standardError.hasPrefix("hexmask: '-' cannot be an input with --out-dir"))
    let dryRun = try runHexMask(["a.jpg", "b.png", "--dry-run"])
    #expect(dryRun.status == 2)
    #expect(dryRun.standardError.hasPrefix("hexmask: option '--dry-run' works only in batch mode"))
  }

  /// The JSON objects of `--json` output, one per line.
  func jsonObjects(_ data: Data) throws -> [[String: Any]] {
    try data.split(separator: UInt8(ascii: "\n")).map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }
  }
}
