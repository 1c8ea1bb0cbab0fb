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
/// hexmask-record 4 9f3c0e7a21b4d856 427 48213 1764590400.123456789 1764590400.125000001 2049:1311 640x427 pc
/// ```
///
/// - the **recipe**: a digest of the input's size and modification time, the
///   ``effectiveRecipe(of:side:format:)`` of the output, and ``outputVersion``. Only the
///   digest is kept: no path, no option value, nothing private, even in a folder that is
///   published whole;
/// - the **side** of the output, which the effective recipe is resolved at (a default
///   corner shrinks on a small canvas; a `--corner 10` given explicitly equals it only where
///   10 fits);
/// - the **output's size, modification time, change time (ctime) and device:inode** as
///   written. An output replaced since — by another process writing the same folder with
///   other options, by hand, or by a copy that keeps size and modification time (`cp -p`,
///   `rsync -a`, `touch -r`) — no longer matches, so a record can never vouch for a file it
///   did not see written. Records of version 3 and 2 kept no identity: they vouch only for an
///   output whose ctime is not later than the record file itself;
/// - the **picture's facts** (``HexMask/PictureFacts``: its upright size, and whether it
///   had a colour profile, an EXIF turn, damage, and was known to be a still), which the
///   recipe is resolved with, so an option that cannot act on this input leaves the digest
///   as it was.
///
/// The output is put in place before its record, each atomically, so `kill -9` at any moment
/// leaves at worst an output without a matching record, which the next run rebuilds. Checking
/// costs a `stat` of the input and of the output and one small read.
struct RunRecord: Equatable, Sendable {
  /// Digest of what made the output; see ``Recipe``.
  var recipe: UInt64
  /// The side of the output, in pixels.
  var side: Int
  /// The output as it was put in place.
  var output: FileStamp
  /// What the input was (its upright size; whether it had a profile, a turn, damage, one
  /// frame), which the recipe is resolved with; nil in records of version 2, which kept none.
  var picture: HexMask.PictureFacts?
  /// When the record file was written (its modification time), for a record that kept no
  /// identity of its output; nil for one not read from a file.
  var written: FileTime?

  /// Equal records say the same; when each was read does not count.
  static func == (left: RunRecord, right: RunRecord) -> Bool {
    (left.recipe, left.side, left.output) == (right.recipe, right.side, right.output)
      && left.picture == right.picture
  }

  init(recipe: UInt64, side: Int, output: FileStamp, picture: HexMask.PictureFacts? = nil) {
    self.recipe = recipe
    self.side = side
    self.output = output
    self.picture = picture
  }

  /// The line stored in the record file: version 4 with the output's identity
  /// (`ctime device:inode`) and the picture's facts, as `640x427 pcs` (`p`: a colour
  /// profile, `o`: an EXIF turn, `c`: clean, `s`: known to be a still; `-`: none of them).
  /// Records written before `s` was kept lack it, and so count as not known to be stills:
  /// their digests were taken so, and still match. Without identity or facts (a stamp not
  /// taken from a file, tests), the older versions' lines.
  var line: String {
    let digest = String(recipe, radix: 16)
    let padded = String(repeating: "0", count: 16 - digest.count) + digest
    guard let picture else { return "\(Self.magic) \(padded) \(side) \(output)\n" }
    let flags =
      (picture.hasColorProfile ? "p" : "") + (picture.isTurned ? "o" : "")
      + (picture.isClean ? "c" : "") + (picture.isStill ? "s" : "")
    let facts = "\(picture.width)x\(picture.height) \(flags.isEmpty ? "-" : flags)\n"
    guard let identity = output.identity else {
      return "\(Self.factsMagic) \(padded) \(side) \(output) \(facts)"
    }
    let changed = "\(identity.changed.seconds).\(identity.changed.nanoseconds)"
    let file = "\(identity.file.device):\(identity.file.inode)"
    return "\(Self.identityMagic) \(padded) \(side) \(output) \(changed) \(file) \(facts)"
  }

