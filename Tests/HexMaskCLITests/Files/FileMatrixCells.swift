/// The cells of ``FileMatrixTests``, by kind of file. The table in FileMatrixTests.swift is
/// the summary; each cell here says how it is tried.
extension FileMatrixTests {
  static let regularCells: [FileCell] = [
    FileCell(kind: .regular, role: .input, outcome: .works, name: "in.jpg", check: "is_png o.png"),
    FileCell(
      kind: .regular, role: .output, outcome: .works, setup: "hexmask in.jpg o.png --size 32",
      name: "o.png", check: "[ $(side o.png) = 427 ]", changes: ["o.png"]),
    FileCell(
      kind: .regular, role: .svg, outcome: .works,
      setup: "hexmask in.jpg old.png --svg s.svg --size 32",
      name: "s.svg",
      check: "grep -q '<svg' s.svg && is_png o.png", changes: ["s.svg"]),
    FileCell(
      kind: .regular, role: .list, outcome: .works, setup: "echo in.jpg > l.txt", name: "l.txt",
      check: "is_png o/in.png"),
    FileCell(
      kind: .regular, role: .folder, outcome: .works, name: "in.jpg", check: "is_png o/in.png"),
    FileCell(kind: .regular, role: .entry, outcome: .works, check: "is_png o/a.png"),
    FileCell(
      kind: .regular, role: .outDir,
      outcome: .fileFailure("hexmask: f: cannot be the output folder: 'f' is not a folder"),
      setup: "touch f", name: "f", check: "[ ! -s f ]"),
  ]

