import Foundation
import TestSupport
import Testing

/// docs/library.md's program, built as an outside package that depends on this one by
/// path, and run: its output must be the bytes `hexmask in.jpg out.png --size 256` writes.
/// It compiles HexMask once more, in a scratch folder of its own.
@Suite(.tags(.slow, .endToEnd), .outsideTheFastLane) struct UseFromSwiftTests {
  /// The first ```swift block of docs/library.md, as written there.
  static func libraryProgram() throws -> String {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/library.md"), encoding: .utf8)
    guard let opening = page.range(of: "\n```swift\n"),
      let closing = page[opening.upperBound...].range(of: "\n```\n")
    else {
      throw ProcessRunError(description: "docs/library.md has no ```swift block")
    }
    return String(page[opening.upperBound..<closing.lowerBound]) + "\n"
  }

  @Test func libraryProgramIsAWholeProgram() throws {
    let program = try Self.libraryProgram()
    #expect(program.contains("import HexMask"))
    #expect(program.contains("FileHandle.standardInput"))
    #expect(program.contains("output.size = 256"))
    // The switch names every stage of the typed error.
    for stage in [".decoding", ".shape", ".output", ".encoding", ".warningInStrictMode"] {
      #expect(
        program.contains("case \(stage)"), "the docs/library.md program does not show \(stage)")
    }
  }

  @Test(.timeLimit(.minutes(30)))
  func libraryProgramWritesTheBytesOfTheCommand() throws {
    let program = try Self.libraryProgram()
    let photo = packageRoot.appendingPathComponent("Fixtures/photos/rocket.jpg")
    let hexmask = try hexmaskExecutable()
    // Build the way the tests' own hexmask was built, so both run the same code.
    let configuration = hexmask.path.contains("/release/") ? "release" : "debug"

    try withTemporaryFolder { (folder: URL) throws in
      let package = folder.appendingPathComponent("avatar")
      let sources = package.appendingPathComponent("Sources/avatar")
      try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
      try program.write(
        to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
      try Self.manifest(dependingOn: packageRoot).write(
        to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

      let scratch = folder.appendingPathComponent("build")
      let swift = try executableOnPath(named: "swift")
      let started = Date()
      let build = try runProcess(
        swift,
        [
          "build", "--package-path", package.path, "--scratch-path", scratch.path,
          "--configuration", configuration, "--jobs", "1",
        ],
        timeout: 25 * 60)
      let seconds = Int(Date().timeIntervalSince(started).rounded())
      print("use from Swift: the docs/library.md program built in \(seconds) s")
      try #require(
        !build.timedOut && build.status == 0,
        """
        `swift build` of docs/library.md's program \
        \(build.timedOut ? "ran out of time" : "failed with status \(build.status)") \
        after \(seconds) s:
        \(build.combinedOutput.suffix(6_000))
        """)

      let avatar = scratch.appendingPathComponent("\(configuration)/avatar")
      let run = try runProcess(
        avatar, [], standardInput: try Data(contentsOf: photo), timeout: 120)
      try #require(
        !run.timedOut && run.status == 0 && run.standardError.isEmpty,
        "the docs/library.md program exited with \(run.status): \(run.standardError)")

      let expectedFile = folder.appendingPathComponent("out.png")
      let command = try runHexMask(
        [photo.path, expectedFile.path, "--size", "256"], timeout: 120)
      try #require(command.status == 0, "hexmask failed: \(command.standardError)")
      let expected = try Data(contentsOf: expectedFile)
      #expect(run.standardOutputData.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
      // A Bool, so that a failure does not diff 70 kB of bytes element by element.
      let same = run.standardOutputData == expected
      #expect(
        same,
        """
        the docs/library.md program wrote \(run.standardOutputData.count) bytes, \
        hexmask --size 256 wrote \(expected.count); the first difference is at byte \
        \(zip(run.standardOutputData, expected).prefix { $0 == $1 }.count)
        """)

      // Its error path: one line on standard error, exit status 1.
      let failed = try runProcess(avatar, [], standardInput: Data(), timeout: 120)
      #expect(failed.status == 1 && failed.standardOutputData.isEmpty)
      #expect(
        failed.standardError.hasPrefix("avatar: ")
          && failed.standardError.filter { $0 == "\n" }.count == 1
          && failed.standardError.hasSuffix("\n"),
        "\(failed.standardError)")
    }
  }

  /// The outside package's manifest: one executable, `avatar`, using the product `HexMask` of
  /// the package at `root` (whose identity is its folder's name).
  static func manifest(dependingOn root: URL) -> String {
    func literal(_ text: String) -> String {
      let escaped = text.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"")
      return "\"\(escaped)\""
    }
    return """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "avatar",
        dependencies: [.package(path: \(literal(root.path)))],
        targets: [
          .executableTarget(
            name: "avatar",
            dependencies: [.product(name: "HexMask", package: \(literal(root.lastPathComponent)))])
        ]
      )

      """
  }
}
