import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one run of a child process did.
public struct ProcessRun: Sendable {
  /// The exit status (the signal's number when a signal ended it).
  public var status: Int32
  /// Everything written to standard output, byte for byte.
  public var standardOutputData: Data
  /// Everything written to standard error, as text.
  public var standardError: String
  /// True when a signal ended the process (a crash, or the timeout's kill).
  public var killedBySignal = false
  /// True when it ran past the timeout and was terminated.
  public var timedOut = false

  /// Standard output as text.
  public var standardOutput: String { String(decoding: standardOutputData, as: UTF8.self) }

  /// Standard output as text, then standard error: a build's whole log.
  public var combinedOutput: String { standardOutput + standardError }
}

/// Why a process could not be run, or what a test helper found wrong.
public struct ProcessRunError: Error, CustomStringConvertible {
  public var description: String

  public init(description: String) { self.description = description }
}

/// Runs `executable` with `arguments`, feeding it `standardInput` (empty when nil), in
/// `directory` (the current one when nil), with `environment` (the test's when nil), and waits
/// for it to exit. Output goes through files, not pipes, so a large output cannot block the
/// child. After `timeout` seconds it is terminated and the result says `timedOut`.
public func runProcess(
  _ executable: URL, _ arguments: [String], standardInput: Data? = nil, in directory: URL? = nil,
  environment: [String: String]? = nil, timeout: TimeInterval? = nil
) throws -> ProcessRun {
  try withTemporaryFolder { scratch in
    let inputURL = scratch.appendingPathComponent("stdin")
    let outputURL = scratch.appendingPathComponent("stdout")
    let errorURL = scratch.appendingPathComponent("stderr")
    try (standardInput ?? Data()).write(to: inputURL)
    for url in [outputURL, errorURL] { try Data().write(to: url) }

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
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
    do {
      try process.run()
    } catch {
      throw ProcessRunError(description: "cannot run \(executable.path): \(error)")
    }
    var timedOut = false
    if let timeout {
      let deadline = Date().addingTimeInterval(timeout)
      while process.isRunning && Date() < deadline { usleep(2_000) }
      if process.isRunning {
        timedOut = true
        process.terminate()
      }
    }
    process.waitUntilExit()
    return ProcessRun(
      status: process.terminationStatus,
      standardOutputData: try Data(contentsOf: outputURL),
      standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self),
      killedBySignal: process.terminationReason == .uncaughtSignal, timedOut: timedOut)
  }
}

/// The `hexmask` executable (or another of the package's, by `name`) SwiftPM built next to
/// the test bundle, or failing that the one in the package's `.build/debug`.
public func hexmaskExecutable(named name: String = "hexmask") throws -> URL {
  let fileManager = FileManager.default
  let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
  let candidates = [
    testBinary.deletingLastPathComponent(),
    Bundle.main.bundleURL,
    Bundle.main.bundleURL.deletingLastPathComponent(),
    packageRoot.appendingPathComponent(".build/debug"),
  ].map { $0.appendingPathComponent(name) }
  guard let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0.path) })
  else {
    throw ProcessRunError(
      description: "no built \(name) in \(candidates.map(\.path).joined(separator: ", "))")
  }
  return found
}

/// The program `name` on PATH (`swift test` itself was found there): tests never look for
/// tools in places outside the repository that only one machine has.
public func executableOnPath(named name: String) throws -> URL {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  let candidates = path.split(separator: ":").map { "\($0)/\(name)" }
  guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
  else {
    throw ProcessRunError(description: "no \(name) on PATH (\(path))")
  }
  return URL(fileURLWithPath: found)
}