  static let linkCells: [FileCell] = [
    FileCell(
      kind: .symlink, role: .input, outcome: .works, setup: "ln -s in.jpg l.jpg", name: "l.jpg",
      check: "is_png o.png"),
    FileCell(
      kind: .symlink, role: .output, outcome: .works,
      setup: "hexmask in.jpg t.png --size 32 && ln -s t.png l.png",
      name: "l.png", check: "[ -L l.png ] && is_png t.png", changes: ["t.png"]),
    FileCell(
      kind: .symlink, role: .svg, outcome: .works,
      setup: "hexmask in.jpg old.png --svg t.svg --size 32 && ln -s t.svg l.svg",
      name: "l.svg", check: "[ -L l.svg ] && grep -q '<svg' t.svg", changes: ["t.svg"]),
    FileCell(
      kind: .symlink, role: .list, outcome: .works,
      setup: "echo in.jpg > l.txt && ln -s l.txt k.txt", name: "k.txt", check: "is_png o/in.png"),
    FileCell(
      kind: .symlink, role: .folder, outcome: .works,
      setup: "mkdir p && cp in.jpg p/a.jpg && ln -s p q", name: "q", check: "is_png o/a.png"),
    FileCell(
      kind: .symlink, role: .entry, outcome: .works, setup: "mkdir d && ln -s ../in.jpg d/b.jpg",
      check: "is_png o/a.png && is_png o/b.png"),
    FileCell(
      kind: .symlink, role: .outDir, outcome: .works, setup: "mkdir real && ln -s real out",
      name: "out", check: "[ -L out ] && is_png real/in.png"),

    FileCell(
      kind: .dangling, role: .input,
      outcome: .fileFailure("hexmask: l.jpg: cannot open: No such file or directory"),
      setup: "ln -s nowhere.jpg l.jpg", name: "l.jpg", check: "[ ! -e o.png ]"),
    FileCell(
      kind: .dangling, role: .output, outcome: .works, setup: "ln -s new.png l.png",
      name: "l.png", check: "[ -L l.png ] && is_png new.png"),
    FileCell(
      kind: .dangling, role: .svg, outcome: .works, setup: "ln -s new.svg l.svg", name: "l.svg",
      check: "[ -L l.svg ] && grep -q '<svg' new.svg"),
    FileCell(
      kind: .dangling, role: .list,
      outcome: .fileFailure("hexmask: l.txt: cannot open the list: No such file or directory"),
      setup: "ln -s nowhere l.txt", name: "l.txt"),
    FileCell(
      kind: .dangling, role: .folder,
      outcome: .fileFailure("hexmask: p: cannot open: No such file or directory"),
      setup: "ln -s nowhere p", name: "p"),
    FileCell(
      kind: .dangling, role: .entry, outcome: .skipped("hexmask: skipped d/b.jpg: …"),
      setup: "mkdir d && ln -s nowhere d/b.jpg", check: "is_png o/a.png"),
    FileCell(
      kind: .dangling, role: .outDir,
      outcome: .fileFailure(
        "hexmask: out: cannot be the output folder: 'out' is a symbolic link to nothing"),
      setup: "ln -s nowhere out", name: "out", check: "[ ! -e nowhere ]"),

    FileCell(
      kind: .loop, role: .input,
      outcome: .fileFailure("hexmask: l1: cannot open: Too many levels of symbolic links"),
      setup: "ln -s l2 l1 && ln -s l1 l2", name: "l1"),
    FileCell(
      kind: .loop, role: .output,
      outcome: .fileFailure("hexmask: l1: cannot write: too many levels of symbolic links"),
      setup: "ln -s l2 l1 && ln -s l1 l2", name: "l1"),
    FileCell(
      kind: .loop, role: .svg,
      outcome: .fileFailure("hexmask: l1: cannot write: too many levels of symbolic links"),
      setup: "ln -s l2 l1 && ln -s l1 l2", name: "l1", check: "[ ! -e o.png ]"),
    FileCell(
      kind: .loop, role: .list, outcome: .fileFailure("hexmask: l1: cannot open the list: …"),
      setup: "ln -s l2 l1 && ln -s l1 l2", name: "l1"),
    FileCell(
      kind: .loop, role: .folder,
      outcome: .fileFailure("hexmask: l1: cannot open: Too many levels of symbolic links"),
      setup: "ln -s l2 l1 && ln -s l1 l2", name: "l1"),
    FileCell(
      kind: .loop, role: .entry, outcome: .skipped("hexmask: skipped d/l1: …"),
      setup: "mkdir d && ln -s l2 d/l1 && ln -s l1 d/l2", check: "is_png o/a.png"),
    FileCell(
      kind: .loop, role: .outDir,
      outcome: .fileFailure(
        "hexmask: l1: cannot be the output folder: Too many levels of symbolic links"),
      setup: "ln -s l2 l1 && ln -s l1 l2", name: "l1"),

    FileCell(
      kind: .hardLink, role: .input,
      outcome: .usageError("hexmask: in.jpg: output is the input file; refusing to overwrite it"),
      setup: "ln in.jpg twin.jpg", command: "hexmask twin.jpg in.jpg"),
    FileCell(
      kind: .hardLink, role: .output,
      outcome: .usageError("hexmask: twin.jpg: output is the input file; refusing to overwrite it"),
      setup: "ln in.jpg twin.jpg", name: "twin.jpg"),
    FileCell(
      kind: .hardLink, role: .svg,
      outcome: .usageError(
        "hexmask: twin.svg: the --svg output is the input file; refusing to overwrite it"),
      setup: "ln in.jpg twin.svg", name: "twin.svg", check: "[ ! -e o.png ]"),
    // The list is a hard link of the picture: its bytes name no file.
    FileCell(
      kind: .hardLink, role: .list,
      outcome: .fileFailure(
        "hexmask: l.txt: holds a NUL byte, so it is no list of names (-0 reads NUL-separated "
          + "lists)"),
      setup: "ln in.jpg l.txt", name: "l.txt", check: "[ ! -e o ] || [ -z \"$(ls o)\" ]"),
    FileCell(
      kind: .hardLink, role: .folder, outcome: .skipped("hexmask: skipped twin.jpg: …"),
      setup: "ln in.jpg twin.jpg", command: "hexmask in.jpg twin.jpg --out-dir o --verbose",
      check: "is_png o/in.png && [ ! -e o/twin.png ]"),
    FileCell(
      kind: .hardLink, role: .entry, outcome: .skipped("hexmask: skipped d/b.jpg: …"),
      setup: "mkdir d && cp in.jpg d/a.jpg && ln d/a.jpg d/b.jpg",
      check: "is_png o/a.png && [ ! -e o/b.png ]"),
    FileCell(
      kind: .hardLink, role: .outDir,
      outcome: .usageError(
        "hexmask: conflict: 'in.jpg' would write 'o/in.png', which is an input file"),
      setup: "mkdir o && ln in.jpg o/in.png", name: "o"),
  ]

