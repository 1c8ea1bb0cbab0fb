import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an existing output is not replaced.
///
/// `hexmask *.png` with exactly two pictures names the second one as OUTPUT, the classic
/// trap of `cp *.png`. No look at a file can tell a photo from a picture hexmask made, so
/// the rule is the other way round: without `--force`, hexmask replaces only what it made
/// itself (a file carrying its mark, ``HexMaskMark``, or one a rerun record names,
/// unchanged since) and an empty file. And replacing keeps a file's owner, so nobody's
/// file becomes someone else's, not even with `--force`.
enum ReplacementRefusal: Equatable, Sendable {
  /// The file is neither marked nor recorded nor empty: `what` says what it is
  /// ("a 512×512 PNG", "a text file").
  case notMadeByHexMask(what: String)
  /// `access(2)` says the user may not write their own file (read-only): `--force`
  /// replaces it; `reason` is the system's.
  case notWritable(reason: String)
  /// Another user's file (`owner` is its user ID), writable or not: replaced through the
  /// folder it would become the user's, since only root may give a file to someone else,
  /// so it is never replaced.
  case anotherUsersFile(owner: uid_t)
  /// A file of the user's whose group (`group`) they are not in, where the new file could
  /// not be given that group: replacing would change it, so it is never replaced.
  case anotherGroupsFile(group: gid_t)
  /// Not a regular file (`kind`: "a FIFO", "a device", "a socket") where a batch writes:
  /// a batch writes only files, since a FIFO would wait for a reader, unstoppably.
  case notAFile(kind: String)
  /// The file cannot be read, so nothing shows that hexmask made it: `--force` replaces
  /// it; `reason` is the system's.
  case unreadable(reason: String)

  /// The refusal for replacing the file `path` names, if any: nil when nothing is there,
  /// when it is no regular file (a FIFO or device is written to, not replaced), or when it
  /// may be replaced. `force` lifts every refusal but another user's or group's file;
  /// `recorded` says that a rerun record names the file as it is now; `filesOnly` (a
  /// batch) refuses anything there that is not a regular file.
  ///
  /// - Complexity: one `stat`, one `access`, one read of at most 256 KiB and, for a WebP
  ///   or AVIF, one small read a chunk or box.
  init?(replacing path: String, force: Bool, recorded: Bool = false, filesOnly: Bool = false) {
    guard path != "-", descriptorNamed(by: path) == nil else { return nil }
    var info = stat()
    guard path.withFileName({ stat($0, &info) }) == 0 else { return nil }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      let kinds = [
        S_IFIFO: "a FIFO", S_IFCHR: "a device", S_IFBLK: "a device", S_IFSOCK: "a socket",
      ]
      guard filesOnly, let kind = kinds[info.st_mode & S_IFMT] else { return nil }
      self = .notAFile(kind: kind)
      return
    }
    // Replacing keeps the owner, which only root can give to a new file: another user's
    // file would become this user's, even one they may write (in a shared folder).
    if info.st_uid != geteuid() && geteuid() != 0 {
      self = .anotherUsersFile(owner: info.st_uid)
      return
    }
    if !newFileCanHaveGroup(info.st_gid, in: parentFolder(of: (try? followLinks(path)) ?? path)) {
      self = .anotherGroupsFile(group: info.st_gid)
      return
    }
    // A read-only file system is no permission --force could override: the write itself
    // then fails with that reason.
    if path.withFileName({ access($0, W_OK) }) != 0 && errno != EROFS {
      let reason = systemError()
      if !force {
        self = .notWritable(reason: reason)
        return
      }
    }
    guard !force, !recorded, info.st_size > 0 else { return nil }
    guard let file = ExistingFile(path: path) else {
      self = .unreadable(reason: systemError())
      return
    }
    if file.carriesMark { return nil }
    self = .notMadeByHexMask(what: file.description)
  }
}

extension ReplacementRefusal {
  /// The refusal as one file's failure, for a batch (which goes on with the other files).
  func failure(_ path: String) -> FileFailure {
    switch self {
    case .notMadeByHexMask(let what):
      FileFailure(
        file: path, reason: "exists and was not made by hexmask (\(what)); --force replaces it")
    case .notWritable(let reason):
      FileFailure(file: path, reason: "cannot replace it: \(reason) (--force replaces it)")
    case .unreadable(let reason):
      FileFailure(
        file: path,
        reason: "cannot tell whether hexmask made it: \(reason) (--force replaces it)")
    case .anotherGroupsFile(let group):
      FileFailure(
        file: path,
        reason: "cannot replace it: its group (gid \(group)) is not one of yours, and replacing "
          + "keeps the owner and group, so not even --force does (remove it first)")
    case .notAFile(let kind):
      FileFailure(
        file: path,
        reason: "exists and is \(kind); a batch writes only files (name another output)")
    case .anotherUsersFile(let owner):
      FileFailure(
        file: path,
        reason: "cannot replace it: it is another user's (uid \(owner)), and replacing keeps "
          + "the owner, so not even --force does (remove it first)")
    }
  }
}

