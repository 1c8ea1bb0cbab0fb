/// Hostile-user rows about misleading messages and small things users trip on.
extension HostileUserTests {
  /// A name that would forge a line: a line break, then what looks like hexmask's summary.
  private static let forgedName = #"$(printf 'bad\nhexmask: 1 written, 0 failed.jpg')"#
  /// A name that would turn the terminal red.
  private static let redName = #"$(printf 'red\033[31m')"#

  static let messageRows: [HostileCase] = [
    HostileCase(
      title: "a file name with a line break and a fake 'hexmask:' line is printed escaped",
      setup: "printf 'not a picture' > \"\(forgedName)\"",
      command: "hexmask \"\(forgedName)\" out.png", status: 1,
      firstError:
        #"hexmask: $'bad\nhexmask: 1 written, 0 failed.jpg': not an image file: hexmask reads PNG, JPEG, GIF, HEIC, AVIF, WebP and JPEG XL"#,
      check: "[ ! -e out.png ]"),
    HostileCase(
      title: "a value with a line break is quoted in the usage error",
      command: #"hexmask in.jpg out.png --layout "$(printf 'x\nhexmask: ok')""#, status: 2,
      firstError:
        #"hexmask: invalid value $'x\nhexmask: ok' for '--layout': expected centered or seed"#,
      check: "[ ! -e out.png ]"),
    HostileCase(
      title: "--dry-run lines quote a name holding a terminal escape",
      setup: "mkdir photos && cp in.jpg \"photos/\(redName).jpg\"",
      command: "hexmask photos --out-dir out --dry-run > plan.txt", status: 0, firstError: nil,
      check: #"[ "$(cat plan.txt)" = "\$'photos/red\\033[31m.jpg' -> \$'out/red\\033[31m.png'" ]"#
        + " && [ ! -e out ]"),
    HostileCase(
      title: "--verbose lines quote a name holding a terminal escape",
      setup: "mkdir photos && cp in.jpg \"photos/\(redName).jpg\"",
      command: "hexmask photos --out-dir out --verbose", status: 0,
      firstError:
        #"hexmask: wrote $'out/red\033[31m.png' from $'photos/red\033[31m.jpg' (new, 427x427, …"#,
      check: "is_png \"out/\(redName).png\""),
    HostileCase(
      title: "conflict explanations quote names holding line breaks",
      setup:
        #"mkdir a b && cp in.jpg "a/$(printf 'x\ny.jpg')" && cp in.jpg "b/$(printf 'x\ny.jpg')""#,
      command: "hexmask a b --out-dir out", status: 2,
      firstError:
        #"hexmask: conflict: $'a/x\ny.jpg' and $'b/x\ny.jpg' would both write $'out/x\ny.png'"#,
      check: "[ ! -e out ]"),
    HostileCase(
      title: "a --files-from list with CRLF line ends names files that exist",
      setup: #"printf 'in.jpg\r\nsmall.png\r\n' > list.txt"#,
      command: "hexmask --files-from list.txt --out-dir out -q", status: 0, firstError: nil,
      check: "is_png out/in.png && is_png out/small.png"),
    HostileCase(
      title: "three paths without --out-dir point to --out-dir",
      command: "hexmask in.jpg small.png outdir", status: 2,
      firstError: "hexmask: too many arguments: 'outdir'; to write several inputs into a folder, "
        + "use --out-dir DIR",
      check: #"[ "$(ls -A | wc -l)" -eq 2 ]"#),
    HostileCase(
      title: "a folder that is also --out-dir is a usage error that says so",
      setup: "mkdir -p nest/sub && cp in.jpg nest/sub/a.jpg",
      command: "hexmask nest/sub --out-dir nest/sub", status: 2,
      firstError: "hexmask: 'nest/sub' is the output folder, whose files are never read as "
        + "inputs; write into another folder with --out-dir",
      check: #"[ "$(ls -A nest/sub)" = a.jpg ]"#),
    HostileCase(
      title: "the output folder spelled another way is recognised too",
      setup: "mkdir -p nest/sub && cp in.jpg nest/sub/a.jpg",
      command: "hexmask -r ./nest/sub/ --out-dir nest/../nest/sub", status: 2,
      firstError: "hexmask: './nest/sub/' is the output folder, …",
      check: #"[ "$(ls -A nest/sub)" = a.jpg ]"#),
  ]

  static let smallThingRows: [HostileCase] = [
    HostileCase(
      title: "-j2, a short option with its value attached",
      command: "hexmask in.jpg small.png --out-dir out -j2 -q", status: 0, firstError: nil,
      check: "is_png out/in.png && is_png out/small.png"),
    HostileCase(
      title: "-rqj2, short flags bundled",
      setup: "mkdir -p photos/sub && cp in.jpg photos/sub/a.jpg",
      command: "hexmask photos --out-dir out -rqj2", status: 0, firstError: nil,
      check: "is_png out/sub/a.png"),
    HostileCase(
      title: "the word after an option is still its value when it starts with '-'",
      command: "hexmask in.jpg out.png --size 64 --rotation -30", status: 0, firstError: nil,
      check: "is_png out.png"),
    HostileCase(
      title: "--format JPEG, in capitals",
      command: "hexmask in.jpg out.img --format JPEG --size 64", status: 0, firstError: nil,
      check: #"[ "$(head -c 3 out.img | od -An -tx1 | tr -d ' \n')" = ffd8ff ]"#),
    HostileCase(
      title: "--format jpg in a batch writes .jpg files",
      command: "hexmask in.jpg --out-dir out --format jpg -q", status: 0, firstError: nil,
      check: #"[ "$(head -c 3 out/in.jpg | od -An -tx1 | tr -d ' \n')" = ffd8ff ]"#),
    HostileCase(
      title: "--layout Seed and --gravity North, any case (the seed says the gravity does nothing)",
      command: "hexmask in.jpg out.png --size 64 --layout Seed --gravity North", status: 0,
      firstError: "hexmask: warning: --gravity has no effect with --layout seed",
      check: "is_png out.png"),
    HostileCase(
      title: "--quality with a PNG output warns",
      command: "hexmask in.jpg out.png --size 64 --quality 80", status: 0,
      firstError: "hexmask: warning: --quality has no effect on PNG output",
      check: "is_png out.png"),
    HostileCase(
      title: "--lossless with a JPEG output warns",
      command: "hexmask in.jpg out.jpg --size 64 --lossless", status: 0,
      firstError: "hexmask: warning: --lossless has no effect on JPEG output",
      check: #"[ "$(head -c 3 out.jpg | od -An -tx1 | tr -d ' \n')" = ffd8ff ]"#),
    HostileCase(
      title: "--compression with a WebP output warns",
      command: "hexmask in.jpg out.webp --size 64 --compression small", status: 0,
      firstError: "hexmask: warning: --compression has no effect on WebP output",
      check: #"[ "$(head -c 4 out.webp)" = RIFF ]"#),
    HostileCase(
      title: "a batch warns once about --quality, not once per file",
      command: "hexmask in.jpg small.png --out-dir out --quality 80 2> err; s=$?; cat err >&2; "
        + "exit $s",
      status: 0, firstError: "hexmask: warning: --quality has no effect on PNG output",
      check: #"[ "$(grep -c 'has no effect' err)" -eq 1 ] && is_png out/small.png"#),
    HostileCase(
      title: "--quiet keeps the warning back",
      command: "hexmask in.jpg --out-dir out --quality 80 -q", status: 0, firstError: nil,
      check: "is_png out/in.png"),
    HostileCase(
      title: "--json rows carry the warnings of a truncated JPEG",
      setup: "head -c 20000 in.jpg > cut.jpg",
      command: "hexmask cut.jpg in.jpg --out-dir out --json > rows.jsonl", status: 0,
      firstError: "hexmask: cut.jpg: warning: premature end of JPEG file",
      check:
        #"grep -q '^{"input":"cut.jpg",.*"status":"written",.*"warnings":\["premature end of JPEG file",.*\],"crop":{[^}]*}[,}]' rows.jsonl"#
        + #" && grep -q '^{"input":"in.jpg",.*"warnings":\[\],"crop":{[^}]*}[,}]' rows.jsonl"#),
    HostileCase(
      title: "--help says a batch creates DIR and a single OUTPUT's folder must exist",
      command: "hexmask --help > help.txt", status: 0, firstError: nil,
      check: #"tr -s ' \n' '  ' < help.txt | grep -q "DIR and the subfolders the outputs need "#
        + #"are created if missing (without --out-dir, OUTPUT's folder must exist)""#),
    HostileCase(
      title: "a single OUTPUT in a missing folder: the folder is not created",
      command: "hexmask in.jpg new/out.png", status: 1, firstError: "hexmask: new/out.png: …",
      check: "[ ! -e new ]"),
    HostileCase(
      title: "a batch creates DIR and its missing parents",
      command: "hexmask in.jpg --out-dir a/b/c -q", status: 0, firstError: nil,
      check: "is_png a/b/c/in.png"),
    HostileCase(
      title: "--compression and --jobs, missing from README's table, work",
      command: "hexmask in.jpg out.png --size 64 --compression small --jobs 2", status: 0,
      firstError: nil, check: "is_png out.png"),
  ]
}