  static let specialCells: [FileCell] = [
    FileCell(
      kind: .fifo, role: .input, outcome: .works, setup: "mkfifo p.jpg",
      command: "cat in.jpg > p.jpg & hexmask p.jpg o.png; s=$?; wait; exit $s",
      check: "is_png o.png"),
    FileCell(
      kind: .fifo, role: .output, outcome: .works, setup: "mkfifo p.png",
      command: "cat p.png > got.png & hexmask in.jpg p.png; s=$?; wait; exit $s",
      check: "[ -p p.png ] && is_png got.png"),
    FileCell(
      kind: .fifo, role: .svg, outcome: .works, setup: "mkfifo p.svg",
      command: "cat p.svg > got.svg & hexmask in.jpg o.png --svg p.svg; s=$?; wait; exit $s",
      check: "[ -p p.svg ] && grep -q '<svg' got.svg"),
    FileCell(
      kind: .fifo, role: .list, outcome: .works, setup: "mkfifo l",
      command: "echo in.jpg > l & hexmask --files-from l --out-dir o; s=$?; wait; exit $s",
      check: "is_png o/in.png"),
    FileCell(
      kind: .fifo, role: .folder, outcome: .works, setup: "mkfifo p",
      command: "cat in.jpg > p & hexmask p --out-dir o; s=$?; wait; exit $s",
      check: "is_png o/p.png"),
    FileCell(
      kind: .fifo, role: .entry,
      outcome: .skipped("hexmask: skipped d/p.jpg: a FIFO, not a picture"),
      setup: "mkdir d && mkfifo d/p.jpg", check: "is_png o/a.png && [ -p d/p.jpg ]"),
    FileCell(
      kind: .fifo, role: .outDir,
      outcome: .fileFailure("hexmask: f: cannot be the output folder: 'f' is not a folder"),
      setup: "mkfifo f",
      name: "f", check: "[ -p f ]"),

    FileCell(
      kind: .socket, role: .input, outcome: .fileFailure("hexmask: s.jpg: cannot open: …"),
      setup: "mksock s.jpg", name: "s.jpg"),
    FileCell(
      kind: .socket, role: .output, outcome: .fileFailure("hexmask: s.png: cannot write: …"),
      setup: "mksock s.png", name: "s.png", check: "[ -S s.png ]"),
    FileCell(
      kind: .socket, role: .svg, outcome: .fileFailure("hexmask: s.svg: cannot write: …"),
      setup: "mksock s.svg", name: "s.svg", check: "[ -S s.svg ] && [ ! -e o.png ]"),
    FileCell(
      kind: .socket, role: .list, outcome: .fileFailure("hexmask: s: cannot open the list: …"),
      setup: "mksock s", name: "s"),
    FileCell(
      kind: .socket, role: .folder, outcome: .fileFailure("hexmask: s: cannot open: …"),
      setup: "mksock s", name: "s"),
    FileCell(
      kind: .socket, role: .entry,
      outcome: .skipped("hexmask: skipped d/s.jpg: a socket, not a picture"),
      setup: "mkdir d && mksock d/s.jpg", check: "is_png o/a.png"),
    FileCell(
      kind: .socket, role: .outDir,
      outcome: .fileFailure("hexmask: s: cannot be the output folder: 's' is not a folder"),
      setup: "mksock s",
      name: "s", check: "[ -S s ]"),
  ]

  static let deviceCells: [FileCell] = [
    FileCell(
      kind: .devNull, role: .input, outcome: .fileFailure("hexmask: /dev/null: empty file"),
      name: "/dev/null", check: "[ ! -e o.png ]"),
    FileCell(kind: .devNull, role: .output, outcome: .works, name: "/dev/null"),
    FileCell(
      kind: .devNull, role: .svg, outcome: .works, name: "/dev/null", check: "is_png o.png"),
    FileCell(
      kind: .devNull, role: .list, outcome: .works, name: "/dev/null",
      note: "hexmask: nothing to do: …"),
    FileCell(
      kind: .devNull, role: .folder, outcome: .fileFailure("hexmask: /dev/null: empty file"),
      name: "/dev/null"),
    FileCell(
      kind: .devNull, role: .entry,
      outcome: .skipped("hexmask: skipped d/n.jpg: a character device, not a picture"),
      setup: "mkdir d && ln -s /dev/null d/n.jpg", check: "is_png o/a.png"),
    FileCell(
      kind: .devNull, role: .outDir,
      outcome: .fileFailure("hexmask: /dev/null: cannot be the output folder: …"),
      name: "/dev/null"),

    FileCell(
      kind: .devFull, role: .input,
      outcome: .fileFailure("hexmask: /dev/full: not an image file: …"),
      name: "/dev/full"),
    FileCell(
      kind: .devFull, role: .output,
      outcome: .fileFailure("hexmask: /dev/full: cannot write: No space left on device"),
      name: "/dev/full"),
    FileCell(
      kind: .devFull, role: .svg,
      outcome: .fileFailure("hexmask: /dev/full: cannot write: No space left on device"),
      name: "/dev/full"),
    FileCell(
      kind: .devFull, role: .list,
      outcome: .fileFailure("hexmask: /dev/full: the list is longer than 256 MiB; is it a list?"),
      name: "/dev/full"),
    FileCell(
      kind: .devFull, role: .folder,
      outcome: .fileFailure("hexmask: /dev/full: not an image file: …"),
      name: "/dev/full"),
    FileCell(
      kind: .devFull, role: .entry,
      outcome: .skipped("hexmask: skipped d/f.jpg: a character device, not a picture"),
      setup: "mkdir d && ln -s /dev/full d/f.jpg", check: "is_png o/a.png"),
    FileCell(
      kind: .devFull, role: .outDir,
      outcome: .fileFailure("hexmask: /dev/full: cannot be the output folder: …"),
      name: "/dev/full"),
  ]

