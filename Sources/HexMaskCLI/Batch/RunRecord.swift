import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a batch remembers about an output it wrote, so that a rerun rebuilds exactly the
/// outputs whose input, options or hexmask version changed, and skips the rest.
///
/// A record is one short line in a file of its own, beside the outputs in a hidden folder
/// that mirrors them (`DIR/.hexmask/2024/a.png.rec` for `DIR/2024/a.png`):
///
/// ```
/// hexmask-record 1 9f3c0e7a21b4d856 48213 1764590400.123456789
/// ```
///
/// - the **recipe**: a digest of the input's size and modification time, every option that
///   shapes the output, and ``outputVersion``. Only the digest is kept: no path, no option
///   value, nothing private, even in a folder that is published whole;
/// - the **output's size and modification time** as written. An output replaced since — by
///   another process writing the same folder with other options, or by hand — no longer
///   matches, so a record can never vouch for a file it did not see written.
///
/// The output is put in place before its record, each atomically, so `kill -9` at any moment
/// leaves at worst an output without a matching record, which the next run rebuilds. Checking
/// costs a `stat` of the input and of the output and one small read.
struct RunRecord: Equatable, Sendable {
  /// Digest of what made the output; see ``recipe(input:options:version:)``.
  var recipe: UInt64
  /// The output as it was put in place.
  var output: FileStamp

  init(recipe: UInt64, output: FileStamp) {
    self.recipe = recipe
    self.output = output
  }

  /// The line stored in the record file.
  var line: String {
    let digest = String(recipe, radix: 16)
    return "\(Self.magic) \(String(repeating: "0", count: 16 - digest.count))\(digest) \(output)\n"
  }

  /// Reads a record line; nil for anything else (another version's format, damage).
  init?(line: String) {
    let fields = line.split(separator: " ")
    guard fields.count == 5, "\(fields[0]) \(fields[1])" == Self.magic,
      let recipe = UInt64(fields[2], radix: 16), let size = Int64(fields[3])
    else { return nil }
    let time = fields[4].split(separator: ".")
    guard time.count == 2, let seconds = Int64(time[0]),
      let nanoseconds = Int64(time[1].trimmingSuffix("\n"))
    else { return nil }
    self.init(
      recipe: recipe, output: FileStamp(size: size, seconds: seconds, nanoseconds: nanoseconds))
  }

  /// Reads the record file at `path`; nil when there is none or it cannot be read.
  init?(contentsOf path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    self.init(line: String(decoding: buffer[..<count], as: UTF8.self))
  }

  /// Stores the record at `path` atomically, creating its folders.
  func write(to path: String) throws(FileFailure) {
    // A folder that cannot be made shows up as the write's error.
    createFolder(parentFolder(of: path))
    let file = try OutputFile(path: path)
    guard fputs(line, file.stream) >= 0 else {
      throw FileFailure(file: path, reason: "cannot write: \(systemError())")
    }
    try file.commit()
  }

  /// The digest of what makes an output from `input` with `options`; see ``Recipe``.
  static func recipe(
    input: FileStamp, options: RenderSettings, version: Int = outputVersion
  ) -> UInt64 {
    Recipe(options: options, version: version).digest(input: input)
  }

  private static let magic = "hexmask-record 1"
}

/// What makes an output, as a digest: every render option (except the thread count, which
/// never changes the bytes), the version of hexmask's output, and the input's size and
/// modification time. FNV-1a, 64 bits: stable across runs and machines, unlike Swift's
/// seeded `Hasher`.
///
/// The options part is hashed once per batch (describing the options is the slow part),
/// each input's stamp on top of it.
///
/// ```swift
/// let recipe = Recipe(options: options)
/// let digest = recipe.digest(input: FileStamp(path: "in.jpg")!)
/// ```
struct Recipe: Sendable {
  private let optionsHash: UInt64

  init(options: RenderSettings, version: Int = outputVersion) {
    var options = options
    options.output.threads = 1
    // How much memory decoding may take changes when a render runs, never its bytes.
    options.memoryLimit = nil
    options.input.memoryBudget = nil
    optionsHash = fnv1a("version \(version)\noptions \(options)\n")
  }

  /// The recipe of each size among `items` (each output is recorded as if made alone at
  /// its size), the options hashed once per size.
  static func bySize(of items: [BatchItem], options: RenderSettings) -> [Int?: Recipe] {
    var recipes: [Int?: Recipe] = [:]
    for size in Set(items.map(\.size)) {
      recipes[size] = Recipe(options: options.forOutput(size: size))
    }
    return recipes
  }

  /// The digest for an output made from an input with this stamp.
  func digest(input: FileStamp) -> UInt64 {
    fnv1a("input \(input)", from: optionsHash)
  }
}

/// FNV-1a over the UTF-8 of `text`, continuing from `hash`: stable across runs and
/// machines, unlike Swift's seeded `Hasher`.
func fnv1a(_ text: String, from hash: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
  var hash = hash
  for byte in text.utf8 {
    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
  }
  return hash
}

/// The version of what hexmask writes for a given input and options. Raise it whenever a
/// change makes the same input and options give different bytes, so reruns rebuild outputs
/// made by older versions. 3: a large WebP is scaled by libwebp while decoding.
let outputVersion = 3

/// Why a batch writes an output, as `--json` reports it.
enum WriteReason: String, Sendable, Equatable {
  /// There was no output yet.
  case new
  /// The output exists, but its input, options or hexmask version differ from the ones it
  /// was made with, it was changed since, or nothing records how it was made.
  case changed
  /// The output was up to date, and `--force` asked to rebuild it anyway.
  case forced
}

/// Whether `item`'s output must be (re)built, and why; nil when it is up to date.
///
/// Items without a record path keep the simple rule: an existing output is up to date.
func rerunReason(for item: BatchItem, recipe: Recipe, force: Bool) -> WriteReason? {
  guard let outputNow = FileStamp(path: item.output) else { return .new }
  guard let recordPath = item.record else { return force ? .forced : nil }
  guard let inputNow = FileStamp(path: item.input),
    let record = RunRecord(contentsOf: recordPath),
    record.output == outputNow,
    record.recipe == recipe.digest(input: inputNow)
  else { return .changed }
  return force ? .forced : nil
}

extension Substring {
  fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
    hasSuffix(suffix) ? dropLast(suffix.count) : self
  }
}
