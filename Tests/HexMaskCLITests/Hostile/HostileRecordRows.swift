/// Rerun records and `--dry-run`, as a fresh-eyes tryout found them: records
/// written through planted links, a dry run that planned what the run refuses, a `--records`
/// that cannot be a folder, and a records folder read back as input.
extension HostileUserTests {
  /// The warning a batch gives when `record` (a path) cannot be written for `in`'s output.
  static func recordWarning(input: String, record: String, what: String) -> String {
    "hexmask: \(input): warning: the next run will rebuild this output: \(record): cannot "
      + "write: \(what) is in the way and is left alone"
  }

  static let recordRows: [HostileCase] = [
    HostileCase(
      title: "replacing an output with another hard link leaves that name the old picture",
      setup: "hexmask small.png out.png 2>/dev/null && ln out.png other.png",
      command: "hexmask in.jpg out.png --size 16", status: 0, firstError: nil,
      check: "is_png out.png && [ \"$(stat -c %h out.png)\" = 1 ] "
        + "&& [ \"$(stat -c %h other.png)\" = 1 ] && ! cmp -s out.png other.png",
      changes: ["out.png"]),
    HostileCase(
      title: "a file of the user's copied over a batch output with its size and time is kept",
      setup: "mkdir p && cp in.jpg p/a.jpg && hexmask p --out-dir out 2>/dev/null "
        + "&& head -c \"$(stat -c %s out/a.png)\" /dev/zero | tr '\\0' U > mine.png "
        + "&& touch -r out/a.png mine.png && cp -p mine.png out/a.png",
      command: "hexmask p --out-dir out", status: 1,
      firstError: "hexmask: out/a.png: exists and was not made by hexmask (…",
      check: "cmp -s mine.png out/a.png"),
    HostileCase(
      title: "a symbolic link planted at a record's path is replaced by nothing, its target kept",
      setup: "echo precious > notes.txt && mkdir -p p out/.hexmask && cp in.jpg p/a.jpg "
        + "&& ln -s ../../notes.txt out/.hexmask/a.png.rec",
      command: "hexmask p --out-dir out", status: 0,
      firstError: recordWarning(
        input: "p/a.jpg", record: "out/.hexmask/a.png.rec", what: "a symbolic link"),
      check: "[ \"$(cat notes.txt)\" = precious ] && [ -L out/.hexmask/a.png.rec ] "
        + "&& is_png out/a.png"),
    HostileCase(
      title: "as root, a link in another user's .hexmask folder does not lead to a root file",
      setup: "echo precious > notes.txt && mkdir -p p out/.hexmask && cp in.jpg p/a.jpg "
        + "&& ln -s ../../notes.txt out/.hexmask/a.png.rec && give out out/.hexmask "
        + "&& { [ \"$(id -u)\" != 0 ] || chown -h 65534:65534 out/.hexmask/a.png.rec; }",
      command: "hexmask p --out-dir out -q", status: 0, firstError: nil,
      check: "[ \"$(cat notes.txt)\" = precious ] && [ -L out/.hexmask/a.png.rec ]"),
    HostileCase(
      title: "a file of the user's at a --records DIR record path is left alone",
      setup: "mkdir p R && cp in.jpg p/a.jpg && echo mine > R/a.png.rec",
      command: "hexmask p --out-dir o --records R", status: 0,
      firstError: recordWarning(
        input: "p/a.jpg", record: "R/a.png.rec", what: "a file that is not a hexmask record"),
      check: "[ \"$(cat R/a.png.rec)\" = mine ] && is_png o/a.png"),
    HostileCase(
      title: "a FIFO at a record's path is neither waited on nor written, in the run or a rerun",
      setup: "mkdir -p p o/.hexmask && cp in.jpg p/a.jpg && mkfifo o/.hexmask/a.png.rec",
      command: "hexmask p --out-dir o && hexmask p --out-dir o -q", status: 0,
      firstError: recordWarning(input: "p/a.jpg", record: "o/.hexmask/a.png.rec", what: "a FIFO"),
      check: "[ -p o/.hexmask/a.png.rec ] && is_png o/a.png"),
    HostileCase(
      title: "a record of this or an older version is replaced on a rerun",
      setup: "mkdir p && cp in.jpg p/a.jpg && cp in.jpg p/b.jpg && hexmask p --out-dir o "
        + "--size 32 -q && printf 'hexmask-record 1 0 32 0 0.0\\n' > o/.hexmask/b.png.rec",
      command: "hexmask p --out-dir o --size 40 -q", status: 0, firstError: nil,
      check: "[ $(side o/a.png) = 40 ] && [ $(side o/b.png) = 40 ] "
        + "&& grep -q '^hexmask-record 4 .* 40 ' o/.hexmask/a.png.rec "
        + "&& grep -q '^hexmask-record 4 .* 40 ' o/.hexmask/b.png.rec",
      changes: ["o/a.png", "o/b.png", "o/.hexmask/a.png.rec", "o/.hexmask/b.png.rec"]),
    HostileCase(
      title: "--dry-run --json fails an output hexmask did not make, as the run does",
      setup: "mkdir p d && cp in.jpg p/a.jpg && cp $FIXTURES/replace/portrait-512.png d/a.png",
      command: "hexmask p --out-dir d --dry-run --json > plan", status: 1,
      firstError: "hexmask: d/a.png: exists and was not made by hexmask (a 512×512 PNG); "
        + "--force replaces it",
      check: "grep -qF '\"output\":\"d/a.png\",\"status\":\"failed\",\"reason\":null,"
        + "\"error\":\"d/a.png: exists and was not made by hexmask (a 512×512 PNG); "
        + "--force replaces it\"' plan && [ $(wc -l < plan) = 1 ]"),
    HostileCase(
      title: "--dry-run fails an output hexmask did not make, as the run does, and plans the rest",
      setup: "mkdir p d && cp in.jpg p/a.jpg && cp in.jpg p/b.jpg "
        + "&& cp $FIXTURES/replace/portrait-512.png d/a.png",
      command: "hexmask p --out-dir d --dry-run > plan", status: 1,
      firstError: "hexmask: d/a.png: exists and was not made by hexmask (a 512×512 PNG); "
        + "--force replaces it",
      check: "[ \"$(cat plan)\" = 'p/b.jpg -> d/b.png' ] "
        + "&& hexmask p --out-dir d --dry-run --force | grep -qF 'p/a.jpg -> d/a.png'"),
    HostileCase(
      title: "--records naming a file, or a folder that cannot be made, is said once, exit 1",
      setup: "echo mine > notes.txt && mkdir p && cp in.jpg p/a.jpg && cp in.jpg p/b.jpg",
      command: "hexmask p --out-dir o --records notes.txt; a=$?; "
        + "hexmask p --out-dir o --records /proc/x/y 2> e; [ $? = 1 ] || exit 9; "
        + "[ \"$(cat e)\" = 'hexmask: /proc/x/y: cannot be the records folder: No such file or "
        + "directory' ] || exit 8; "
        + "hexmask p --out-dir o --records notes.txt --dry-run 2> /dev/null; [ $? = 1 ] && exit $a",
      status: 1,
      firstError: "hexmask: notes.txt: cannot be the records folder: 'notes.txt' is not a folder",
      check: "[ ! -e o/a.png ] && [ ! -e o/b.png ]"),
    HostileCase(
      title: "a missing --records folder is made, as --out-dir is, and not by --dry-run",
      setup: "mkdir p && cp in.jpg p/a.jpg",
      command: "hexmask p --out-dir o --records new/r --dry-run > plan && [ ! -e new ] "
        + "&& hexmask p --out-dir o --records new/r -q",
      status: 0, firstError: nil, check: "[ -s new/r/a.png.rec ]"),
    HostileCase(
      title: "a --records folder inside an input folder is never searched with -r",
      setup: "mkdir -p in3/recs && cp in.jpg in3/x.jpg "
        + "&& hexmask -r in3 --out-dir o --records in3/recs -q",
      command: "hexmask -r in3 --out-dir o --records in3/recs", status: 0,
      firstError: "hexmask: 0 written, 1 skipped, 0 failed…"),
    HostileCase(
      title: "a folder argument that is the --records folder is refused, as the output folder is",
      setup: "mkdir in3 && cp in.jpg in3/x.jpg",
      command: "hexmask in3 --out-dir o --records in3", status: 2,
      firstError: "hexmask: 'in3' is the --records folder, whose files are never read as inputs; "
        + "keep the records in another folder",
      check: "[ ! -e o/x.png ]"),
    HostileCase(
      title: "a record that would replace an input is called a record, with a hint that works",
      setup: "mkdir in3 && cp in.jpg in3/x.jpg && echo notes > in3/x.png.rec",
      command: "hexmask in3/* --out-dir o --records in3 2> e; s=$?; cat e >&2; "
        + "[ \"$(tail -n 1 e)\" = 'Keep the rerun records in a folder that holds no inputs with "
        + "--records.' ] && exit $s",
      status: 2,
      firstError: "hexmask: conflict: 'in3/x.jpg' would write its rerun record 'in3/x.png.rec', "
        + "which is an input file"),
  ]
}
