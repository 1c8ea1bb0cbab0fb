import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a batch writes its results and messages; safe to call from any thread.
///
/// ```swift
/// Console.system.standardError("hexmask: 3 written\n")
/// ```
struct Console: Sendable {
  /// Writes text to standard output.
  var standardOutput: @Sendable (String) -> Void
  /// Writes text to standard error.
  var standardError: @Sendable (String) -> Void
  /// True when standard output is a terminal, where a progress line would share the screen.
  var outputIsTerminal = false
  /// True when standard error is a terminal, so a live progress line can be redrawn.
  var errorIsTerminal = false

  /// The process's own standard output and error.
  static var system: Console {
    Console(
      standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
      standardError: { FileHandle.standardError.write(Data($0.utf8)) },
      outputIsTerminal: isatty(1) != 0, errorIsTerminal: isatty(2) != 0)
  }
}
