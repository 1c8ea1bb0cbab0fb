import Foundation
import TestSupport

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
) throws -> ProcessRun {
  let run = try runProcess(
    try hexmaskExecutable(named: executable), arguments, standardInput: standardInput,
    in: directory, timeout: timeout)
  if run.timedOut {
    throw ProcessRunError(
      description: "\(executable) \(arguments) ran longer than \(timeout ?? 0) s")
  }
  return run
}
