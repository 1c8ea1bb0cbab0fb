import Foundation

/// The package's root folder, found from this file's path so that nothing is copied into a
/// bundle.
public let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent()  // TestSupport
  .deletingLastPathComponent()  // Tests
  .deletingLastPathComponent()  // package root

/// The shared test corpus beside the package (`../shared/corpus`), which a test may sweep
/// when it is there; the suite passes without it.
public let sharedCorpus = packageRoot.deletingLastPathComponent()
  .appendingPathComponent("shared/corpus")

/// Test files in `Fixtures/` at the package root.
public enum Fixtures {
  public static let root = packageRoot.appendingPathComponent("Fixtures")

  /// The path of `name` inside `Fixtures/`, e.g. `"pngsuite/basn0g08.png"`.
  public static func path(_ name: String) -> String {
    root.appendingPathComponent(name).path
  }

  /// The file names in a fixture folder, sorted, filtered by `include`.
  public static func names(in folder: String, where include: (String) -> Bool) -> [String] {
    let all = (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
    return all.filter(include).sorted()
  }

  /// The PngSuite test images, without the suite's logo.
  public static func pngSuite(corrupt: Bool) -> [String] {
    names(in: "pngsuite") {
      $0.hasSuffix(".png") && $0 != "PngSuite.png" && $0.hasPrefix("x") == corrupt
    }
  }
}

/// The absolute path of a file under the package's `Fixtures/` folder.
public func fixture(_ relativePath: String) -> String {
  Fixtures.path(relativePath)
}

/// Calls `body` with a new empty directory that is removed afterwards.
public func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("hexmask-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// Calls `body` with the path of a new empty folder that is removed afterwards.
public func withTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
  try withTemporaryDirectory { (url: URL) throws -> T in try body(url.path) }
}

/// A folder of this test run's own under the temporary directory (`TMPDIR`), for reports that
/// gather across many tests, such as the accuracy ledgers. Made on first use and left in place
/// so the report can be read after the run; no two runs share it.
public let testRunFolder: URL = {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "hexmask-test-run-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)",
    isDirectory: true)
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}()
