/// Hostile-user rows about where outputs go: conflicts with inputs, links, FIFOs, devices,
/// permissions, temporary files, the same input twice and reruns,
/// and the messages about output folders.
extension HostileUserTests {
  static let outputConflictRows: [HostileCase] = [
    HostileCase(
      title: "a plain run writes a PNG and touches nothing else",
      command: "hexmask in.jpg out.png --size 64", status: 0, firstError: nil,
      check: "is_png out.png"),
    HostileCase(
      title: "--svg naming the input is refused before anything is written",
      command: "hexmask in.jpg o.png --svg in.jpg", status: 2,
      firstError: "hexmask: in.jpg: the --svg output is the input file; refusing to overwrite it",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "--svg naming the input through '..' is refused",
      setup: "mkdir sub", command: "hexmask in.jpg o.png --svg sub/../in.jpg", status: 2,
      firstError: "hexmask: sub/../in.jpg: the --svg output is the input file; refusing to "
        + "overwrite it",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "--svg naming the input through a symbolic link is refused",
      setup: "ln -s in.jpg link.svg", command: "hexmask in.jpg o.png --svg link.svg", status: 2,
      firstError: "hexmask: link.svg: the --svg output is the input file; refusing to overwrite "
        + "it",
      check: "[ -L link.svg ] && [ ! -e o.png ]"),
    HostileCase(
      title: "OUTPUT naming a hard link of the input is refused",
      setup: "ln in.jpg twin.jpg", command: "hexmask in.jpg twin.jpg", status: 2,
      firstError: "hexmask: twin.jpg: output is the input file; refusing to overwrite it"),
    HostileCase(
      title: "OUTPUT and --svg naming one new file are refused",
      command: "hexmask in.jpg same.png --svg same.png", status: 2,
      firstError: "hexmask: same.png: OUTPUT and --svg name the same file; each needs its own",
      check: "[ ! -e same.png ]"),
    HostileCase(
      title: "OUTPUT and --svg naming one file in two spellings are refused",
      command: "hexmask in.jpg same.png --svg ./same.png", status: 2,
      firstError: "hexmask: ./same.png: OUTPUT and --svg name the same file; each needs its own",
      check: "[ ! -e same.png ]"),
    HostileCase(
      title: "--mask-only with --svg naming the mask is refused",
      command: "hexmask --mask-only --size 32 m.png --svg m.png", status: 2,
      firstError: "hexmask: m.png: OUTPUT and --svg name the same file; each needs its own",
      check: "[ ! -e m.png ]"),
    HostileCase(
      title: "a batch output that would replace an input is a conflict",
      command: "hexmask in.jpg --out-dir . --name '{name}.{ext}'", status: 2,
      firstError: "hexmask: conflict: 'in.jpg' would write './in.jpg', which is an input file"),
  ]

  /// A folder `ro` nothing can be written in: a read-only tmpfs where mounting is allowed
  /// (root in CI), else an immutable or read-only folder. `release` undoes it.
  private static let readOnlyFolder =
    "mkdir ro && { mount -t tmpfs -o ro tmpfs ro 2>/dev/null || chattr +i ro 2>/dev/null "
    + "|| chmod 555 ro; }"
  private static let release = "umount ro 2>/dev/null; chattr -i ro 2>/dev/null"

