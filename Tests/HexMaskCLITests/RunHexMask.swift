import Foundation

/// What one run of the built `hexmask` executable did.
struct HexMaskRun: Sendable {
  /// The exit status.
  var status: Int32
  /// Everything written to standard output, byte for byte.
  var standardOutputData: Data
  /// Everything written to standard error, as text.
  var standardError: String
  /// True when a signal ended the process (a crash, or the timeout's kill).
  var killedBySignal = false

  /// Standard output as text.
  var standardOutput: String { String(decoding: standardOutputData, as: UTF8.self) }
}

/// Why the executable could not be run at all.
struct RunHexMaskError: Error, CustomStringConvertible {
  var description: String
}

/// Runs the built `hexmask` with `arguments`, feeding it `standardInput` (empty when nil) and
/// waiting for it to exit. Output goes through files, not pipes, so a large PNG on standard
/// output cannot block the child.
///
/// ```swift
/// let run = try runHexMask(["--version"])
/// #expect(run.standardOutput == "hexmask 0.1.0\n")
/// ```
func runHexMask(
  _ arguments: [String], standardInput: Data? = nil, in directory: URL? = nil,
  timeout: TimeInterval? = nil, executable: String = "hexmask"
) throws -> HexMaskRun {
  try withTemporaryDirectory { scratch in
    let inputURL = scratch.appendingPathComponent("stdin")
    let outputURL = scratch.appendingPathComponent("stdout")
    let errorURL = scratch.appendingPathComponent("stderr")
    try (standardInput ?? Data()).write(to: inputURL)
    for url in [outputURL, errorURL] { try Data().write(to: url) }

    let process = Process()
    process.executableURL = try hexmaskExecutable(named: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let input = try FileHandle(forReadingFrom: inputURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    defer {
      try? input.close()
      try? output.close()
      try? error.close()
    }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    if let timeout {
      let deadline = Date().addingTimeInterval(timeout)
      while process.isRunning && Date() < deadline { usleep(2_000) }
      if process.isRunning {
        process.terminate()
        process.waitUntilExit()
        throw RunHexMaskError(
          description: "\(executable) \(arguments) ran longer than \(timeout) s")
      }
    }
    process.waitUntilExit()
    return HexMaskRun(
      status: process.terminationStatus,
      standardOutputData: try Data(contentsOf: outputURL),
      standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self),
      killedBySignal: process.terminationReason == .uncaughtSignal)
  }
}

/// The `hexmask` executable (or another of the package's, by `name`) SwiftPM built next to
/// the test bundle, or failing that the one in the package's `.build/debug`.
func hexmaskExecutable(named name: String = "hexmask") throws -> URL {
  let fileManager = FileManager.default
  let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
  let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let candidates = [
    testBinary.deletingLastPathComponent(),
    Bundle.main.bundleURL,
    Bundle.main.bundleURL.deletingLastPathComponent(),
    packageRoot.appendingPathComponent(".build/debug"),
  ].map { $0.appendingPathComponent(name) }
  guard let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0.path) })
  else {
    throw RunHexMaskError(
      description: "no built \(name) in \(candidates.map(\.path).joined(separator: ", "))")
  }
  return found
}

/// Calls `body` with a new empty directory that is removed afterwards.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("hexmask-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// Calls `body` with the path of a new empty folder that is removed afterwards.
func withTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
  try withTemporaryDirectory { (url: URL) throws -> T in try body(url.path) }
}
