/// The cells of ``FileMatrixTests`` about names (bytes that are not UTF-8, line breaks,
/// leading dashes), permissions, read-only file systems and one file in two roles.
extension FileMatrixTests {
  /// `name` with `\352` (Latin-1 ê, not UTF-8) as the shell spells it: `"$(printf 'f\352te')"`.
  private static func printfName(_ name: String) -> String { #""$(printf '\#(name)')""# }

  static let nameCells: [FileCell] = [
    FileCell(
      kind: .notUTF8, role: .input, outcome: .works,
      setup: "cp in.jpg \(printfName(#"f\352te.jpg"#))",
      name: printfName(#"f\352te.jpg"#), check: "is_png o.png"),
    FileCell(
      kind: .notUTF8, role: .output, outcome: .works, name: printfName(#"\351t\351.png"#),
      check: "is_png \(printfName(#"\351t\351.png"#)) && [ $(ls | wc -l) = 3 ]"),
    FileCell(
      kind: .notUTF8, role: .svg, outcome: .works, name: printfName(#"\351t\351.svg"#),
      check: "grep -q '<svg' \(printfName(#"\351t\351.svg"#))"),
    FileCell(
      kind: .notUTF8, role: .list, outcome: .works,
      setup:
        #"cp in.jpg "$(printf 'f\352te.jpg')" && printf 'f\352te.jpg\n' > "$(printf 'l\352')""#,
      name: printfName(#"l\352"#), check: "is_png \(printfName(#"o/f\352te.png"#))"),
    FileCell(
      kind: .notUTF8, role: .folder, outcome: .works,
      setup: "mkdir \(printfName(#"d\352"#)) && cp in.jpg \(printfName(#"d\352/a.jpg"#))",
      name: printfName(#"d\352"#), check: "is_png o/a.png"),
    FileCell(
      kind: .notUTF8, role: .entry, outcome: .works,
      setup: "mkdir d && cp in.jpg \(printfName(#"d/f\352te.jpg"#))",
      check: "is_png \(printfName(#"o/f\352te.png"#)) && is_png o/a.png"),
    FileCell(
      kind: .notUTF8, role: .outDir, outcome: .works, name: printfName(#"o\352"#),
      check: "is_png \(printfName(#"o\352/in.png"#))"),

    FileCell(
      kind: .newline, role: .input, outcome: .works, setup: "cp in.jpg \(printfName(#"a\nb.jpg"#))",
      name: printfName(#"a\nb.jpg"#), check: "is_png o.png"),
    FileCell(
      kind: .newline, role: .output, outcome: .works, name: printfName(#"a\nb.png"#),
      check: "is_png \(printfName(#"a\nb.png"#))"),
    FileCell(
      kind: .newline, role: .svg, outcome: .works, name: printfName(#"a\nb.svg"#),
      check: "grep -q '<svg' \(printfName(#"a\nb.svg"#))"),
    FileCell(
      kind: .newline, role: .list, outcome: .works, setup: "echo in.jpg > \(printfName(#"l\nx"#))",
      name: printfName(#"l\nx"#), check: "is_png o/in.png"),
    FileCell(
      kind: .newline, role: .folder, outcome: .works,
      setup: "mkdir \(printfName(#"d\nx"#)) && cp in.jpg \(printfName(#"d\nx/a.jpg"#))",
      name: printfName(#"d\nx"#), check: "is_png o/a.png"),
    FileCell(
      kind: .newline, role: .entry, outcome: .works,
      setup: "mkdir d && cp in.jpg \(printfName(#"d/a\nb.jpg"#))",
      check: "is_png \(printfName(#"o/a\nb.png"#))"),
    FileCell(
      kind: .newline, role: .outDir, outcome: .works, name: printfName(#"o\nx"#),
      check: "is_png \(printfName(#"o\nx/in.png"#))"),

    FileCell(
      kind: .leadingDash, role: .input, outcome: .works, setup: "cp in.jpg ./-in.jpg",
      command: "hexmask -- -in.jpg o.png", check: "is_png o.png"),
    FileCell(
      kind: .leadingDash, role: .output, outcome: .works, command: "hexmask in.jpg -- -o.png",
      check: "is_png ./-o.png"),
    FileCell(
      kind: .leadingDash, role: .svg, outcome: .works, name: "-s.svg",
      check: "grep -q '<svg' ./-s.svg"),
    FileCell(
      kind: .leadingDash, role: .list, outcome: .works, setup: "echo in.jpg > ./-l",
      name: "-l", check: "is_png o/in.png"),
    FileCell(
      kind: .leadingDash, role: .folder, outcome: .works,
      setup: "mkdir ./-d && cp in.jpg ./-d/a.jpg", command: "hexmask --out-dir o -- -d",
      check: "is_png o/a.png"),
    FileCell(
      kind: .leadingDash, role: .entry, outcome: .works, setup: "mkdir d && cp in.jpg d/-a.jpg",
      check: "is_png o/-a.png"),
    FileCell(
      kind: .leadingDash, role: .outDir, outcome: .works, name: "-o",
      check: "is_png ./-o/in.png"),
  ]

  /// Permissions count for `nobody`, not for root: rows run hexmask through `as_user`.
  static let permissionCells: [FileCell] = [
    FileCell(
      kind: .unreadable, role: .input,
      outcome: .fileFailure("hexmask: u.jpg: cannot open: Permission denied"),
      setup: "cp in.jpg u.jpg && chmod 000 u.jpg", command: "as_user u.jpg o.png",
      check: "[ ! -e o.png ]"),
    FileCell(
      kind: .unreadable, role: .output,
      outcome: .fileFailure(
        "hexmask: w.png: cannot tell whether hexmask made it: Permission denied "
          + "(--force replaces it)"),
      setup: "hexmask in.jpg w.png --size 32 && chmod 200 w.png && give w.png",
      command: "as_user in.jpg w.png", check: "[ $(mode w.png) = 200 ]"),
    FileCell(
      kind: .unreadable, role: .svg,
      outcome: .fileFailure(
        "hexmask: w.svg: cannot tell whether hexmask made it: Permission denied "
          + "(--force replaces it)"),
      setup: "echo old > w.svg && chmod 200 w.svg && give w.svg",
      command: "as_user in.jpg o.png --svg w.svg",
      check: "[ $(mode w.svg) = 200 ] && [ ! -e o.png ]"),

    FileCell(
      kind: .unreadable, role: .list,
      outcome: .fileFailure("hexmask: l.txt: cannot open the list: Permission denied"),
      setup: "echo in.jpg > l.txt && chmod 000 l.txt",
      command: "as_user --files-from l.txt --out-dir o"),
    FileCell(
      kind: .unreadable, role: .folder,
      outcome: .fileFailure("hexmask: p: cannot read the folder: Permission denied"),
      setup: "mkdir p && cp in.jpg p/a.jpg && chmod 000 p", command: "as_user p --out-dir o",
      check: "chmod 755 p"),
    FileCell(
      kind: .unreadable, role: .entry,
      outcome: .fileFailure("hexmask: d/0.jpg: cannot open: Permission denied"),
      setup: "mkdir d && cp in.jpg d/0.jpg && chmod 000 d/0.jpg",
      command: "cp in.jpg d/a.jpg && as_user d --out-dir o", check: "is_png o/a.png"),
    FileCell(
      kind: .unreadable, role: .outDir,
      outcome: .fileFailure("hexmask: o: cannot be the output folder: Permission denied"),
      setup: "mkdir o && chmod 000 o && give o", command: "as_user in.jpg --out-dir o",
      check: "chmod 755 o && [ -z \"$(ls -A o)\" ]"),

    FileCell(
      kind: .unwritable, role: .input, outcome: .works, setup: "chmod 444 in.jpg",
      command: "as_user in.jpg o.png", check: "is_png o.png"),
    FileCell(
      kind: .unwritable, role: .output,
      outcome: .fileFailure(
        "hexmask: w.png: cannot replace it: Permission denied (--force replaces it)"),
      setup: "hexmask in.jpg w.png --size 32 && chmod 444 w.png && give w.png",
      command: "as_user in.jpg w.png", check: "[ $(side w.png) = 32 ]"),
    FileCell(
      kind: .unwritable, role: .svg,
      outcome: .fileFailure(
        "hexmask: w.svg: cannot replace it: Permission denied (--force replaces it)"),
      setup: "echo old > w.svg && chmod 444 w.svg && give w.svg",
      command: "as_user in.jpg o.png --svg w.svg",
      check: "[ ! -e o.png ]"),
    FileCell(
      kind: .unwritable, role: .list, outcome: .works,
      setup: "echo in.jpg > l.txt && chmod 444 l.txt",
      command: "as_user --files-from l.txt --out-dir o", check: "is_png o/in.png"),
    FileCell(
      kind: .unwritable, role: .folder, outcome: .works,
      setup: "mkdir p && cp in.jpg p/a.jpg && chmod 555 p", command: "as_user p --out-dir o",
      check: "is_png o/a.png"),
    FileCell(
      kind: .unwritable, role: .entry, outcome: .works,
      command: "mkdir d && cp in.jpg d/a.jpg && chmod 444 d/a.jpg && as_user d --out-dir o",
      check: "is_png o/a.png"),
    FileCell(
      kind: .unwritable, role: .outDir,
      outcome: .fileFailure("hexmask: o: cannot be the output folder: Permission denied"),
      setup: "mkdir o && chmod 555 o && give o", command: "as_user in.jpg --out-dir o",
      check: "[ -z \"$(ls -A o)\" ]"),

    FileCell(
      kind: .readOnlyFileSystem, role: .input, outcome: .works, setup: readOnly,
      command: "hexmask ro/in.jpg o.png; s=$?; \(releaseReadOnly); exit $s",
      check: "is_png o.png"),
    FileCell(
      kind: .readOnlyFileSystem, role: .output,
      outcome: .fileFailure("hexmask: ro/o.png: cannot write: …"), setup: readOnly,
      command: "as_user in.jpg ro/o.png; s=$?; \(releaseReadOnly); exit $s"),
    FileCell(
      kind: .readOnlyFileSystem, role: .svg,
      outcome: .fileFailure("hexmask: ro/s.svg: cannot write: …"), setup: readOnly,
      command: "as_user in.jpg o.png --svg ro/s.svg; s=$?; \(releaseReadOnly); exit $s",
      check: "[ ! -e o.png ]"),
    FileCell(
      kind: .readOnlyFileSystem, role: .list, outcome: .works, setup: readOnly,
      command: "hexmask --files-from ro/l.txt --out-dir o; s=$?; \(releaseReadOnly); exit $s",
      check: "is_png o/in.png"),
    FileCell(
      kind: .readOnlyFileSystem, role: .folder, outcome: .works, setup: readOnly,
      command: "hexmask ro --out-dir o; s=$?; \(releaseReadOnly); exit $s",
      check: "is_png o/in.png"),
    FileCell(
      kind: .readOnlyFileSystem, role: .entry, outcome: .works, setup: readOnly,
      command: "hexmask -r ro --out-dir o; s=$?; \(releaseReadOnly); exit $s",
      check: "is_png o/p/a.png"),
    FileCell(
      kind: .readOnlyFileSystem, role: .outDir,
      outcome: .fileFailure("hexmask: ro/out: cannot be the output folder: …"), setup: readOnly,
      command: "as_user in.jpg --out-dir ro/out; s=$?; \(releaseReadOnly); exit $s"),
  ]

  /// A folder `ro` holding in.jpg, p/a.jpg and l.txt (naming ro/in.jpg) on a read-only
  /// tmpfs where mounting is allowed (root in CI), else a folder only root may write.
  private static let readOnly =
    "mkdir ro && { mount -t tmpfs tmpfs ro 2>/dev/null || true; } && mkdir ro/p "
    + "&& cp in.jpg ro/in.jpg && cp in.jpg ro/p/a.jpg && echo ro/in.jpg > ro/l.txt "
    + "&& { mount -o remount,ro ro 2>/dev/null || chmod -R a-w ro; }"
  private static let releaseReadOnly = "umount ro 2>/dev/null"

  static let sameFileCells: [FileCell] = [
    FileCell(
      kind: .sameFile, role: .input,
      outcome: .usageError("hexmask: ./in.jpg: output is the input file; refusing to overwrite it"),
      command: "hexmask - ./in.jpg < in.jpg"),
    FileCell(
      kind: .sameFile, role: .output,
      outcome: .usageError(
        "hexmask: sub/../in.jpg: output is the input file; refusing to overwrite it"),
      setup: "mkdir sub", name: "sub/../in.jpg"),
    FileCell(
      kind: .sameFile, role: .svg,
      outcome: .usageError(
        "hexmask: in.jpg: the --svg output is the input file; refusing to overwrite it"),
      command: "hexmask - o.png --svg in.jpg < in.jpg", check: "[ ! -e o.png ]"),
    FileCell(
      kind: .sameFile, role: .list, outcome: .works,
      setup: "mkdir o && printf './o/\\nin.jpg\\n' > l.txt", name: "l.txt",
      check: "is_png o/in.png"),
    FileCell(
      kind: .sameFile, role: .folder,
      outcome: .usageError("hexmask: './o/' is the output folder, whose files are never read …"),
      setup: "mkdir o",
      command: "hexmask ./o/ --out-dir o"),
    FileCell(
      kind: .sameFile, role: .entry, outcome: .works,
      command: "mkdir -p d/o && cp in.jpg d/a.jpg && hexmask -r d --out-dir d/o",
      check: "is_png d/o/a.png && [ ! -e d/o/o ]"),
    FileCell(
      kind: .sameFile, role: .outDir,
      outcome: .usageError("hexmask: 'p' is the output folder, whose files are never read …"),
      setup: "mkdir p && cp in.jpg p/a.jpg", command: "hexmask p --out-dir ./p/"),
  ]
}