  static let outputFolderRows: [HostileCase] = [
    HostileCase(
      title: "OUTPUT naming an existing folder says so and points to --out-dir",
      setup: "mkdir album", command: "hexmask in.jpg album", status: 2,
      firstError: "hexmask: album: is a folder; name a file, or use --out-dir to write into a "
        + "folder",
      check: "[ -d album ] && [ -z \"$(ls -A album)\" ]"),
    HostileCase(
      title: "OUTPUT in a read-only folder gives the system's reason",
      setup: readOnlyFolder,
      command: "hexmask in.jpg ro/o.png; s=$?; \(release); exit $s", status: 1,
      firstError: "hexmask: ro/o.png: cannot write: …"),
    HostileCase(
      title: "--out-dir under a read-only folder gives the system's reason, not 'does not exist'",
      setup: readOnlyFolder,
      command: "hexmask in.jpg small.png --out-dir ro/out 2> err; s=$?; \(release); "
        + "cat err >&2; exit $s",
      status: 1, firstError: "hexmask: ro/out: cannot be the output folder: …",
      check: "[ $(wc -l < err) = 1 ]"),
    HostileCase(
      title: "--out-dir under a file gives the system's reason",
      setup: "touch blocker",
      command: "hexmask in.jpg --out-dir blocker/out", status: 1,
      firstError: "hexmask: blocker/out: cannot be the output folder: 'blocker' is not a folder"),
  ]

  static let oddOutputNameRows: [HostileCase] = [
    HostileCase(
      title: "an empty OUTPUT (an unset variable in quotes) is a usage error",
      command: "hexmask in.jpg \"${UNSET:-}\"", status: 2,
      firstError: "hexmask: an empty argument names no file (is a shell variable unset?)"),
    HostileCase(
      title: "an OUTPUT that is a loop of symbolic links says so",
      setup: "ln -s loop1 loop2 && ln -s loop2 loop1", command: "hexmask in.jpg loop1", status: 1,
      firstError: "hexmask: loop1: cannot write: too many levels of symbolic links",
      check: "[ -L loop1 ] && [ -L loop2 ]"),
    HostileCase(
      title: "an OUTPUT named with a line break is written, and named escaped in messages",
      command: "hexmask in.jpg \"$(printf 'a\\nb.png')\" --size 16 && hexmask in.jpg "
        + "\"$(printf 'a\\nb.png')\" --sides 2",
      status: 2,
      firstError: "hexmask: invalid value '2' for '--sides': expected a whole number "
        + "from 3 to 64",
      check: "is_png \"$(printf 'a\\nb.png')\""),
    HostileCase(
      title: "a --name that would write among the rerun records is refused",
      command: "hexmask in.jpg --out-dir out --name '.hexmask/{name}.png'", status: 2,
      firstError: "hexmask: --name '.hexmask/{name}.png' puts the output '.hexmask/in.png' among "
        + "hexmask's rerun records in '.hexmask'; name the outputs otherwise, or keep the "
        + "records elsewhere with --records DIR",
      check: "[ ! -e out ]"),
  ]

  static let nonRegularOutputRows: [HostileCase] = [
    HostileCase(
      title: "a symbolic link OUTPUT: its target is replaced, the link stays",
      setup: "hexmask in.jpg target.png --size 32 && ln -s target.png link.png",
      command: "hexmask in.jpg link.png --size 64", status: 0, firstError: nil,
      check: "[ -L link.png ] && [ \"$(readlink link.png)\" = target.png ] && is_png target.png",
      changes: ["target.png"]),
    HostileCase(
      title: "a link into another folder: the temporary file is made beside the target",
      setup: "mkdir real && hexmask in.jpg real/t.png --size 32 && ln -s real/t.png l.png",
      command: "hexmask in.jpg l.png --size 64", status: 0, firstError: nil,
      check: "[ -L l.png ] && is_png real/t.png", changes: ["real/t.png"]),
    HostileCase(
      title: "a dangling link OUTPUT: written through, as a shell's > does",
      setup: "ln -s new.png dangling.png",
      command: "hexmask in.jpg dangling.png --size 64", status: 0, firstError: nil,
      check: "[ -L dangling.png ] && is_png new.png"),
    HostileCase(
      title: "a FIFO OUTPUT stays a FIFO and its reader gets the whole PNG",
      setup: "mkfifo pipe.png",
      command: "cat pipe.png > got.png & hexmask in.jpg pipe.png --size 64; s=$?; wait; exit $s",
      status: 0, firstError: nil, check: "[ -p pipe.png ] && is_png got.png"),
    HostileCase(
      title: "--svg into a FIFO",
      setup: "mkfifo shape.svg",
      command: "cat shape.svg > got.svg & hexmask --svg shape.svg --size 64; s=$?; wait; exit $s",
      status: 0, firstError: nil, check: "[ -p shape.svg ] && grep -q '<svg' got.svg"),
    HostileCase(
      title: "a character device OUTPUT is written to, not replaced",
      command: "hexmask in.jpg /dev/null --size 64", status: 0, firstError: nil,
      check: "[ -c /dev/null ]"),
    HostileCase(
      title: "/dev/full as OUTPUT: an error, and /dev/full stays a device",
      command: "hexmask in.jpg /dev/full --size 64", status: 1,
      firstError: "hexmask: /dev/full: cannot write: No space left on device",
      check: "[ -c /dev/full ]"),
  ]

