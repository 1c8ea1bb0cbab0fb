import Foundation
import TestSupport
import Testing

/// One thing a careless or hostile user does with the built binary, and what must be true
/// afterwards. Each row runs in a fresh folder holding `in.jpg` (the bundled rocket,
/// 640 × 427) and `small.png` (a 32 × 32 PNG), through `/bin/sh`, so rows can redirect to
/// `/dev/full`, close pipes, send signals and make links and FIFOs; `$FIXTURES` is the
/// package's `Fixtures/` folder.
///
/// The harness checks for every row: the exit status; the first line of standard error
/// (exactly, or as a prefix when the expectation ends in `…`; nil: standard error is empty);
/// that the command left no new hexmask temporary file anywhere in the folder; that every file
/// that existed before the command and is not named in `changes` is byte-identical
/// afterwards; and that the row's `check` (a shell condition) holds.
struct HostileCase: Sendable, CustomTestStringConvertible {
  /// What the user does, in words: the name the test report shows.
  var title: String
  /// Shell commands that prepare the folder before the snapshot (links, FIFOs, old outputs).
  var setup = ""
  /// The command under test; `hexmask` is the built binary.
  var command: String
  /// The exit status of `command`.
  var status: Int32
  /// The first line of standard error; a trailing `…` makes it a prefix; nil means none.
  var firstError: String?
  /// Shell condition that must succeed afterwards (`[ -L link.png ]`, `is_png out.png`).
  var check = "true"
  /// Files present before the command that it may change or remove (outputs it replaces).
  var changes: [String] = []

  var testDescription: String { title }
}

@Suite(.tags(.slow, .endToEnd), .outsideTheFastLane) struct HostileUserTests {
  /// The one table: every broken promise found by trying hexmask as a hostile user, by theme.
  static let table: [HostileCase] =
    outputConflictRows + outputFolderRows + oddOutputNameRows + nonRegularOutputRows
    + textOutputRows + extremeValueRows
    + permissionRows + litterRows + duplicateInputRows + rerunRows + messageRows
    + smallThingRows + formatRows + sizeListRows + recipeRows + ineffectiveOptionRows
    + misleadingMessageRows + unixConventionRows + fileNameRows + fileKindRows + photoRows
    + mutationRows + processRows + tryoutRows + recordRows

  @Test(arguments: table)
  func hostileUser(_ row: HostileCase) throws {
    try runHostileCase(row)
  }

  @Test(.disabled(if: getuid() != 0, "only root can give the output to another owner"))
  func aReplacedOutputKeepsItsOwnerAndGroup() throws {
    try runHostileCase(Self.ownerRow)
  }
}

/// Runs `row` in a fresh folder and checks everything the harness promises (see
/// ``HostileCase``). `prepare` puts more files in the folder first (pictures made by the
/// test, which a shell cannot make), before `setup` runs.
func runHostileCase(_ row: HostileCase, prepare: (URL) throws -> Void = { _ in }) throws {
  try withTemporaryFolder { folder in
    try FileManager.default.copyItem(
      atPath: Fixtures.path("photos/rocket.jpg"),
      toPath: folder.appendingPathComponent("in.jpg").path)
    try FileManager.default.copyItem(
      atPath: Fixtures.path("pngsuite/basn2c08.png"),
      toPath: folder.appendingPathComponent("small.png").path)
    try prepare(folder)
    let setup = try shell(row.setup, in: folder)
    #expect(setup.status == 0, "setup failed: \(setup.standardError)")
    let before = try snapshot(folder)

    let run = try shell(row.command, in: folder)
    #expect(run.status == row.status, "status \(run.status); stderr: \(run.standardError)")
    let firstLine =
      run.standardError.split(separator: "\n", omittingEmptySubsequences: false)
      .first.map(String.init) ?? ""
    switch row.firstError {
    case nil:
      #expect(run.standardError.isEmpty, "stderr: \(run.standardError)")
    case let expected? where expected.hasSuffix("…"):
      #expect(firstLine.hasPrefix(String(expected.dropLast())), "stderr: \(run.standardError)")
    case let expected?:
      #expect(firstLine == expected, "stderr: \(run.standardError)")
    }
    #expect(!run.standardError.contains("Fatal error"), "\(run.standardError)")

    let after = try snapshot(folder)
    // Leftovers a row planted on purpose (an old crash's) are the row's check to judge.
    let litter = after.keys.filter { $0.contains(".hexmask-") && before[$0] == nil }
    #expect(litter.isEmpty, "temporary files left: \(litter.sorted())")
    for (path, bytes) in before where !row.changes.contains(path) {
      #expect(after[path] == bytes, "\(path) changed or disappeared")
    }
    let check = try shell(row.check, in: folder)
    #expect(check.status == 0, "check failed: \(row.check)\n\(check.standardError)")
  }
}