  /// Reads a record line of version 2, 3 or 4; nil for anything else (another version's
  /// format, damage).
  init?(line: String) {
    var fields = Substring(line).trimmingSuffix("\n").split(separator: " ")
    let magic = fields.count >= 2 ? "\(fields[0]) \(fields[1])" : ""
    var identity: FileStamp.Identity?
    if magic == Self.identityMagic && fields.count == 10 {
      let file = fields[7].split(separator: ":")
      guard let changed = Self.time(fields[6]), file.count == 2,
        let device = UInt64(file[0]), let inode = UInt64(file[1])
      else { return nil }
      identity = FileStamp.Identity(
        file: FileIdentity(device: device, inode: inode), changed: changed)
      fields.removeSubrange(6...7)
    } else if magic == Self.identityMagic {
      return nil
    }
    guard
      (magic == Self.magic && fields.count == 6)
        || ((magic == Self.factsMagic || identity != nil) && fields.count == 8),
      let recipe = UInt64(fields[2], radix: 16), let side = Int(fields[3]), side > 0,
      let size = Int64(fields[4]), let time = Self.time(fields[5])
    else { return nil }
    var picture: HexMask.PictureFacts?
    if fields.count == 8 {
      let sides = fields[6].split(separator: "x")
      let flags = fields[7]
      guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
        width > 0, height > 0, flags == "-" || flags.allSatisfy({ "pocs".contains($0) })
      else { return nil }
      picture = HexMask.PictureFacts(
        width: width, height: height, hasColorProfile: flags.contains("p"),
        isTurned: flags.contains("o"), isClean: flags.contains("c"),
        isStill: flags.contains("s"))
    }
    var output = FileStamp(size: size, seconds: time.seconds, nanoseconds: time.nanoseconds)
    output.identity = identity
    self.init(recipe: recipe, side: side, output: output, picture: picture)
  }

  /// `seconds.nanoseconds` as a record writes a time; nil for anything else.
  private static func time(_ field: Substring) -> FileTime? {
    let parts = field.split(separator: ".")
    guard parts.count == 2, let seconds = Int64(parts[0]), let nanoseconds = Int64(parts[1])
    else { return nil }
    return FileTime(seconds: seconds, nanoseconds: nanoseconds)
  }

  /// Reads the record file at `path`; nil when there is none, it cannot be read, or it is
  /// no regular file there (a symbolic link, a FIFO, which is never waited on).
  init?(contentsOf path: String) {
    guard let (line, written) = firstRecordBytes(at: path) else { return nil }
    self.init(line: String(decoding: line, as: UTF8.self))
    self.written = written
  }

  /// Stores the record at `path`, creating its folders, by an atomic rename onto that path
  /// itself: a symbolic link there is replaced as a link, its target never written. An
  /// entry already there is replaced only when it is a hexmask record (a regular file
  /// whose first line is a record line of any version); anything else (a link, a file of
  /// the user's, a folder, a FIFO) is left alone, and the write fails saying what it is.
  func write(to path: String) throws(FileFailure) {
    // A folder that cannot be made shows up as the write's error.
    createFolder(parentFolder(of: path))
    var existing = stat()
    let exists = path.withFileName { lstat($0, &existing) } == 0
    if !exists && errno != ENOENT {
      throw FileFailure(file: path, reason: "cannot write: \(systemError())")
    }
    if exists, let what = Self.notARecord(at: path, info: existing) {
      throw FileFailure(file: path, reason: "cannot write: \(what) is in the way and is left alone")
    }
    let temporary = try TemporaryFile(beside: path, name: path)
    let stream = try temporary.openStream(replacing: exists ? existing : nil, name: path)
    guard fputs(line, stream) >= 0, fflush(stream) == 0 else {
      let reason = systemError()
      fclose(stream)
      temporary.discard()
      throw FileFailure(file: path, reason: "cannot write: \(reason)")
    }
    // A rename or link never follows a link at `path`: whatever is there now is replaced.
    try temporary.publish(as: path, closing: stream, name: path)
  }

  /// What the entry at `path` (`info`: its `lstat`) is when it is no hexmask record, which
  /// a record must not replace; nil for a record.
  private static func notARecord(at path: String, info: stat) -> String? {
    switch info.st_mode & S_IFMT {
    case S_IFLNK: return "a symbolic link"
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO"
    case S_IFSOCK: return "a socket"
    case S_IFREG: break
    default: return "a device"
    }
    guard let (bytes, _) = firstRecordBytes(at: path),
      bytes.starts(with: Array(recordMagicPrefix.utf8))
    else { return "a file that is not a hexmask record" }
    return nil
  }