  /// Only root can give a file to another owner: the row of ``HostileUserTests``'s
  /// `aReplacedOutputKeepsItsOwnerAndGroup`, reported skipped for anyone else.
  static let ownerRow = HostileCase(
    title: "a replaced output keeps its owner and group",
    setup: "hexmask in.jpg o.png --size 32 && chown 1234:5678 o.png",
    command: "hexmask in.jpg o.png --size 64", status: 0, firstError: nil,
    check: "[ $(stat -c %u:%g o.png) = 1234:5678 ]", changes: ["o.png"])

  static let permissionRows: [HostileCase] = [
    HostileCase(
      title: "a replaced 0600 output stays 0600",
      setup: "hexmask in.jpg o.png --size 32 && chmod 600 o.png",
      command: "hexmask in.jpg o.png --size 64", status: 0, firstError: nil,
      check: "[ $(mode o.png) = 600 ] && is_png o.png", changes: ["o.png"]),
    HostileCase(
      title: "a replaced 0751 output stays 0751",
      setup: "hexmask in.jpg o.png --size 32 && chmod 751 o.png",
      command: "hexmask in.jpg o.png --size 64", status: 0, firstError: nil,
      check: "[ $(mode o.png) = 751 ]", changes: ["o.png"]),
    HostileCase(
      title: "the target of a symbolic link keeps its mode",
      setup: "hexmask in.jpg t.png --size 32 && chmod 640 t.png && ln -s t.png l.png",
      command: "hexmask in.jpg l.png --size 64", status: 0, firstError: nil,
      check: "[ $(mode t.png) = 640 ] && is_png t.png", changes: ["t.png"]),
    HostileCase(
      title: "a new output gets 0666 & ~umask (umask 027)",
      command: "umask 027; hexmask in.jpg o.png --size 64", status: 0, firstError: nil,
      check: "[ $(mode o.png) = 640 ]"),
    HostileCase(
      title: "a new output gets 0666 & ~umask (umask 002), in batch mode too",
      command: "umask 002; hexmask in.jpg --out-dir out --size 64 -q", status: 0, firstError: nil,
      check: "[ $(mode out/in.png) = 664 ]"),
  ]

  /// Starts hexmask on a JPEG that arrives slowly through a FIFO, so that it is mid-picture
  /// with its output's temporary file open; after a second runs `meanwhile` and sends
  /// `signal`; exits with hexmask's status. `launcher` goes before hexmask (which is started
  /// as "$HEXMASK", not as the shell function, so that `$!` is hexmask, not a subshell).
  private static func interrupted(
    by signal: String, launcher: String = "", meanwhile: String = ""
  ) -> String {
    "mkfifo slow.jpg; { head -c 20000 in.jpg; sleep 3; } > slow.jpg & "
      + "\(launcher) \"$HEXMASK\" slow.jpg o.png & p=$!; sleep 1; \(meanwhile) "
      + "kill -\(signal) $p; { wait $p; } 2>/dev/null; s=$?; wait; exit $s"
  }

