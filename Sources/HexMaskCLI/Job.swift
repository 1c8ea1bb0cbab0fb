import HexMask

/// What one command line asks for: the files and look of one render, or help, or the version.
///
/// The option table fills it in one argument at a time, so a repeated option simply
/// overwrites the earlier value (the last one wins).
///
/// ```swift
/// let job = try Job(parsing: ["in.jpg", "out.png", "--sides", "8"])
/// // job.action == .render, job.options.sides == 8
/// ```
struct Job: Equatable, Sendable {
  /// What the command does once the arguments are read.
  enum Action: Equatable, Sendable {
    /// Cut `input` into the shape and write `output`.
    case render
    /// Print `--help` and exit.
    case showHelp
    /// Print `hexmask 0.1.0` and exit.
    case showVersion
  }

  /// What to do; `--help` and `--version` replace the default `.render`.
  var action = Action.render
  /// The photo to read, as the user spelled it (`-` is standard input).
  var input = ""
  /// The PNG to write, as the user spelled it (`-` is standard output).
  var output = ""
  /// Everything that decides how the output looks.
  var options = RenderOptions()
}
