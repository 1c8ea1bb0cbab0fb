import Foundation
import TestSupport
import Testing

/// Another package can depend on this one by a git URL, as it would on a release: the
/// working tree is committed to a fresh repository tagged 1.0.0, an outside package asks for
/// `.package(url: "file://…", from: "1.0.0")`, and its program must build (SwiftPM refuses a
/// dependency by URL whose targets use unsafe flags) and write the bytes the command writes.
@Suite(.tags(.slow, .endToEnd), .outsideTheFastLane) struct DependByURLTests {
  /// The outside package's whole program: the library's defaults, a photo in, a PNG out.
  static let program = """
    import Foundation
    import HexMask

    let photo = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    do {
      FileHandle.standardOutput.write(Data(try HexMask.render(photo, output: HexMask.Output()).bytes))
    } catch {
      FileHandle.standardError.write(Data("avatar: \\(error)\\n".utf8))
      exit(1)
    }

    """

  @Test(.timeLimit(.minutes(30)))
  func aPackageDependingByURLBuildsAndWritesTheBytesOfTheCommand() throws {
    let photo = packageRoot.appendingPathComponent("Fixtures/photos/rocket.jpg")
    let git = try executableOnPath(named: "git")
    let swift = try executableOnPath(named: "swift")
    // The configuration of the tests' own hexmask; the bytes must not depend on it.
    let configuration = try hexmaskExecutable().path.contains("/release/") ? "release" : "debug"

    try withTemporaryFolder { (folder: URL) throws in
      let release = folder.appendingPathComponent("hexmask")
      try Self.commitWorkingTree(to: release, git: git)

      let package = folder.appendingPathComponent("avatar")
      let sources = package.appendingPathComponent("Sources/avatar")
      try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
      try Self.program.write(
        to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
      try Self.manifest(url: "file://" + release.path).write(
        to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

      let scratch = folder.appendingPathComponent("build")
      let build = try runProcess(
        swift,
        [
          "build", "--package-path", package.path, "--scratch-path", scratch.path,
          "--configuration", configuration, "--disable-dependency-cache",
        ],
        timeout: 25 * 60)
      try #require(
        !build.timedOut && build.status == 0,
        """
        `swift build` of a package depending on hexmask by URL \
        \(build.timedOut ? "ran out of time" : "failed with status \(build.status)"):
        \(build.combinedOutput.suffix(6_000))
        """)
      // It resolved the tag, not a branch or a path.
      let resolved = try String(
        contentsOf: package.appendingPathComponent("Package.resolved"), encoding: .utf8)
      #expect(resolved.contains("\"version\" : \"1.0.0\""), "\(resolved)")

      let avatar = scratch.appendingPathComponent("\(configuration)/avatar")
      let run = try runProcess(avatar, [], standardInput: try Data(contentsOf: photo), timeout: 120)
      try #require(
        !run.timedOut && run.status == 0,
        "the program exited with \(run.status): \(run.standardError)")
      let expectedFile = folder.appendingPathComponent("out.png")
      let command = try runHexMask([photo.path, expectedFile.path], timeout: 120)
      try #require(command.status == 0, "hexmask failed: \(command.standardError)")
      // A Bool, so that a failure does not diff the bytes element by element.
      let same = try run.standardOutputData == Data(contentsOf: expectedFile)
      #expect(same, "the program's \(run.standardOutputData.count) bytes differ from hexmask's")
    }
  }

  /// Copies the files git would commit from the package root (tracked or not, ignored ones
  /// left out) to `folder`, commits them there as the only commit and tags it 1.0.0.
  static func commitWorkingTree(to folder: URL, git: URL) throws {
    let listed = try runProcess(
      git,
      ["-C", packageRoot.path, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
      timeout: 60)
    try #require(listed.status == 0, "git ls-files: \(listed.standardError)")
    let fileManager = FileManager.default
    for name in listed.standardOutput.split(separator: "\0").map(String.init) {
      let source = packageRoot.appendingPathComponent(name)
      guard fileManager.fileExists(atPath: source.path) else { continue }  // deleted, not staged
      let target = folder.appendingPathComponent(name)
      try fileManager.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try fileManager.copyItem(at: source, to: target)
    }
    let identity = ["-c", "user.name=hexmask tests", "-c", "user.email=tests@hexmask.invalid"]
    for arguments in [
      ["init", "--quiet"], ["add", "--all"], identity + ["commit", "--quiet", "-m", "1.0.0"],
      ["tag", "1.0.0"],
    ] {
      let step = try runProcess(git, ["-C", folder.path] + arguments, timeout: 120)
      try #require(
        step.status == 0, "git \(arguments.joined(separator: " ")): \(step.standardError)")
    }
  }

  /// The outside package's manifest: one executable, `avatar`, using the product `HexMask` of
  /// the release at `url`.
  static func manifest(url: String) -> String {
    """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
      name: "avatar",
      dependencies: [.package(url: "\(url)", from: "1.0.0")],
      targets: [
        .executableTarget(
          name: "avatar", dependencies: [.product(name: "HexMask", package: "hexmask")])
      ]
    )

    """
  }
}