  static let litterRows: [HostileCase] = [
    HostileCase(
      title: "SIGTERM mid-picture: no output, nothing left, status 143",
      command: interrupted(by: "TERM"), status: 143, firstError: nil, check: "[ ! -e o.png ]"),
    HostileCase(
      title: "SIGINT mid-picture: no output, nothing left, status 130",
      // A script's background jobs ignore SIGINT (and hexmask keeps an ignored signal
      // ignored, as nohup expects); perl restores it, as for a terminal's foreground job.
      command: interrupted(by: "INT", launcher: "perl -e '$SIG{INT} = \"DEFAULT\"; exec @ARGV'"),
      status: 130, firstError: nil, check: "[ ! -e o.png ]"),
    HostileCase(
      title: "kill -9 mid-picture leaves nothing: the temporary file has no name",
      command: interrupted(by: "KILL"), status: 137, firstError: nil, check: "[ ! -e o.png ]"),
    HostileCase(
      title: "SIGTERM with named temporary files (no O_TMPFILE): the handler removes them",
      command: "export HEXMASK_NAMED_TEMPORARIES=1; "
        + interrupted(
          by: "TERM",
          meanwhile: "ls -a | grep -q '^\\.o\\.png\\.hexmask-' || echo 'no temporary file' >&2;"),
      status: 143, firstError: nil, check: "[ ! -e o.png ]"),
    HostileCase(
      title: "a batch removes the named temporary files older runs left in its folders",
      setup: "mkdir -p out/sub && touch -d '2 hours ago' out/.a.png.hexmask-Ab12Cd "
        + "out/sub/.b.png.hexmask-Xy34Zw && touch out/.c.png.hexmask-Fresh1 "
        + "&& mkdir photos photos/sub && cp in.jpg photos/a.jpg && cp small.png photos/sub/b.png",
      command: "hexmask -r photos --out-dir out -q", status: 0, firstError: nil,
      check: "[ ! -e out/.a.png.hexmask-Ab12Cd ] && [ ! -e out/sub/.b.png.hexmask-Xy34Zw ] "
        + "&& [ -e out/.c.png.hexmask-Fresh1 ] && is_png out/a.png && is_png out/sub/b.png",
      changes: ["out/.a.png.hexmask-Ab12Cd", "out/sub/.b.png.hexmask-Xy34Zw"]),
  ]

  static let duplicateInputRows: [HostileCase] = [
    HostileCase(
      title: "the same input in two spellings counts once",
      command: "hexmask in.jpg ./in.jpg --out-dir o --size 32", status: 0,
      firstError: "hexmask: 1 written, 0 skipped, 0 failed in …", check: "is_png o/in.png"),
    HostileCase(
      title: "a folder and a --files-from list naming a file in it: once",
      setup: "mkdir photos && cp in.jpg photos/a.jpg && printf 'photos/a.jpg\\n' > list",
      command: "hexmask photos --files-from list --out-dir o --size 32", status: 0,
      firstError: "hexmask: 1 written, 0 skipped, 0 failed in …", check: "is_png o/a.png"),
    HostileCase(
      title: "a file and its hard link: the same file, once",
      setup: "ln in.jpg twin.jpg",
      command: "hexmask in.jpg twin.jpg --out-dir o --size 32", status: 0,
      firstError: "hexmask: 1 written, 0 skipped, 0 failed in …",
      check: "is_png o/in.png && [ ! -e o/twin.png ]"),
  ]

  /// Two photos rendered into `out/` once, with the given options.
  private static func renderedOnce(_ options: String = "") -> String {
    "mkdir photos && cp in.jpg photos/a.jpg && cp small.png photos/b.png "
      + "&& hexmask photos --out-dir out --size 48 -q \(options)"
  }
  /// The outputs of `renderedOnce` and their records, which a rebuilding rerun replaces.
  private static let outputsAndRecords = [
    "out/a.png", "out/b.png", "out/.hexmask/a.png.rec", "out/.hexmask/b.png.rec",
  ]

