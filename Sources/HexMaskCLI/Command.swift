import Foundation
import HexMask

/// Runs the command line `arguments` (without the program name) and returns the exit status:
/// 0 when the output was written (or help or the version was printed), 1 when the input could
/// not be turned into an output (in a batch: when any file failed), 2 when the command line is
/// wrong, 130 or 143 when a batch was stopped by SIGINT or SIGTERM.
///
/// ```swift
/// exit(runHexMask(Array(CommandLine.arguments.dropFirst())))
/// ```
public func runHexMask(_ arguments: [String]) -> Int32 {
  run(
    arguments, render: render(input:output:options:),
    renderBatch: { job throws(CommandError) in try runBatch(job, console: .system) },
    standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
    standardError: { FileHandle.standardError.write(Data($0.utf8)) })
}

/// The work of `runHexMask`, with the renderers and the two output streams passed in so tests
/// can watch them.
func run(
  _ arguments: [String],
  render: (String, String, RenderOptions) throws(HexMaskError) -> RenderReport,
  renderBatch: (Job) throws(CommandError) -> Void = { _ in },
  standardOutput: (String) -> Void,
  standardError: (String) -> Void
) -> Int32 {
  do throws(CommandError) {
    let job = try Job(parsing: arguments)
    switch job.action {
    case .showHelp:
      standardOutput(helpText())
    case .showVersion:
      standardOutput("hexmask \(hexmaskVersion)\n")
    case .render:
      let report: RenderReport
      do throws(HexMaskError) {
        report = try render(job.input, job.output, job.options)
      } catch {
        throw .renderFailed(error)
      }
      let name = job.input == "-" ? "<stdin>" : job.input
      for warning in report.warnings {
        standardError("hexmask: \(name): warning: \(warning)\n")
      }
    case .renderBatch:
      try renderBatch(job)
    }
    return 0
  } catch {
    standardError(error.report)
    return error.exitStatus
  }
}
