import Foundation

/// The package's root folder, found from this file's path so that nothing is copied into a
/// bundle.
public let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent()  // TestSupport
  .deletingLastPathComponent()  // Tests
  .deletingLastPathComponent()  // package root

/// A corpus of test files kept outside the repository, which some tests sweep when it is
/// there: the folder named by the environment variable `HEXMASK_CORPUS` (`make check` sets it
/// when `CORPUS` is given). Tests that need it are `.enabled(if: SharedCorpus.has(…))`, so
/// that without it they show as skipped rather than passing with nothing checked.
public enum SharedCorpus {
  /// The corpus folder, or nil when `HEXMASK_CORPUS` is unset or empty; a relative path is
  /// taken from the package root.
  public static let root: URL? = ProcessInfo.processInfo.environment["HEXMASK_CORPUS"]
    .flatMap { (value: String) -> URL? in
      if value.isEmpty { return nil }
      if value.hasPrefix("/") { return URL(fileURLWithPath: value) }
      return packageRoot.appendingPathComponent(value).standardizedFileURL
    }

  /// The file or folder `item` of the corpus (the corpus itself for ""); a name that does not
  /// exist when there is no corpus.
  public static func url(_ item: String = "") -> URL {
    (root ?? packageRoot.appendingPathComponent(".no-corpus")).appendingPathComponent(item)
  }

  /// The path of `item` in the corpus.
  public static func path(_ item: String = "") -> String { url(item).path }

  /// Whether `item` of the corpus (the corpus itself by default) is there.
  public static func has(_ item: String = "") -> Bool {
    root != nil && FileManager.default.fileExists(atPath: path(item))
  }
}

/// Test files in `Fixtures/` at the package root.
public enum Fixtures {
  public static let root = packageRoot.appendingPathComponent("Fixtures")

  /// The path of `name` inside `Fixtures/`, e.g. `"pngsuite/basn0g08.png"`.
  public static func path(_ name: String) -> String {
    root.appendingPathComponent(name).path
  }

  /// The bytes of the fixture `name`, e.g. `"heif/rocket.heic"`.
  public static func bytes(_ name: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: root.appendingPathComponent(name)))
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

/// Calls `body` with a new empty folder under the temporary directory (`TMPDIR`), removed
/// afterwards with everything in it.
public func withTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("hexmask-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
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