  static let rerunRows: [HostileCase] = [
    HostileCase(
      title: "a rerun with the same options skips every output",
      setup: renderedOnce(), command: "hexmask photos --out-dir out --size 48", status: 0,
      firstError: "hexmask: 0 written, 2 skipped, 0 failed in …"),
    HostileCase(
      title: "a rerun with other options rebuilds every output, reason 'changed'",
      setup: renderedOnce(),
      command: "hexmask photos --out-dir out --size 48 --sides 3 --json > rows", status: 0,
      firstError: "hexmask: 2 written, 0 skipped, 0 failed in …",
      check: "[ $(grep -c '\"reason\":\"changed\"' rows) = 2 ] && hexmask photos --out-dir fresh "
        + "--size 48 --sides 3 -q && cmp out/a.png fresh/a.png && cmp out/b.png fresh/b.png",
      changes: outputsAndRecords),
    HostileCase(
      title: "a rerun after one input changed rebuilds that one only",
      setup: renderedOnce() + " && cp in.jpg photos/b.png",
      command: "hexmask photos --out-dir out --size 48 --json > rows", status: 0,
      firstError: "hexmask: 1 written, 1 skipped, 0 failed in …",
      check:
        "grep -q '\"output\":\"out/b.png\",\"status\":\"written\",\"reason\":\"changed\"' rows",
      changes: ["out/b.png", "out/.hexmask/b.png.rec"]),
    HostileCase(
      title: "a rerun after an output was replaced by hand with another of hexmask's rebuilds it",
      setup: renderedOnce() + " && hexmask small.png out/a.png --size 20",
      command: "hexmask photos --out-dir out --size 48", status: 0,
      firstError: "hexmask: 1 written, 1 skipped, 0 failed in …",
      check: "hexmask photos --out-dir fresh --size 48 -q && cmp out/a.png fresh/a.png",
      changes: ["out/a.png", "out/.hexmask/a.png.rec"]),
    HostileCase(
      title: "a rerun after an output was replaced by hand with a picture of the user's keeps it",
      setup: renderedOnce() + " && cp small.png out/a.png",
      command: "hexmask photos --out-dir out --size 48", status: 1,
      firstError: "hexmask: out/a.png: exists and was not made by hexmask (a 32×32 PNG); "
        + "--force replaces it",
      check: "cmp out/a.png small.png"),
    HostileCase(
      title: "--force rebuilds up-to-date outputs, reason 'forced'",
      setup: renderedOnce(),
      command: "hexmask photos --out-dir out --size 48 --force --json > rows", status: 0,
      firstError: "hexmask: 2 written, 0 skipped, 0 failed in …",
      check: "[ $(grep -c '\"reason\":\"forced\"' rows) = 2 ]", changes: outputsAndRecords),
    HostileCase(
      title: "records hold no paths or option values, and outputs hold no record",
      setup: renderedOnce("--border-color gold"),
      command: "hexmask photos --out-dir out --size 48 --border-color gold -q", status: 0,
      firstError: nil,
      check: "! grep -rq -e photos -e gold out/.hexmask && ! grep -q -e hexmask-record -e gold "
        + "out/a.png && grep -qx "
        + "'hexmask-record 4 [0-9a-f]\\{16\\} [0-9]* [0-9]* [0-9]*\\.[0-9]* [0-9]*\\.[0-9]* "
        + "[0-9]*:[0-9]* [0-9]*x[0-9]* [pocs-]*' "
        + "out/.hexmask/a.png.rec"),
    HostileCase(
      title: "four processes with two option sets write one folder; a rerun settles it exactly",
      setup: "mkdir photos && cp in.jpg photos/a.jpg && cp small.png photos/b.png",
      command: "for s in 6 3 6 3; do hexmask photos --out-dir out --size 48 --sides $s -q & done; "
        + "wait; hexmask photos --out-dir out --size 48 --sides 3 -q", status: 0,
      firstError: nil,
      check: "hexmask photos --out-dir fresh --size 48 --sides 3 -q && cmp out/a.png fresh/a.png "
        + "&& cmp out/b.png fresh/b.png"),
  ]

