/// Hostile-user rows about text on full disks and closed pipes, and absurd finite values
/// (issue 10, items 3 and 4).
extension HostileUserTests {
  static let textOutputRows: [HostileCase] =
    ["--help", "--version", "--man", "--completions bash"].map { command in
      HostileCase(
        title: "hexmask \(command) > /dev/full says so in one line",
        command: keepingStandardError("hexmask \(command) > /dev/full"), status: 1,
        firstError: fullStandardOutput, check: lineCount(1))
    } + [
      HostileCase(
        title: "a batch whose --json goes to /dev/full still writes its files",
        command: "hexmask small.png in.jpg --out-dir out --json --quiet > /dev/full", status: 1,
        firstError: fullStandardOutput, check: "is_png out/small.png && is_png out/in.png"),
      HostileCase(
        title: "the lost --json is reported once, after the batch's summary",
        command: keepingStandardError("hexmask small.png --out-dir out --json > /dev/full"),
        status: 1, firstError: "hexmask: 1 written, 0 skipped, 0 failed in …",
        check: lineCount(2) + " && [ \"$(tail -n 1 stderr.txt)\" = '\(fullStandardOutput)' ]"),
      HostileCase(
        title: "--dry-run > /dev/full writes nothing and says so",
        command: keepingStandardError("hexmask small.png --out-dir out --dry-run > /dev/full"),
        status: 1, firstError: fullStandardOutput, check: lineCount(1) + " && [ ! -e out ]"),
      HostileCase(
        title: "--dry-run --json > /dev/full",
        command: "hexmask small.png --out-dir out --dry-run --json > /dev/full", status: 1,
        firstError: fullStandardOutput, check: "[ ! -e out ]"),
      HostileCase(
        title: "a usage error to a full stderr keeps status 2",
        command: "hexmask --sides 2 small.png out.png 2>/dev/full", status: 2, firstError: nil,
        check: "[ ! -e out.png ]"),
      HostileCase(
        title: "a missing input reported to a full stderr keeps status 1",
        command: "hexmask missing.jpg out.png 2>/dev/full", status: 1, firstError: nil,
        check: "[ ! -e out.png ]"),
      HostileCase(
        title: "a warning lost on a full stderr makes the run fail, the picture is written",
        setup: "head -c 30000 in.jpg > cut.jpg",
        command: "hexmask cut.jpg out.png 2>/dev/full", status: 1, firstError: nil,
        check: "is_png out.png"),
      HostileCase(
        title: "a batch's summary lost on a full stderr makes it fail, the files are written",
        command: "hexmask small.png --out-dir out 2>/dev/full", status: 1, firstError: nil,
        check: "is_png out/small.png"),
      HostileCase(
        title: "--help with both stdout and stderr full",
        command: "hexmask --help > /dev/full 2>/dev/full", status: 1, firstError: nil),
      HostileCase(
        title: "--man into a pipe already closed ends quietly with 141 (SIGPIPE)",
        command: intoClosedPipe("hexmask --man"), status: 141, firstError: nil),
      HostileCase(
        title: "--man into a closed pipe with SIGPIPE ignored ends quietly with 141",
        command: "trap '' PIPE; " + intoClosedPipe("hexmask --man"), status: 141,
        firstError: nil),
      HostileCase(
        title: "a batch's --json into a closed pipe with SIGPIPE ignored: files written, 141",
        command: "trap '' PIPE; "
          + intoClosedPipe("hexmask small.png in.jpg --out-dir out --json --quiet"),
        status: 141, firstError: nil, check: "is_png out/small.png && is_png out/in.png"),
      HostileCase(
        title: "a usage error into a closed pipe with SIGPIPE ignored ends quietly with 141",
        command: "trap '' PIPE; " + intoClosedPipe("hexmask --sides 2 small.png out.png 2>&1"),
        status: 141, firstError: nil, check: "[ ! -e out.png ]"),
    ]

  static let extremeValueRows: [HostileCase] = []

  /// What hexmask says when standard output is a full disk.
  private static let fullStandardOutput =
    "hexmask: <stdout>: cannot write: No space left on device"

  /// `command`, with its standard error also kept in `stderr.txt` for `lineCount`.
  private static func keepingStandardError(_ command: String) -> String {
    "\(command) 2>stderr.txt; status=$?; cat stderr.txt >&2; exit $status"
  }

  /// A check that the command wrote exactly `count` lines on standard error.
  private static func lineCount(_ count: Int) -> String {
    "[ \"$(wc -l < stderr.txt)\" -eq \(count) ]"
  }

  /// `command` with its standard output a pipe whose reader has already gone, so its first
  /// write meets a closed pipe; the row's status is `command`'s own (sh has no pipefail).
  /// The reader closes its end, then lets the writer start through a FIFO.
  private static func intoClosedPipe(_ command: String) -> String {
    "mkfifo ready; { read go < ready; \(command); echo $? > status; } "
      + "| { exec 0<&-; echo > ready; }; exit \"$(cat status)\""
  }
}