  /// The digest of what makes an output of `side` pixels in `format` from `input` with
  /// `options`; see ``Recipe``.
  static func recipe(
    input: FileStamp, side: Int, options: RenderSettings, format: OutputFormat = .png,
    version: Int = outputVersion, picture: HexMask.PictureFacts? = nil
  ) -> UInt64 {
    Recipe(options: options, version: version).digest(
      input: input, side: side, format: format, picture: picture)
  }

  // Version 1 hashed Swift's description of the options, which a toolchain may change, and
  // kept no side; its records are not read, so outputs made by older versions are rebuilt.
  // Version 2 keeps no facts of the picture: its digest is of the whole recipe, still
  // checked as such, so an upgrade rebuilds nothing; each output gets version 3 when next
  // written.
  // Version 3 keeps the output's size and modification time only, which a copy keeps too
  // (`cp -p`): it vouches only for an output unchanged since the record was written.
  private static let magic = "\(recordMagicPrefix)2"
  private static let factsMagic = "\(recordMagicPrefix)3"
  private static let identityMagic = "\(recordMagicPrefix)4"
}

/// How every record line starts, whatever its version: `hexmask-record N …`. A file that
/// starts so is a record hexmask may replace, even one of a version it no longer reads.
private let recordMagicPrefix = "hexmask-record "

/// The first bytes (at most 256, a record line) of the regular file at `path`, opened
/// without following a link and without waiting (a FIFO), and when it was written; nil when
/// there is none, it is no regular file or it cannot be read.
private func firstRecordBytes(at path: String) -> (ArraySlice<UInt8>, FileTime)? {
  let descriptor = path.withFileName {
    open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
  }
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var info = stat()
  guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
  var buffer = [UInt8](repeating: 0, count: 256)
  let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
  guard count > 0 else { return nil }
  return (buffer[..<count], FileTime(modificationTime(info)))
}

/// What makes an output, as a digest: its ``effectiveRecipe(of:side:format:)``, the version
/// of hexmask's output, and the input's size and modification time. FNV-1a, 64 bits: stable
/// across runs and machines, unlike Swift's seeded `Hasher`.
///
/// ```swift
/// let recipe = Recipe(options: options)
/// let digest = recipe.digest(input: FileStamp(path: "in.jpg")!, side: 256, format: .png)
/// ```
struct Recipe: Sendable {
  private let options: RenderSettings
  private let version: Int

  init(options: RenderSettings, version: Int = outputVersion) {
    self.options = options
    self.version = version
  }

  /// The recipe of each size among `items` (each output is recorded as if made alone at
  /// its size).
  static func bySize(of items: [BatchItem], options: RenderSettings) -> [Int?: Recipe] {
    var recipes: [Int?: Recipe] = [:]
    for size in Set(items.map(\.size)) {
      recipes[size] = Recipe(options: options.forOutput(size: size))
    }
    return recipes
  }

  /// The format the output `path` is written in: `--format`, else its extension (a name
  /// that names none fails before anything is recorded).
  func format(of path: String) -> OutputFormat {
    options.format ?? OutputFormat(forPath: path) ?? .png
  }

  /// The digest for an output of `side` pixels in `format` made from an input with this
  /// stamp and these facts (nil: unknown, every option counts).
  func digest(
    input: FileStamp, side: Int, format: OutputFormat, picture: HexMask.PictureFacts? = nil
  ) -> UInt64 {
    let recipe = effectiveRecipe(of: options, side: side, format: format, picture: picture)
    return fnv1a("version \(version)\n\(recipe)input \(input)\n")
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
/// made by older versions. 3: a `--background` that is not opaque keeps its transparency in
/// PNG and WebP instead of being taken as opaque, and a large WebP is scaled by libwebp
/// while decoding. 4: every output carries hexmask's mark (``HexMaskMark``), so a rerun
/// rebuilds older outputs, which their records vouch for. 5: a `.webp`, or a `.png`
/// without a palette, of an APNG or animated WebP moves (every frame), where older
/// versions wrote its first frame; a record knows no more of its input than its size and
/// time, so only the version can tell those outputs stale.
let outputVersion = 5

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
    record.output.vouches(for: outputNow, recordWritten: record.written),
    record.recipe
      == recipe.digest(
        input: inputNow, side: record.side, format: recipe.format(of: item.output),
        picture: record.picture)
  else { return .changed }
  return force ? .forced : nil
}

extension Substring {
  fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
    hasSuffix(suffix) ? dropLast(suffix.count) : self
  }
}