  /// Phone and web formats in, other formats named.
  static let formatRows: [HostileCase] = [
    HostileCase(
      title: "a TIFF is named, not called broken",
      setup: "printf 'II*\\000\\010\\000\\000\\000' > a.tif", command: "hexmask a.tif o.png",
      status: 1,
      firstError:
        "hexmask: a.tif: a TIFF file: hexmask reads PNG, JPEG, GIF, HEIC, AVIF, WebP and JPEG XL",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "a folder with nothing usable exits 1 and says what was skipped",
      setup: "mkdir album && echo hi > album/notes.txt && printf 'II*\\000' > album/a.tif",
      command: "hexmask album --out-dir out", status: 1,
      firstError: "hexmask: skipped 2 files in the folders that are not pictures hexmask reads "
        + "(--verbose lists them)"),
    HostileCase(
      title: "a phone's folder of HEIC, AVIF and WebP is read, not skipped",
      setup:
        "mkdir phone && cp \"$FIXTURES/heif/rocket.heic\" \"$FIXTURES/heif/rocket-alpha.avif\" "
        + "\"$FIXTURES/webp/lossy-photo.webp\" phone/",
      command: "hexmask phone --out-dir av -q", status: 0, firstError: nil,
      check: "is_png av/rocket.png && is_png av/rocket-alpha.png && is_png av/lossy-photo.png"),
    HostileCase(
      title: "four --shard runs at once into one folder equal one plain run, byte for byte",
      setup: "mkdir p && for i in 1 2 3 4 5 6 7 8 9 10 11 12; do cp small.png p/f$i.png; done",
      command: "for i in 0 1 2 3; do hexmask p --out-dir out -q --shard $i/4 & done; wait; "
        + "hexmask p --out-dir plain -q", status: 0, firstError: nil,
      check: "[ $(ls out/*.png | wc -l) = 12 ] && for f in plain/*.png; do "
        + "cmp \"$f\" \"out/${f#plain/}\" || exit 1; done"),
    HostileCase(
      title: "--dry-run --shard lists disjoint shards that together list every input",
      setup: "mkdir p && for i in 1 2 3 4 5 6 7 8 9 10 11 12; do cp small.png p/f$i.png; done",
      command: "for i in 0 1 2; do hexmask p --out-dir x --dry-run --shard $i/3; done > lists",
      status: 0, firstError: nil,
      check: "[ $(sort lists | uniq | wc -l) = 12 ] && [ $(wc -l < lists) = 12 ] "
        + "&& [ ! -e x ]"),
    HostileCase(
      title: "a shard outside 0..<N is a usage error",
      command: "hexmask in.jpg --out-dir o --shard 4/4", status: 2,
      firstError: "hexmask: invalid value '4/4' for '--shard': expected I/N with 0 ≤ I < N, "
        + "such as 0/4"),
    HostileCase(
      title: "hexmask reads back the WebP it writes",
      command: "hexmask in.jpg a.webp --size 48 && hexmask a.webp b.png", status: 0,
      firstError: nil, check: "is_png b.png"),
    HostileCase(
      title: "hexmask reads back the AVIF it writes, and replaces it without --force",
      command: "hexmask in.jpg a.avif --size 48 && hexmask in.jpg a.avif --size 40 --lossless "
        + "&& hexmask a.avif b.png", status: 0,
      firstError: nil, check: "is_png b.png && [ \"$(head -c 12 a.avif | tail -c 4)\" = avif ]"),
    HostileCase(
      title: "a batch with --format avif names its outputs .avif, one per --size",
      command: "mkdir p && cp in.jpg p/a.jpg && hexmask p --out-dir o --format avif --size 32,48",
      status: 0, firstError: "hexmask: 2 written, 0 skipped, 0 failed in …",
      check: "[ -s o/a-32.avif ] && [ -s o/a-48.avif ]"),
  ]
}