  static let folderCells: [FileCell] = [
    FileCell(
      kind: .folder, role: .input, outcome: .fileFailure("hexmask: p: is a folder, not an image…"),
      setup: "mkdir p", name: "p"),
    FileCell(
      kind: .folder, role: .output,
      outcome: .usageError("hexmask: p: is a folder; name a file, or use --out-dir …"),
      setup: "mkdir p", name: "p", check: "[ -z \"$(ls -A p)\" ]"),
    FileCell(
      kind: .folder, role: .svg,
      outcome: .usageError("hexmask: p: is a folder; name a file, or use --out-dir …"),
      setup: "mkdir p", name: "p", check: "[ -z \"$(ls -A p)\" ] && [ ! -e o.png ]"),
    FileCell(
      kind: .folder, role: .list,
      outcome: .fileFailure("hexmask: p: cannot read the list: Is a directory"), setup: "mkdir p",
      name: "p"),
    FileCell(
      kind: .folder, role: .folder, outcome: .works, setup: "mkdir p && cp in.jpg p/a.jpg",
      name: "p", check: "is_png o/a.png"),
    FileCell(
      kind: .folder, role: .entry, outcome: .works,
      command: "mkdir -p d/sub && cp in.jpg d/sub/a.jpg && hexmask -r d --out-dir o",
      check: "is_png o/sub/a.png"),
    FileCell(
      kind: .folder, role: .outDir, outcome: .works, setup: "mkdir out", name: "out",
      check: "is_png out/in.png"),

    FileCell(
      kind: .dash, role: .input, outcome: .works, command: "hexmask - o.png < in.jpg",
      check: "is_png o.png"),
    FileCell(
      kind: .dash, role: .output, outcome: .works, command: "hexmask in.jpg - > got.png",
      check: "is_png got.png"),
    FileCell(
      kind: .dash, role: .svg, outcome: .works, command: "hexmask in.jpg o.png --svg - > got.svg",
      check: "is_png o.png && grep -q '<svg' got.svg"),
    FileCell(
      kind: .dash, role: .list, outcome: .works,
      command: "echo in.jpg | hexmask --files-from - --out-dir o", check: "is_png o/in.png"),
    FileCell(
      kind: .dash, role: .folder,
      outcome: .usageError("hexmask: '-' cannot be an input with --out-dir…"),
      command: "hexmask - --out-dir o < in.jpg", check: "[ ! -e o ]"),
    FileCell(
      kind: .dash, role: .entry, outcome: .works, setup: "mkdir d && cp in.jpg d/-",
      check: "is_png o/-.png"),
    FileCell(
      kind: .dash, role: .outDir, outcome: .works, name: "-", check: "is_png ./-/in.png"),
  ]

  /// `hexmask ARGS` with standard output a pipe into `file`, exiting with hexmask's status
  /// (sh has no pipefail).
  private static func intoPipe(_ arguments: String, file: String) -> String {
    "{ hexmask \(arguments); echo $? > status; } | cat > \(file); exit $(cat status)"
  }

  /// `hexmask ARGS` run by script(1) on a terminal of its own, its text in tty.txt.
  private static func onTerminal(_ arguments: String, input: String = "") -> String {
    "\(input)script -qec '\"$HEXMASK\" \(arguments)' /dev/null > tty.txt"
  }

