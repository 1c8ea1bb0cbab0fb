import HexMask

/// What one command line asks for: the files and look of one render, or help, or the version.
///
/// The option table fills it in one argument at a time, so a repeated option simply
/// overwrites the earlier value (the last one wins).
///
/// ```swift
/// let job = try Job(parsing: ["in.jpg", "out.png", "--sides", "8"])
/// // job.action == .render, job.options.shape.sides == 8
/// ```
struct Job: Equatable, Sendable {
  /// What the command does once the arguments are read.
  enum Action: Equatable, Sendable {
    /// Cut `input` into the shape and write `output`.
    case render
    /// Cut every photo `inputs` and `batch.listFile` name into `batch.outputFolder`.
    case renderBatch
    /// Write only the mask of a `--size` canvas to `output`: no input.
    case renderMask
    /// Write only the SVG of a `--size` canvas: no input, no output picture.
    case writeShape
    /// Print `--help` and exit.
    case showHelp
    /// Print `hexmask 0.1.0` and exit.
    case showVersion
    /// Print a completion script for `--completions` and exit.
    case showCompletions(Shell)
    /// Print the manual page (roff) for `--man` and exit.
    case showManPage
  }

  /// What to do; `--help` and `--version` replace the default `.render`.
  var action = Action.render
  /// The photo to read, as the user spelled it (`-` is standard input).
  var input = ""
  /// The PNG to write, as the user spelled it (`-` is standard output).
  var output = ""
  /// Everything that decides how the output looks.
  var options = RenderSettings()
  /// Where `--svg` writes the shape, if anywhere.
  var svgOutput: String?
  /// The files and folders of a batch, as the user spelled them.
  var inputs: [String] = []
  /// How a batch finds, names and reports its files.
  var batch = BatchSettings()
  /// The long names (`quality`, not `--quality`) of the options given on the command line,
  /// so an option set to its default can be told from one left out.
  var givenOptions: Set<String> = []
  /// Every value an option was given that the same option given again replaced, in order,
  /// so a run can say it ignored them; `givenValues` holds each option's latest.
  var replacedValues: [ReplacedValue] = []
  var givenValues: [String: String] = [:]
  /// `--gravity face`: the run reads the face model and makes the crop `.faces(model)`
  /// before it renders (see ``GravityWord/assign(to:)``).
  var faceCrop = false
  /// The cascade files the run read the face model from (none until it reads it): inputs
  /// no output may replace.
  var faceModelFiles: [CascadeFile] = []
}

/// A value an option was given before the same option was given another: `--svg a.svg
/// --svg b.svg`, `--size 64 --size 128`.
struct ReplacedValue: Equatable, Sendable {
  var option: String
  var value: String
  /// The later value, which stands.
  var by: String
}

extension Job {
  /// The pictures a single-file command writes: OUTPUT once per size, `{size}` filled in.
  var outputFiles: [SizedFile] { SizedFile.each(output, sizes: options.outputSizes) }

  /// The SVG files `--svg` writes, once per size; none without `--svg`.
  var svgFiles: [SizedFile] {
    svgOutput.map { SizedFile.each($0, sizes: options.outputSizes) } ?? []
  }
}

/// One output of a command and the size it is made at (nil: the square's own size).
struct SizedFile: Equatable, Sendable {
  var path: String
  var size: Int?

  /// `name` for each of `sizes`, with `{size}` replaced by the size.
  static func each(_ name: String, sizes: [Int?]) -> [SizedFile] {
    sizes.map { size in
      SizedFile(
        path: size.map { name.replacing(sizePlaceholder, with: String($0)) }
          ?? name,
        size: size)
    }
  }
}

/// The placeholder an output name holds where each size goes.
let sizePlaceholder = "{size}"

/// The settings of batch mode, which `--out-dir` turns on.
struct BatchSettings: Equatable, Sendable {
  /// The folder outputs are written to; nil outside batch mode.
  var outputFolder: String?
  /// Descend into subfolders and mirror them.
  var recursive = false
  /// Descend into symbolic links to folders too.
  var followSymlinks = false
  /// A file listing inputs, `-` for standard input.
  var listFile: String?
  /// The list is separated by NUL bytes (`find -print0`) instead of line breaks.
  var nulSeparated = false
  /// How outputs are named.
  var nameTemplate: NameTemplate?
  /// Files rendered at once; nil means one per available core.
  var jobs: Int?
  /// Replace existing outputs instead of skipping them.
  var overwrite = false
  /// List what would be written, write nothing.
  var dryRun = false
  /// How much is said on standard error.
  var verbosity = Verbosity.normal
  /// One JSON object per file on standard output.
  var json = false
  /// Render only this shard of the inputs; nil: all of them.
  var shard: Shard?
  /// `--records`: the folder the rerun records are kept in; nil: `.hexmask` inside the
  /// output folder.
  var recordFolder: String?
}

/// Shard `index` of `count`: the inputs whose path hashes to `index`. Which shard a file
/// belongs to depends on its path as the output name sees it (``BatchItem/shardKey``; FNV-1a
/// of it, modulo `count`) alone, so it does not change with listing order, the machine,
/// other files or the options, and the shards of one command are disjoint and together
/// complete.
struct Shard: Equatable, Sendable {
  var index: Int
  var count: Int

  /// True when the input with this ``BatchItem/shardKey`` belongs to this shard.
  func contains(_ shardKey: String) -> Bool {
    fnv1a(shardKey) % UInt64(count) == UInt64(index)
  }
}

/// How much a batch says on standard error.
enum Verbosity: Equatable, Sendable {
  /// Only errors.
  case quiet
  /// Errors, warnings, progress on a terminal and a summary.
  case normal
  /// All of that and a line per file.
  case verbose
}