/// Every regular file under `folder` (relative path → bytes), hidden ones included; FIFOs,
/// devices and links are left out, links' targets are reached through their own paths.
func snapshot(_ folder: URL) throws -> [String: Data] {
  var files: [String: Data] = [:]
  let base = folder.standardizedFileURL.path
  guard let walker = FileManager.default.enumerator(atPath: base) else { return files }
  while let relative = walker.nextObject() as? String {
    var info = stat()
    guard lstat(base + "/" + relative, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      continue
    }
    files[relative] = FileManager.default.contents(atPath: base + "/" + relative) ?? Data()
  }
  return files
}

/// Helpers every row's shell commands can use.
private let shellPrelude = """
  set -u
  hexmask() { "$HEXMASK" "$@"; }
  # True when FILE starts with the PNG signature.
  is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \\n')" = 89504e470d0a1a0a ]; }
  # The width of the PNG FILE, from its IHDR chunk.
  side() { set -- $(od -An -tu1 -j 16 -N 4 "$1"); echo $(( ($1 << 24) + ($2 << 16) + ($3 << 8) + $4 )); }
  # The octal permission bits of FILE.
  mode() { stat -c %a "$1"; }
  # A Unix socket at PATH (perl is essential on Debian).
  mksock() { perl -MSocket -e 'socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die; bind($s, pack_sockaddr_un($ARGV[0])) or die "$!"' "$1"; }
  # hexmask run as nobody when the tests run as root, whom no permission stops.
  as_user() {
    if [ "$(id -u)" = 0 ]; then
      chmod 777 . && setpriv --reuid=65534 --regid=65534 --clear-groups "$HEXMASK" "$@"
    else "$HEXMASK" "$@"; fi
  }
  # Gives FILE to nobody when the tests run as root, so that its mode is what counts.
  give() { if [ "$(id -u)" = 0 ]; then chown 65534:65534 "$@"; fi; }

  """

/// Runs `script` with `/bin/sh` in `folder`, standard input empty, `HEXMASK` set.
func shell(_ script: String, in folder: URL, timeout: TimeInterval = 60) throws -> ProcessRun {
  var environment = ProcessInfo.processInfo.environment
  environment["HEXMASK"] = try hexmaskExecutable().path
  environment["FIXTURES"] = Fixtures.path("")
  // Foundation starts children with most signals blocked (SIGCHLD among them, which makes
  // `wait` in sh hang); perl (essential on Debian) clears the mask, as a terminal's shell
  // would have it, and becomes /bin/sh.
  let run = try runProcess(
    URL(fileURLWithPath: "/usr/bin/perl"),
    [
      "-e", "use POSIX; sigprocmask(SIG_SETMASK, POSIX::SigSet->new); exec '/bin/sh', @ARGV",
      "--", "-c", shellPrelude + script,
    ],
    in: folder, environment: environment, timeout: timeout)
  if run.timedOut { throw ProcessRunError(description: "`\(script)` ran longer than \(timeout) s") }
  return run
}