/// An existing file, read as far as needed to tell whether hexmask made it and to say
/// what it is.
final class ExistingFile: CustomStringConvertible {
  /// Its first bytes (at most 256 KiB): what it is, and where every mark but WebP's and
  /// AVIF's is (``HexMaskMark/searchedHead``).
  private(set) var head: [UInt8] = []
  /// Its size in bytes.
  let size: Int
  /// The open file, or -1 for a file given as bytes.
  private let descriptor: Int32
  private let bytes: [UInt8]

  /// Opens the file at `path` (closed when this is gone); nil when it cannot be read.
  init?(path: String) {
    descriptor = path.withFileName { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
    bytes = []
    var info = stat()
    guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
      if descriptor >= 0 { close(descriptor) }
      return nil
    }
    size = Int(info.st_size)
    head = read(0, HexMaskMark.searchedHead)
  }

  /// A file of `bytes` (for tests).
  init(bytes: [UInt8]) {
    descriptor = -1
    self.bytes = bytes
    size = bytes.count
    head = Array(bytes.prefix(HexMaskMark.searchedHead))
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Up to `count` bytes from `offset`; fewer at the end of the file or on an error.
  private func read(_ offset: Int, _ count: Int) -> [UInt8] {
    guard offset >= 0, count > 0 else { return [] }
    // The mark's walk reads what the head already holds again: no second read for it.
    if offset < head.count && count <= head.count - offset {
      return Array(head[offset..<offset + count])
    }
    guard descriptor >= 0 else {
      guard offset < bytes.count else { return [] }
      return Array(bytes[offset..<min(bytes.count, offset + count)])
    }
    var got = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let step = got[done...].withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, off_t(offset + done))
      }
      if step < 0 && errno == EINTR { continue }
      if step <= 0 { break }
      done += step
    }
    return Array(got[..<done])
  }

  /// True when the file carries hexmask's mark where its format keeps it: the library,
  /// whose writers put it there, walks the container to find it.
  var carriesMark: Bool { HexMaskMark.isPresent(in: FileBytes(size: size, read: read)) }

  /// What the file is, for a message: "a 512×512 PNG", "a GIF", "a text file",
  /// "a 3 byte file".
  var description: String {
    if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
      return "a TIFF or camera raw file"
    }
    if head.starts(with: Array("GIF8".utf8)) {
      return sized("GIF", ImageFormat.gif.statedSize(in: head))
    }
    if head.starts(with: Array("BM".utf8)) && head.count >= 26 {
      return sized("BMP", (littleEndian(18, 4), littleEndian(22, 4)))
    }
    if let format = ImageFormat(sniffing: head) {
      return sized(format.displayName, format.statedSize(in: head))
    }
    if looksLikeText { return "a text file" }
    return "a \(size) byte file"
  }

  /// True when the head is UTF-8 (up to a character the read cut) without control
  /// characters other than tab, line and page breaks.
  private var looksLikeText: Bool {
    let controls = head.contains { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }
    guard !controls, !head.isEmpty else { return false }
    let cut = head.count < size ? 3 : 0
    return (0...cut).contains { String(validating: head.dropLast($0), as: UTF8.self) != nil }
  }

  /// "a 512×512 PNG" with a size, "a PNG" without.
  private func sized(_ name: String, _ size: (width: Int, height: Int)?) -> String {
    guard let size, size.width > 0, size.height > 0 else { return article(name) + " " + name }
    let text = "\(size.width)×\(size.height)"
    return "\(article(text)) \(text) \(name)"
  }

  private func littleEndian(_ at: Int, _ count: Int) -> Int {
    head[at..<at + count].reversed().reduce(0) { $0 << 8 | Int($1) }
  }
}

/// "an" before a number said with a vowel (8…, 11, 18, 11 000…), else "a".
private func article(_ word: String) -> String {
  let digits = word.prefix(while: \.isNumber)
  if digits.isEmpty { return "AEIOU".contains(word.first ?? "x") ? "an" : "a" }
  if digits.hasPrefix("8") { return "an" }
  let group = digits.count % 3
  if group == 2 && (digits.hasPrefix("11") || digits.hasPrefix("18")) { return "an" }
  return "a"
}

/// True when a new file in `folder` can be given the group `group`: for root, a member of
/// it, or in a set-group-ID folder of that group (whose new files take its group).
private func newFileCanHaveGroup(_ group: gid_t, in folder: String) -> Bool {
  if geteuid() == 0 || getegid() == group { return true }
  var info = stat()
  if folder.withFileName({ stat($0, &info) }) == 0, info.st_mode & S_ISGID != 0,
    info.st_gid == group
  {
    return true
  }
  let count = getgroups(0, nil)
  guard count > 0 else { return false }
  var groups = [gid_t](repeating: 0, count: Int(count))
  let got = getgroups(count, &groups)
  return groups.prefix(max(0, Int(got))).contains(group)
}
