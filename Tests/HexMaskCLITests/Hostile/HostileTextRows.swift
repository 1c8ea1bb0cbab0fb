/// Hostile-user rows about text on full disks and closed pipes, and absurd finite values.
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
        title: "a batch's --json into a closed pipe with SIGPIPE ignored: the running file is "
          + "written, no other starts, 141",
        command: "trap '' PIPE; "
          + intoClosedPipe("hexmask small.png in.jpg --out-dir out --json -j 1"),
        status: 141, firstError: nil, check: "is_png out/small.png && [ ! -e out/in.png ]"),
      HostileCase(
        title: "a picture into a closed pipe with SIGPIPE ignored ends quietly with 141",
        command: "trap '' PIPE; " + intoClosedPipe("hexmask in.jpg - --size 64"), status: 141,
        firstError: nil),
      HostileCase(
        title: "an SVG into a closed pipe with SIGPIPE ignored ends quietly with 141",
        command: "trap '' PIPE; " + intoClosedPipe("hexmask --svg - --size 64"), status: 141,
        firstError: nil),
      HostileCase(
        title: "an SVG to standard output that cannot be drawn names <stdout>",
        command: "hexmask --svg - --size 64 --corner 50", status: 2,
        firstError: "hexmask: <stdout>: --corner 50 is too large: at most 16.85 fits a 64 px "
          + "canvas with this line and number of sides"),
      HostileCase(
        title: "a usage error into a closed pipe with SIGPIPE ignored ends quietly with 141",
        command: "trap '' PIPE; " + intoClosedPipe("hexmask --sides 2 small.png out.png 2>&1"),
        status: 141, firstError: nil, check: "[ ! -e out.png ]"),
    ]

  static let extremeValueRows: [HostileCase] = [
    HostileCase(
      title: "--rotation 1e16 gives the visible picture of its remainder, 280",
      command: "hexmask small.png a.png --rotation 1e16 && hexmask small.png b.png --rotation 280"
        + " && hexmask small.png c.png --rotation 0",
      status: 0, firstError: nil, check: "is_png a.png && cmp a.png b.png && ! cmp -s a.png c.png"),
    HostileCase(
      title: "--svg s.svg --size 64 --rotation 1e308 works and leaves no temporary file",
      command: "hexmask --svg s.svg --size 64 --rotation 1e308", status: 0, firstError: nil,
      check: "grep -q '<path id=\"hexmask-shape\" d=\"M [0-9]' s.svg"),
    HostileCase(
      title: "the raster and the SVG of --rotation -1e308 are both those of -296",
      command: "hexmask small.png a.png --svg a.svg --rotation -1e308"
        + " && hexmask small.png b.png --svg b.svg --rotation -296",
      status: 0, firstError: nil, check: "cmp a.png b.png && cmp a.svg b.svg"),
    HostileCase(
      title: "--line 1e308 is a usage error naming the largest line",
      command: "hexmask small.png out.png --line 1e308", status: 2,
      firstError: "hexmask: small.png: --line 1e+308 leaves no room for the shape in a 32 px "
        + "canvas: it must be less than 32",
      check: "[ ! -e out.png ]"),
    HostileCase(
      title: "--corner 1e308% is a usage error naming the largest corner",
      command: "hexmask small.png out.png --corner 1e308%", status: 2,
      firstError: "hexmask: small.png: --corner 1e+308% (3.2e+307 px) is too large: at most 8 "
        + "fits a 32 px canvas with this line and number of sides",
      check: "[ ! -e out.png ]"),
    HostileCase(
      title: "--svg alone with --size 65500 and --line 1e308% is a usage error, not a crash",
      command: "hexmask --svg s.svg --size 65500 --line 1e308%", status: 2,
      firstError: "hexmask: s.svg: --line 1e+308% (1.7976931348623157e+308 px) leaves no room…",
      check: "[ ! -e s.svg ]"),
    HostileCase(
      title: "--size 65500 for a picture (4.3 gigapixels) is refused before reading",
      command: "hexmask small.png out.png --size 65500", status: 2,
      firstError: "hexmask: --size 65500 asks for 65500×65500 = 4290250000 pixels, more than "
        + "--max-pixels 268402689",
      check: "[ ! -e out.png ]"),
    HostileCase(
      title: "--size 65500 for the SVG alone draws no pixels, so it works",
      command: "hexmask --svg s.svg --size 65500 --rotation -1.7976931348623157e308", status: 0,
      firstError: nil, check: "grep -q 'width=\"65500\"' s.svg"),
    HostileCase(
      title: "a WebP larger than WebP allows is a usage error",
      command: "hexmask small.png out.webp --size 16384 --max-pixels 300000000", status: 2,
      firstError: "hexmask: out.webp: a WebP can be at most 16383 pixels a side, not 16384",
      check: "[ ! -e out.webp ]"),
    HostileCase(
      title: "a subnormal line and corner work",
      command: "hexmask small.png out.png --line 4.9e-324 --corner 1e-320%", status: 0,
      firstError: nil, check: "is_png out.png"),
    HostileCase(
      title: "--quality 1e308 is a usage error",
      command: "hexmask small.png out.jpg --quality 1e308", status: 2,
      firstError: "hexmask: invalid value '1e308' for '--quality': expected a whole number from "
        + "1 to 100",
      check: "[ ! -e out.jpg ]"),
    HostileCase(
      title: "--max-pixels 99999999999999999999 is a usage error",
      command: "hexmask small.png out.png --max-pixels 99999999999999999999", status: 2,
      firstError: "hexmask: invalid value '99999999999999999999' for '--max-pixels': too large, "
        + "expected a whole number from 1 to 9223372036854775807",
      check: "[ ! -e out.png ]"),
    HostileCase(
      title: "--rotation 1.8e308 (beyond a Double: infinity) is a usage error",
      command: "hexmask small.png out.png --rotation 1.8e308", status: 2,
      firstError: "hexmask: invalid value '1.8e308' for '--rotation': expected a number of "
        + "degrees",
      check: "[ ! -e out.png ]"),
  ]

  /// What hexmask says when standard output is a full disk.
  private static let fullStandardOutput =
    "hexmask: <stdout>: cannot write: No space left on device"

  /// `command`, with its standard error also kept in `stderr.txt` for `lineCount`.
  static func keepingStandardError(_ command: String) -> String {
    "\(command) 2>stderr.txt; status=$?; cat stderr.txt >&2; exit $status"
  }

  /// A check that the command wrote exactly `count` lines on standard error.
  static func lineCount(_ count: Int) -> String {
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
