import Foundation
import TestSupport
import Testing

/// Mistakes in a batch's command that are said once, before any file is read, whatever
/// else is wrong with it too.
@Suite struct BatchMistakesTests {
  /// Two inputs that would write the same output into an `--out-dir` that is a file: the
  /// folder is the mistake said (status 1), not the conflict it would hide.
  @Test func anOutputFolderThatIsAFileIsSaidBeforeConflicts() throws {
    try withTemporaryFolder { dir in
      let inputs = try photoFolder(in: dir, names: ["a.jpg", "a.png"])
      let file = dir.appendingPathComponent("notdir").path
      try Data("mine".utf8).write(to: URL(fileURLWithPath: file))
      let run = try runHexMask([inputs.path, "--out-dir", file])
      #expect(run.status == 1)
      #expect(
        run.standardError
          == "hexmask: \(file): cannot be the output folder: '\(file)' is not a folder\n")
      #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("mine".utf8))
    }
  }

  /// A `--name` that puts outputs among the rerun records is a usage error (status 2),
  /// said once for the template, before any file is read or folder made.
  @Test(arguments: [".hexmask/{name}", ".hexmask/{name}.webp", ".hexmask/x/{name}-{ext}.png"])
  func aNameAmongTheRecordsIsAUsageError(template: String) throws {
    try withTemporaryFolder { dir in
      _ = try photoFolder(in: dir, names: ["a.jpg"])
      let out = dir.appendingPathComponent("out").path
      let run = try runHexMask(["in", "--out-dir", "out", "--name", template], in: dir)
      #expect(run.status == 2)
      let lines = run.standardError.split(separator: "\n")
      #expect(lines.count == 2, "\(run.standardError)")
      #expect(lines.first?.contains("among hexmask's rerun records") == true)
      #expect(lines.last == "Try 'hexmask --help' for more information.")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
  }
}

/// A folder `in` inside `dir` holding a small JPEG under each of `names`.
func photoFolder(in dir: URL, names: [String]) throws -> URL {
  let inputs = dir.appendingPathComponent("in")
  try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
  for name in names {
    try FileManager.default.copyItem(
      atPath: Fixtures.path("jpeg/jpg-progressive.jpg"),
      toPath: inputs.appendingPathComponent(name).path)
  }
  return inputs
}