  static let streamCells: [FileCell] = [
    FileCell(
      kind: .descriptorPipe, role: .input, outcome: .works,
      command: "cat in.jpg | hexmask /dev/stdin o.png", check: "is_png o.png"),
    FileCell(
      kind: .descriptorPipe, role: .output, outcome: .works,
      command: intoPipe("in.jpg /dev/stdout", file: "got.png"), check: "is_png got.png"),
    FileCell(
      kind: .descriptorPipe, role: .svg, outcome: .works,
      command: intoPipe("in.jpg o.png --svg /dev/fd/1", file: "got.svg"),
      check: "is_png o.png && grep -q '<svg' got.svg"),
    FileCell(
      kind: .descriptorPipe, role: .list, outcome: .works,
      command: "echo in.jpg | hexmask --files-from /dev/stdin --out-dir o",
      check: "is_png o/in.png"),
    FileCell(
      kind: .descriptorPipe, role: .folder, outcome: .works,
      command: "cat in.jpg | hexmask /dev/stdin --out-dir o", check: "is_png o/stdin.png"),
    FileCell(
      kind: .descriptorPipe, role: .entry,
      outcome: .impossible("/dev/fd names live in /dev and /proc; a link to one is a FIFO")),
    FileCell(
      kind: .descriptorPipe, role: .outDir,
      outcome: .fileFailure("hexmask: /dev/stdout: cannot be the output folder: …"),
      command: intoPipe("in.jpg --out-dir /dev/stdout", file: "got")),

    FileCell(
      kind: .descriptorFile, role: .input, outcome: .works,
      command: "hexmask /dev/stdin o.png < in.jpg", check: "is_png o.png"),
    FileCell(
      kind: .descriptorFile, role: .output, outcome: .works,
      command: "hexmask in.jpg /proc/self/fd/1 > got.png", check: "is_png got.png"),
    FileCell(
      kind: .descriptorFile, role: .svg, outcome: .works,
      command: "hexmask in.jpg o.png --svg /dev/stdout > got.svg",
      check: "is_png o.png && grep -q '<svg' got.svg"),
    FileCell(
      kind: .descriptorFile, role: .list, outcome: .works,
      command: "echo in.jpg > l.txt && hexmask --files-from /dev/stdin --out-dir o < l.txt",
      check: "is_png o/in.png"),
    FileCell(
      kind: .descriptorFile, role: .folder, outcome: .works,
      command: "hexmask /dev/stdin --out-dir o < in.jpg", check: "is_png o/stdin.png"),
    FileCell(
      kind: .descriptorFile, role: .entry,
      outcome: .impossible("/dev/fd names live in /dev and /proc; a link to one is a file")),
    FileCell(
      kind: .descriptorFile, role: .outDir,
      outcome: .fileFailure("hexmask: /dev/stdout: cannot be the output folder: …"),
      command: "hexmask in.jpg --out-dir /dev/stdout > got"),

    FileCell(
      kind: .terminal, role: .input,
      outcome: .usageError("hexmask: refusing to read a picture from a terminal…"),
      command: onTerminal("- o.png"), check: "[ ! -e o.png ]"),
    FileCell(
      kind: .terminal, role: .output,
      outcome: .usageError("hexmask: refusing to write a picture to a terminal…"),
      command: onTerminal("in.jpg /dev/stdout"), check: "! grep -q PNG tty.txt"),
    FileCell(
      kind: .terminal, role: .svg, outcome: .works, command: onTerminal("in.jpg o.png --svg -"),
      check: "is_png o.png && grep -q '<svg' tty.txt"),
    FileCell(
      kind: .terminal, role: .list, outcome: .works,
      command: onTerminal("--files-from - --out-dir o -q", input: "printf 'in.jpg\\n' | "),
      check: "is_png o/in.png"),
    FileCell(
      kind: .terminal, role: .folder,
      outcome: .fileFailure("hexmask: /dev/stdin: is a terminal, not a picture"),
      command: onTerminal("/dev/stdin --out-dir o")),
    FileCell(
      kind: .terminal, role: .entry,
      outcome: .impossible("a terminal lives in /dev; a link to one is a character device")),
    FileCell(
      kind: .terminal, role: .outDir,
      outcome: .fileFailure("hexmask: /dev/stdout: cannot be the output folder: …"),
      command: onTerminal("in.jpg --out-dir /dev/stdout")),
  ]
}
