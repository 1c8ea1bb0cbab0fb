/// Hostile-user rows (names as bytes, FIFOs in folders,
/// `/dev/stdout` as a pipe, standard input as an output's file, photos and unwritable files
/// as outputs), and section 3's missing rows (the shard key, named temporary files). The
/// file matrix (FileMatrixTests) covers every kind of file in every role; these rows pin the
/// exact cases that were seen broken.
extension HostileUserTests {
  static let fileNameRows: [HostileCase] = [
    HostileCase(
      title: "an INPUT named in Latin-1 is read, and named with its bytes escaped",
      setup: #"cp in.jpg "$(printf 'f\352te.jpg')""#,
      command:
        #"hexmask "$(printf 'f\352te.jpg')" o.png && hexmask "$(printf 'f\352te.gif')" o.png"#,
      status: 1, firstError: #"hexmask: $'f\352te.gif': cannot open: No such file or directory"#,
      check: "is_png o.png"),
    HostileCase(
      title: "an OUTPUT named in Latin-1 gets exactly those bytes, not U+FFFD",
      command: #"hexmask in.jpg "$(printf '\351t\351.png')""#, status: 0, firstError: nil,
      check: #"is_png "$(printf '\351t\351.png')" && [ $(ls | wc -l) = 3 ]"#),
    HostileCase(
      title: "-r finds files and folders named in Latin-1, and --json shows their bytes as \\udcNN",
      setup: #"mkdir -p "ph/$(printf 'd\377')" && cp in.jpg "ph/$(printf 'f\352te.jpg')" "#
        + #"&& cp in.jpg "ph/$(printf 'd\377')/a.jpg""#,
      command: "hexmask -r ph --out-dir av --json -q --size 32 > rows", status: 0,
      firstError: nil,
      check: #"is_png "av/$(printf 'f\352te.png')" && is_png "av/$(printf 'd\377')/a.png" "#
        + #"&& grep -qF '"input":"ph/f\udceate.jpg"' rows "#
        + #"&& grep -qF '"output":"av/d\udcff/a.png"' rows"#),
    HostileCase(
      title: "--files-from -0 takes names in Latin-1 byte for byte",
      setup: #"cp in.jpg "$(printf 'f\352te.jpg')""#,
      command: #"printf 'f\352te.jpg\0' | hexmask --files-from - -0 --out-dir o -q --size 32"#,
      status: 0, firstError: nil, check: #"is_png "o/$(printf 'f\352te.png')""#),
  ]

  static let fileKindRows: [HostileCase] = [
    HostileCase(
      title: "a FIFO in a folder is skipped, not opened: --dry-run does not hang",
      setup: "mkdir fd && mkfifo fd/pipe && cp in.jpg fd/a.jpg",
      command: "hexmask fd --out-dir o --dry-run --verbose > plan", status: 0,
      firstError: "hexmask: skipped fd/pipe: a FIFO, not a picture",
      check: "grep -q 'fd/a.jpg -> o/a.png' plan && [ -p fd/pipe ]"),
    HostileCase(
      title: "OUTPUT /dev/stdout that is a pipe writes the picture into it",
      command: "{ hexmask in.jpg /dev/stdout; echo $? > st; } | cat > got.png; exit $(cat st)",
      status: 0, firstError: nil, check: "is_png got.png"),
    HostileCase(
      title: "--svg /dev/stdout and /proc/self/fd/1 that are pipes write the SVG",
      command: "{ hexmask in.jpg o.png --svg /dev/stdout && hexmask in.jpg o2.png --svg "
        + "/proc/self/fd/1; echo $? > st; } | cat > got.svg; exit $(cat st)",
      status: 0, firstError: nil, check: "[ $(grep -c '<svg' got.svg) = 2 ]"),
    HostileCase(
      title: "OUTPUT /dev/fd/3 that is a pipe writes into descriptor 3",
      command: "{ hexmask in.jpg /dev/fd/3 3>&1 >/dev/null; echo $? > st; } | cat > got.png; "
        + "exit $(cat st)",
      status: 0, firstError: nil, check: "is_png got.png"),
    HostileCase(
      // The messages would mix with the picture, so it is refused, on the
      // user's standard error (decoders' descriptor 2 is muted).
      title: "OUTPUT /dev/stderr is refused, on standard error, though descriptor 2 is muted",
      command: "hexmask in.jpg /dev/stderr 2> got.png", status: 2, firstError: nil,
      check: "! is_png got.png && grep -q '^hexmask: /dev/stderr: output is standard error' got.png"
    ),
    HostileCase(
      title: "INPUT - from a photo and OUTPUT that photo: refused, the photo kept",
      setup: "cp in.jpg photo.jpg", command: "hexmask - photo.jpg < photo.jpg", status: 2,
      firstError: "hexmask: photo.jpg: output is the input file; refusing to overwrite it"),
    HostileCase(
      title: "INPUT - from a photo and --svg that photo: refused, nothing written",
      setup: "cp in.jpg photo.jpg", command: "hexmask - out.png --svg photo.jpg < photo.jpg",
      status: 2,
      firstError: "hexmask: photo.jpg: the --svg output is the input file; refusing to overwrite "
        + "it",
      check: "[ ! -e out.png ]"),
    HostileCase(
      title: "OUTPUT - redirected into the input file: refused",
      command: "hexmask in.jpg - >> in.jpg", status: 2,
      firstError: "hexmask: <stdout>: output is the input file; refusing to overwrite it"),
  ]

  /// Without `--force` only what hexmask made is replaced (its mark, a
  /// rerun record, an empty file). Each refused file here was replaced silently before.
  static let photoRows: [HostileCase] =
    notMadeByHexMaskRows + replacedRows + otherUsersRows

  /// A file hexmask did not make, named as OUTPUT, and the start of the expected message.
  static let strangers: [(setup: String, output: String, options: String, what: String)] = [
    ("cp $FIXTURES/replace/square.jpg b.jpg", "b.jpg", "", "a 64×64 JPEG"),
    ("cp $FIXTURES/replace/portrait-512.png b.png", "b.png", "", "a 512×512 PNG"),
    ("cp $FIXTURES/replace/icon-rgba.png b.png", "b.png", "", "a 32×32 PNG"),
    ("cp $FIXTURES/replace/wide.webp b.webp", "b.webp", "", "a 96×64 WebP"),
    ("cp $FIXTURES/replace/wide.avif b.avif", "b.avif", "", "an AVIF"),
    ("cp $FIXTURES/replace/small.gif b.gif", "b.gif", " --format png", "a 20×16 GIF"),
    ("cp $FIXTURES/replace/small.bmp b.bmp", "b.bmp", " --format png", "a 20×16 BMP"),
    ("printf 'notes, not a picture\\n' > notes", "notes", " --format png", "a text file"),
    ("printf '\\001\\002\\003' > blob", "blob", " --format png", "a 3 byte file"),
    ("cp $FIXTURES/heif/rocket.heic b.png", "b.png", "", "a HEIC/HEIF"),
    ("cp $FIXTURES/exif/Landscape_1.jpg b.jpg", "b.jpg", "", "a 225×150 JPEG"),
  ]

  static let notMadeByHexMaskRows: [HostileCase] =
    strangers.map { stranger in
      HostileCase(
        title: "\(stranger.what) as OUTPUT is refused, kept, and replaced with --force",
        setup: stranger.setup + " && cp \(stranger.output) kept",
        command: "hexmask in.jpg \(stranger.output)\(stranger.options); s=$?; "
          + "cmp -s kept \(stranger.output) || exit 9; "
          + "hexmask in.jpg \(stranger.output)\(stranger.options) --force && exit $s",
        status: 2,
        firstError: "hexmask: \(stranger.output) exists and was not made by hexmask "
          + "(\(stranger.what)); --force replaces it",
        check: "grep -q hexmask \(stranger.output)",
        changes: [stranger.output])
    } + [
      HostileCase(
        title: "hexmask *.png with a plain 512×512 portrait second refuses to replace it",
        setup: "mkdir cam && cp small.png cam/a.png "
          + "&& cp $FIXTURES/replace/portrait-512.png cam/b.png",
        command: "cd cam && hexmask *.png", status: 2,
        firstError: "hexmask: b.png exists and was not made by hexmask (a 512×512 PNG); "
          + "--force replaces it",
        check: "cmp -s cam/b.png $FIXTURES/replace/portrait-512.png"),
      HostileCase(
        title: "a text file that holds the word hexmask is no mark",
        setup: "printf '<?xml version=\"1.0\"?>\\n<!-- hexmask -->\\nhexmask tEXtSoftware' > t.svg",
        command: "hexmask in.jpg o.png --svg t.svg", status: 2,
        firstError: "hexmask: t.svg exists and was not made by hexmask (a text file); "
          + "--force replaces it",
        check: "[ ! -e o.png ]"),
      HostileCase(
        title:
          "a batch fails (and keeps) a file it did not make where an output goes, writes the rest",
        setup: "mkdir p o && cp in.jpg p/a.jpg && cp in.jpg p/b.jpg "
          + "&& cp $FIXTURES/replace/square.jpg o/b.jpg",
        command: "hexmask p --out-dir o --format jpeg -q", status: 1,
        firstError: "hexmask: o/b.jpg: exists and was not made by hexmask (a 64×64 JPEG); "
          + "--force replaces it",
        check: "[ -s o/a.jpg ] && cmp -s o/b.jpg $FIXTURES/replace/square.jpg"),
    ]

  static let replacedRows: [HostileCase] = [
    HostileCase(
      title: "rerunning onto hexmask's own PNG, JPEG, WebP and AVIF outputs replaces them",
      setup: "for f in o.png o.jpg o.webp o.avif; do hexmask in.jpg $f --size 32; done",
      command: "for f in o.png o.jpg o.webp o.avif; do hexmask in.jpg $f --size 40 || exit; done",
      status: 0, firstError: nil, check: "[ $(side o.png) = 40 ]",
      changes: ["o.png", "o.jpg", "o.webp", "o.avif"]),
    HostileCase(
      title: "rerunning onto hexmask's own palette PNG, mask and SVG replaces them",
      setup: "hexmask in.jpg p.png --size 32 --colors 16 --svg s.svg "
        + "&& hexmask --mask-only m.png --size 32",
      command: "hexmask in.jpg p.png --size 40 --colors 8 --svg s.svg "
        + "&& hexmask --mask-only m.png --size 40",
      status: 0, firstError: nil,
      check: "[ $(side p.png) = 40 ] && [ $(side m.png) = 40 ] && grep -q 'width=\"40\"' s.svg",
      changes: ["p.png", "s.svg", "m.png"]),
    HostileCase(
      title: "an empty file where OUTPUT goes is replaced",
      setup: ": > e.png && : > e.svg", command: "hexmask in.jpg e.png --svg e.svg", status: 0,
      firstError: nil, check: "is_png e.png && grep -q '<svg' e.svg", changes: ["e.png", "e.svg"]),
    HostileCase(
      title: "a batch rerun replaces an unmarked output its record names, not one without a record",
      setup: "mkdir p && cp in.jpg p/a.jpg && cp in.jpg p/b.jpg "
        + "&& hexmask p --out-dir o --size 32 -q "
        // Unmark both outputs as an older hexmask wrote them: same size and time, and a
        // record of the version it wrote (3: no identity), written after the output.
        + "&& for f in a b; do touch -r o/$f.png t && printf hexmasq "
        + "| dd of=o/$f.png bs=1 seek=50 conv=notrunc 2>/dev/null && touch -r t o/$f.png; done "
        + "&& sleep 0.01 && sed -i -e 's/^hexmask-record 4 \\([^ ]* [^ ]* [^ ]* [^ ]*\\) [^ ]* [^ ]* /"
        + "hexmask-record 3 \\1 /' o/.hexmask/a.png.rec && grep -q '^hexmask-record 3' o/.hexmask/a.png.rec "
        + "&& rm o/.hexmask/b*",
      command: "hexmask p --out-dir o --size 40 -q", status: 1,
      firstError: "hexmask: o/b.png: exists and was not made by hexmask (a 32×32 PNG); "
        + "--force replaces it",
      check: "[ $(side o/a.png) = 40 ] && [ $(side o/b.png) = 32 ]",
      changes: ["o/a.png", "o/.hexmask/a.png.rec"]),
  ]

  /// A11: replacing keeps a file's owner and group, so another user's file that the user
  /// may not write is never replaced, not even with `--force` (unlike `cp -f`).
  static let otherUsersRows: [HostileCase] = [
    HostileCase(
      title: "an output the user may write but not read: refused, --force replaces it",
      setup: "hexmask in.jpg w.png --size 32 && chmod 200 w.png && give w.png",
      command: "as_user in.jpg w.png --size 40; s=$?; as_user in.jpg w.png --size 40 --force "
        + "&& exit $s",
      status: 1,
      firstError: "hexmask: w.png: cannot tell whether hexmask made it: Permission denied "
        + "(--force replaces it)",
      check: "[ $(mode w.png) = 200 ] && [ $(side w.png) = 40 ]", changes: ["w.png"]),
    HostileCase(
      title: "a root-owned 0644 output in a folder the user may write is not taken over",
      setup: "hexmask in.jpg o.png --size 32 && chmod 644 o.png",
      command: "as_user in.jpg o.png", status: 1,
      firstError: "hexmask: o.png: cannot replace it: it is another user's (uid 0), and "
        + "replacing keeps the owner, so not even --force does (remove it first)",
      check: "[ $(side o.png) = 32 ] && [ $(stat -c %u o.png) = $(id -u) ]"),
    HostileCase(
      title: "--force does not take over a root-owned output either",
      setup: "hexmask in.jpg o.png --size 32 && chmod 644 o.png",
      command: "as_user in.jpg o.png --force", status: 1,
      firstError: "hexmask: o.png: cannot replace it: it is another user's (uid 0), and "
        + "replacing keeps the owner, so not even --force does (remove it first)",
      check: "[ $(side o.png) = 32 ] && [ $(stat -c %u o.png) = $(id -u) ]"),
    HostileCase(
      title: "--force in a batch does not take over a root-owned output",
      setup: "mkdir p o && cp in.jpg p/a.jpg && hexmask in.jpg o/a.png --size 32 "
        + "&& chmod 644 o/a.png && chmod 777 o",
      command: "as_user p --out-dir o --force -q", status: 1,
      firstError: "hexmask: o/a.png: cannot replace it: it is another user's (uid 0), and "
        + "replacing keeps the owner, so not even --force does (remove it first)",
      check: "[ $(side o/a.png) = 32 ] && [ $(stat -c %u o/a.png) = $(id -u) ]"),
    HostileCase(
      title: "a root-owned 0666 output the user may write is not taken over either",
      setup: "hexmask in.jpg o.png --size 32 && chmod 666 o.png",
      command: "as_user in.jpg o.png --size 40", status: 1,
      firstError: "hexmask: o.png: cannot replace it: it is another user's (uid 0), and "
        + "replacing keeps the owner, so not even --force does (remove it first)",
      check: "[ $(side o.png) = 32 ] && [ $(stat -c %u o.png) = $(id -u) ]"),
    HostileCase(
      title: "a root-owned 0666 output in a sticky folder: the same refusal, not EPERM",
      setup: "mkdir s && hexmask in.jpg s/o.png --size 32 && chmod 666 s/o.png && chmod 1777 s",
      command: "as_user in.jpg s/o.png --size 40 --force", status: 1,
      firstError: "hexmask: s/o.png: cannot replace it: it is another user's (uid 0), and "
        + "replacing keeps the owner, so not even --force does (remove it first)",
      check: "[ $(side s/o.png) = 32 ] && [ $(stat -c %u s/o.png) = $(id -u) ]"),
    HostileCase(
      title: "a batch does not take over a root-owned 0666 output, nor its record",
      setup: "mkdir p o && cp in.jpg p/a.jpg && hexmask p --out-dir o --size 32 -q "
        + "&& chmod 666 o/a.png && chmod -R 777 o",
      command: "as_user p --out-dir o --size 40 -q", status: 1,
      firstError: "hexmask: o/a.png: cannot replace it: it is another user's (uid 0), and "
        + "replacing keeps the owner, so not even --force does (remove it first)",
      check: "[ $(side o/a.png) = 32 ] && [ $(stat -c %u o/a.png) = $(id -u) ] "
        + "&& [ $(stat -c %u o/.hexmask/a.png.rec) = $(id -u) ]"),
    HostileCase(
      title: "the user's own output in a group they are not in keeps its group: refused",
      setup: "hexmask in.jpg o.png --size 32 && chmod 664 o.png "
        + "&& { [ $(id -u) != 0 ] || chown 65534:0 o.png; }",
      command: "as_user in.jpg o.png --size 40 --force; s=$?; [ $(id -u) = 0 ] || exit 1; "
        + "exit $s",
      status: 1,
      firstError: "hexmask: o.png: cannot replace it: its group (gid 0) is not one of yours, "
        + "and replacing keeps the owner and group, so not even --force does (remove it first)",
      check: "[ $(side o.png) = 32 ] "
        + "&& { [ $(id -u) != 0 ] || [ $(stat -c %u:%g o.png) = 65534:0 ]; }"),
    HostileCase(
      title: "--dry-run fails the output in a group the user is not in, as the run does",
      setup: "mkdir p o && cp in.jpg p/a.jpg && hexmask in.jpg o/a.png --size 32 && chmod 777 o "
        + "&& chmod 666 o/a.png && { [ $(id -u) != 0 ] || chown 65534:0 o/a.png; }",
      command: "as_user p --out-dir o --dry-run --force; s=$?; [ $(id -u) = 0 ] || exit 1; "
        + "exit $s",
      status: 1,
      firstError: "hexmask: o/a.png: cannot replace it: its group (gid 0) is not one of yours, "
        + "and replacing keeps the owner and group, so not even --force does (remove it first)",
      check: "[ $(side o/a.png) = 32 ]"),
    HostileCase(
      title: "a FIFO where a batch output goes fails at once, dry run or not (no wait)",
      setup: "mkdir p o && cp in.jpg p/a.jpg && mkfifo o/a.png",
      command: "timeout -k 5 20 \"$HEXMASK\" p --out-dir o --dry-run -q; d=$?; "
        + "timeout -k 5 20 \"$HEXMASK\" p --out-dir o -q; s=$?; [ $d = 1 ] && exit $s",
      status: 1,
      firstError: "hexmask: o/a.png: exists and is a FIFO; a batch writes only files (name "
        + "another output)",
      check: "[ -p o/a.png ]"),
    HostileCase(
      title: "the user's own read-only output: refused, then --force replaces it, still theirs",
      setup: "hexmask in.jpg o.png --size 32 && chmod 444 o.png && give o.png",
      command: "as_user in.jpg o.png --size 40; s=$?; [ $(side o.png) = 32 ] || exit 9; "
        + "as_user in.jpg o.png --size 40 --force && exit $s",
      status: 1,
      firstError: "hexmask: o.png: cannot replace it: Permission denied (--force replaces it)",
      check: "[ $(side o.png) = 40 ] "
        + "&& { [ $(id -u) != 0 ] || [ $(stat -c %u:%g o.png) = 65534:65534 ]; }",
      changes: ["o.png"]),
  ]

  static let mutationRows: [HostileCase] = [
    HostileCase(
      title: "files claiming pictures held whole (Adam7 PNG, progressive JPEG, 8000² to 16383²), "
        + "-j 4 under --memory-limit 100M: each refused in one line before allocating",
      setup:
        "mkdir d && cp $FIXTURES/memory/interlaced-*.png $FIXTURES/memory/progressive-16000.jpg "
        + "$FIXTURES/memory/progressive-8000.jpg d/",
      command: "hexmask d --out-dir o -j 4 --memory-limit 100M 2> err; s=$?; cat err >&2; "
        + "[ $(grep -c '^hexmask: d/.*: needs .* to decode, more than the memory limit of 100 MiB "
        + "(--memory-limit)$' err) = 4 ] && exit $s",
      status: 1, firstError: "hexmask: d/…",
      check: "[ -z \"$(find o -type f 2>/dev/null)\" ]"),
    HostileCase(
      title: "copies of one damaged HEIC give one output, whatever -j (no heap leftovers)",
      setup:
        "mkdir d && for i in 1 2 3 4 5 6; do cp $FIXTURES/heif/rainbow-damaged.heic d/c$i.heic; "
        + "done",
      command: "hexmask d --out-dir a -j 2 --size 48 -q && hexmask d --out-dir b -j 1 --size 48 -q "
        + "&& hexmask d/c1.heic one.png --size 48",
      // Three of the changed bytes fall in its ICC profile, which lcms2 (and Pillow) cannot use.
      status: 0,
      firstError: "hexmask: d/c1.heic: warning: ICC profile not used (couldn't link the profiles)…",
      check: "[ $(cat a/*.png b/*.png one.png | wc -c) -gt 0 ] "
        + "&& [ $(for f in a/*.png b/*.png one.png; do cksum < $f; done | sort -u | wc -l) = 1 ]"),
    HostileCase(
      title: "--shard splits photos, ./photos and /abs/photos alike",
      setup: "mkdir photos && for i in 1 2 3 4 5 6 7 8 9; do cp small.png photos/p$i.png; done",
      command: "for i in 0 1 2; do for s in photos ./photos \"$PWD/photos\"; do "
        + "hexmask \"$s\" --out-dir o --dry-run --shard $i/3 | sed 's/.* -> //' >> \"$i\"; "
        + "echo >> \"$i\"; done; done; "
        + "for i in 0 1 2; do n=$(grep -c png \"$i\"); [ $n -gt 0 ] && [ $n -lt 27 ] || exit 9; "
        + "awk -v RS= 'NR == 1 { a = $0 } $0 != a { exit 1 }' \"$i\" || exit 8; done",
      status: 0, firstError: nil),
    HostileCase(
      title: "named temporary files: a corrupt input leaves none behind (one file)",
      setup: "cp $FIXTURES/jpeg/corrupt-header.jpg bad.jpg",
      command: "HEXMASK_NAMED_TEMPORARIES=1 hexmask bad.jpg o.png", status: 1,
      firstError: "hexmask: bad.jpg: …", check: "[ -z \"$(ls -A | grep hexmask-)\" ]"),
    HostileCase(
      title: "named temporary files: a corrupt input leaves none behind (batch)",
      setup: "mkdir p && cp $FIXTURES/jpeg/corrupt-header.jpg p/bad.jpg",
      command: "HEXMASK_NAMED_TEMPORARIES=1 hexmask p --out-dir o -q", status: 1,
      firstError: "hexmask: p/bad.jpg: …",
      check: "[ -z \"$(ls -A o | grep hexmask-)\" ] && [ ! -e o/bad.png ]"),
  ]

  /// What a second fresh-eyes tryout found, one row each.
  static let tryoutRows: [HostileCase] = [
    HostileCase(
      title: "batch --force replaces a camera photo and the user's own read-only output",
      setup: "mkdir p o && cp in.jpg p/a.jpg && cp in.jpg p/b.jpg && cp $FIXTURES/heif/rocket.heic "
        + "o/a.png && hexmask in.jpg o/b.png --size 32 && chmod 444 o/b.png && give o/a.png "
        + "o/b.png && chmod 777 o",
      command: "as_user p --out-dir o --force -q", status: 0, firstError: nil,
      check: "is_png o/a.png && [ $(side o/b.png) = 427 ]", changes: ["o/a.png", "o/b.png"]),
    HostileCase(
      title: "an output that is the --files-from list, by name or by link, is a conflict",
      setup: "mkdir o9 o11 && printf 'in.jpg\\n' > o9/list.png && printf 'in.jpg\\n' > realist "
        + "&& ln -s ../realist o11/in.png",
      command: "hexmask --files-from o9/list.png --out-dir o9 --name list.png; a=$?; "
        + "hexmask --files-from realist --out-dir o11 2>/dev/null; [ $? = 2 ] && exit $a",
      status: 2,
      firstError: "hexmask: conflict: 'in.jpg' would write 'o9/list.png', which is the "
        + "--files-from list"),
    HostileCase(
      title: "--dry-run into an --out-dir that cannot be one fails as the real run does",
      setup: "touch f",
      command: "hexmask in.jpg --out-dir f/sub --dry-run", status: 1,
      firstError: "hexmask: f/sub: cannot be the output folder: 'f' is not a folder"),
    HostileCase(
      title: "--dry-run creates no output folder",
      command: "hexmask in.jpg --out-dir new/sub --dry-run > plan", status: 0, firstError: nil,
      check: "[ ! -e new ] && grep -q 'new/sub/in.png' plan"),
    HostileCase(
      title: "a repeated --svg or --files-from, and picture options with --mask-only, warn",
      command: "hexmask in.jpg o.png --svg a.svg --svg b.svg --size 32 2> w1; "
        + "hexmask in.jpg m.png --mask-only --border-color red --strip --no-rotate 2> w2; "
        + "cat w1 w2 >&2",
      status: 0,
      firstError: "hexmask: warning: --svg 'a.svg' has no effect: a later --svg 'b.svg' "
        + "replaces it",
      check: "[ ! -e a.svg ] && [ $(grep -c 'no effect with --mask-only' w2) = 3 ]"),
    HostileCase(
      title: "a folder named in a message is quoted as ls quotes it",
      command: #"hexmask in.jpg "$(printf 'no\ndir')/x.png""#, status: 1,
      firstError: #"hexmask: $'no\ndir/x.png': output folder $'no\ndir' does not exist"#),
  ]
}
