#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a batch writes its results and messages; safe to call from any thread.
///
/// ```swift
/// Console.system(errorDescriptor: STDERR_FILENO).standardError("hexmask: 3 written\n")
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
  /// The process's streams behind the two closures, standard output first, which remember
  /// text that could not be written; empty for a console that only collects text (tests).
  var streams: [TextStream] = []

  /// The process's own standard output, and its standard error as `errorDescriptor` reaches
  /// it (the private duplicate of ``silenceDecoderChatter()``; messages still name it
  /// `<stderr>`). Each use makes new streams, so a run takes it once and asks that console for
  /// `writeFailure` at the end.
  static func system(errorDescriptor: Int32) -> Console {
    let output = TextStream(descriptor: STDOUT_FILENO, name: "<stdout>")
    let error = TextStream(descriptor: errorDescriptor, name: "<stderr>")
    return Console(
      standardOutput: output.write, standardError: error.write,
      outputIsTerminal: isatty(STDOUT_FILENO) != 0, errorIsTerminal: isatty(errorDescriptor) != 0,
      streams: [output, error])
  }

  /// The first stream, standard output before standard error, that lost text, with the
  /// `errno` of its failure; nil when everything was written.
  var writeFailure: (stream: String, code: Int32)? {
    for stream in streams {
      if let code = stream.failure { return (stream.name, code) }
    }
    return nil
  }

  /// True once either stream met a pipe whose reader has gone (`EPIPE`, seen only while
  /// SIGPIPE is ignored): what a batch treats as a stop, as SIGPIPE's default action would be.
  var pipeClosed: Bool { streams.contains { $0.failure == EPIPE } }
}
