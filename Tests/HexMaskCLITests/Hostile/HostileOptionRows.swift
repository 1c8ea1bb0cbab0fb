/// Hostile-user rows about options that do nothing, options that contradict each other or
/// the output's name, messages that misled and the conventions of Unix tools.
extension HostileUserTests {
  /// One warning line, and nothing else said about it (the run still writes).
  private static func warns(_ options: String, _ warning: String, check: String = "is_png o.png")
    -> HostileCase
  {
    HostileCase(
      title: "\(options) warns that it does nothing",
      command: "hexmask in.jpg o.png --size 32 \(options) 2> err; s=$?; cat err >&2; exit $s",
      status: 0, firstError: "hexmask: warning: \(warning)",
      check: "[ $(grep -c 'warning: ' err) = 1 ] && hexmask in.jpg q.png --size 32 -q "
        + "\(options) 2> quiet && [ ! -s quiet ] && \(check)")
  }

  static let ineffectiveOptionRows: [HostileCase] = [
    HostileCase(
      title: "--no-upscale without --size warns once",
      command: "hexmask in.jpg o.png --no-upscale", status: 0,
      firstError: "hexmask: warning: --no-upscale has no effect without --size",
      check: "is_png o.png"),
    HostileCase(
      title: "--background with --mask-only warns",
      command: "hexmask --mask-only --size 32 m.png --background red", status: 0,
      firstError: "hexmask: warning: --background has no effect with --mask-only",
      check: "is_png m.png"),
    HostileCase(
      title: "--focus with --mask-only warns",
      command: "hexmask --mask-only in.jpg m.png --focus 0.2,0.2", status: 0,
      firstError: "hexmask: warning: --focus has no effect with --mask-only",
      check: "is_png m.png"),
    HostileCase(
      title: "--gravity with --mask-only warns",
      command: "hexmask --mask-only in.jpg m.png --gravity west", status: 0,
      firstError: "hexmask: warning: --gravity has no effect with --mask-only",
      check: "is_png m.png"),
    warns("--line 0 --border-color gold", "--border-color has no effect with --line 0"),
    HostileCase(
      title: "-0 without --files-from warns",
      command: "hexmask in.jpg --out-dir out -0", status: 0,
      firstError: "hexmask: warning: -0 (--null) has no effect without --files-from",
      check: "is_png out/in.png"),
    HostileCase(
      title: "a repeated --out-dir warns that the last one wins",
      command: "hexmask in.jpg --out-dir a --out-dir b", status: 0,
      firstError: "hexmask: warning: --out-dir 'a' has no effect: a later --out-dir 'b' "
        + "replaces it",
      check: "is_png b/in.png && [ ! -e a ]"),
    HostileCase(
      title: "-q keeps the warnings of options that do nothing back",
      command: "hexmask in.jpg --out-dir a --out-dir b -0 --no-upscale -q", status: 0,
      firstError: nil, check: "is_png b/in.png"),
    HostileCase(
      title: "--gravity with --focus is a usage error, one line",
      command: "hexmask in.jpg o.png --gravity north --focus 0.2,0.2 2> err; s=$?; cat err >&2; "
        + "exit $s",
      status: 2, firstError: "hexmask: --gravity and --focus both choose the square; give only one",
      check: "[ $(wc -l < err) = 1 ] && [ ! -e o.png ]"),
    HostileCase(
      title: "--format png with an out.jpg name is a usage error, one line",
      command: "hexmask in.jpg out.jpg --format png 2> err; s=$?; cat err >&2; exit $s",
      status: 2,
      firstError: "hexmask: --format png contradicts the name 'out.jpg', a JPEG name; drop one, "
        + "or name a .png file",
      check: "[ $(wc -l < err) = 1 ] && [ ! -e out.jpg ]"),
    HostileCase(
      title: "--format webp with an out.JPEG name is a usage error too",
      command: "hexmask in.jpg out.JPEG --format webp", status: 2,
      firstError: "hexmask: --format webp contradicts the name 'out.JPEG', a JPEG name; …"),
    HostileCase(
      title: "--format jpeg with a name the format agrees with, or no known extension, works",
      command: "hexmask in.jpg a.jpeg --format jpg --size 32 && hexmask in.jpg b.img "
        + "--format jpeg --size 32",
      status: 0, firstError: nil,
      check: #"[ "$(head -c 3 a.jpeg | od -An -tx1 | tr -d ' \n')" = ffd8ff ] && "#
        + #"[ "$(head -c 3 b.img | od -An -tx1 | tr -d ' \n')" = ffd8ff ]"#),
    HostileCase(
      title: "--format png with --name '{name}.jpg' is a usage error",
      command: "hexmask in.jpg --out-dir out --format png --name '{name}.jpg'", status: 2,
      firstError: "hexmask: --format png contradicts the name '{name}.jpg', a JPEG name; …",
      check: "[ ! -e out ]"),
  ]

  static let misleadingMessageRows: [HostileCase] = [
    HostileCase(
      title: "a batch output that is a folder does not point to --out-dir, which is given",
      setup: "mkdir -p out/in.png",
      command: "hexmask in.jpg --out-dir out", status: 1,
      firstError: "hexmask: out/in.png: is a folder; move it away, or name the outputs "
        + "otherwise with --name",
      check: "[ -d out/in.png ]"),
    HostileCase(
      title: "the conflict hint does not suggest -r when -r is given",
      setup: "mkdir -p p/a && cp in.jpg p/x.jpg && cp small.png p/x.png",
      command: "hexmask -r p --out-dir out 2> err; s=$?; cat err >&2; exit $s", status: 2,
      firstError: "hexmask: conflict: …",
      check: "grep -qx \"Tell the outputs apart with --name (e.g. '{name}-{ext}.png').\" err "
        + "&& ! grep -q -- '-r' err && [ ! -e out ]"),
    HostileCase(
      title: "the conflict hint suggests -r when it is not given",
      setup: "mkdir a b && cp in.jpg a/x.jpg && cp in.jpg b/x.jpg",
      command: "hexmask a b --out-dir out 2> err; s=$?; cat err >&2; exit $s", status: 2,
      firstError: "hexmask: conflict: …", check: "grep -q 'or mirror folders with -r' err"),
    HostileCase(
      title: "a damaged AVIF is called a corrupt AVIF, not HEIF",
      setup: "head -c 300 \"$FIXTURES/heif/rocket-alpha.avif\" > bad.avif",
      command: "hexmask bad.avif o.png", status: 1,
      firstError: "hexmask: bad.avif: corrupt AVIF: …",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "a damaged HEIC is still called a corrupt HEIF",
      setup: "head -c 300 \"$FIXTURES/heif/rocket.heic\" > bad.heic",
      command: "hexmask bad.heic o.png", status: 1,
      firstError: "hexmask: bad.heic: corrupt HEIF: …",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "--out-dir naming a regular file is said once, exit 1, nothing read or written",
      setup: "touch blocker",
      command: "hexmask in.jpg small.png --out-dir blocker 2> err; s=$?; cat err >&2; exit $s",
      status: 1,
      firstError: "hexmask: blocker: cannot be the output folder: 'blocker' is not a folder",
      check: "[ $(wc -l < err) = 1 ] && [ ! -s blocker ]"),
    HostileCase(
      title: "--name '{name}/' is a usage error, not a failure of every file",
      command: "hexmask in.jpg small.png --out-dir out --name '{name}/'", status: 2,
      firstError: "hexmask: invalid name template '{name}/' for '--name': ends with '/', so it "
        + "names a folder, not a file",
      check: "[ ! -e out ]"),
    HostileCase(
      title: "--name '{name}.gif' is a usage error, not a failure of every file",
      command: "hexmask in.jpg small.png --out-dir out --name '{name}.gif'", status: 2,
      firstError: "hexmask: --name '{name}.gif' ends in '.gif', which is not a format hexmask "
        + "writes: use .png, .jpg, .jpeg, .webp, .avif or .jxl, or --format",
      check: "[ ! -e out ]"),
    HostileCase(
      title: "--name '{name}.jpg' writes JPEGs, and --quality does not warn for them",
      command: "hexmask in.jpg --out-dir out --name '{name}.jpg' --quality 70", status: 0,
      firstError: "hexmask: 1 written, 0 skipped, 0 failed in …",
      check: #"[ "$(head -c 3 out/in.jpg | od -An -tx1 | tr -d ' \n')" = ffd8ff ]"#),
  ]

  static let unixConventionRows: [HostileCase] = [
    HostileCase(
      title: "an empty --files-from list is nothing to do: exit 0 with a note",
      command: "hexmask --files-from - --out-dir out < /dev/null", status: 0,
      firstError: "hexmask: nothing to do: the inputs hold no files"),
    HostileCase(
      title: "the cron recipe on a quiet day: find finds nothing, hexmask -q says nothing",
      setup: "touch stamp",
      command: "find . -name '*.jpg' -newer stamp | hexmask --files-from - --out-dir o -q",
      status: 0, firstError: nil),
    HostileCase(
      title: "an empty folder is nothing to do: exit 0 with a note",
      setup: "mkdir empty", command: "hexmask empty --out-dir out", status: 0,
      firstError: "hexmask: nothing to do: the inputs hold no files"),
    HostileCase(
      title: "a folder of files none of which is a picture still exits 1",
      setup: "mkdir notes && echo hi > notes/a.txt",
      command: "hexmask notes --out-dir out", status: 1, firstError: "hexmask: skipped 1 file …"),
    HostileCase(
      title: "-q works for one file and silences its decoder warnings",
      setup: "head -c 20000 in.jpg > cut.jpg",
      command: "hexmask cut.jpg o.png --size 32 -q", status: 0, firstError: nil,
      check: "is_png o.png && hexmask cut.jpg p.png --size 32 2> err && grep -q warning err"),
    HostileCase(
      title: "--background transparent with JPEG output is a usage error",
      command: "hexmask in.jpg o.jpg --background transparent", status: 2,
      firstError: "hexmask: --background must be opaque for JPEG output, which has no "
        + "transparency; use WebP or PNG to keep it",
      check: "[ ! -e o.jpg ]"),
    HostileCase(
      title: "a half-transparent --background with a batch of JPEGs is a usage error",
      command: "hexmask in.jpg --out-dir out --format jpeg --background '#ff000080'", status: 2,
      firstError: "hexmask: --background must be opaque for JPEG output, …", check: "[ ! -e out ]"),
    HostileCase(
      title: "--colors with JPEG output is a usage error",
      command: "hexmask in.jpg o.jpg --colors 64", status: 2,
      firstError: "hexmask: --colors writes a palette PNG, and JPEG output has none; drop "
        + "--colors, or write a .png",
      check: "[ ! -e o.jpg ]"),
    HostileCase(
      title: "--colors with a batch of WebPs is a usage error",
      command: "hexmask in.jpg --out-dir out --format webp --colors 64", status: 2,
      firstError: "hexmask: --colors writes a palette PNG, and WebP output has none; …",
      check: "[ ! -e out ]"),
    HostileCase(
      title: "--format against a --name that takes the input's extension is a usage error",
      setup: "cp in.jpg b.png",
      command: "hexmask in.jpg b.png --out-dir out --name '{name}.{ext}' --size 16 --format avif",
      status: 2,
      firstError: "hexmask: --format avif contradicts the output name 'out/in.jpg' (from --name "
        + "'{name}.{ext}'), a JPEG name; give --name the .avif extension",
      check: "[ ! -e out ]"),
    HostileCase(
      title: "--colors against a --name that makes JPEG names is a usage error, dry run too",
      command: "hexmask in.jpg --out-dir out --name '{name}.{ext}' --colors 4 --dry-run",
      status: 2,
      firstError: "hexmask: --colors writes a PNG, and the output name 'out/in.jpg' (from --name "
        + "'{name}.{ext}') is a JPEG name; give --name the .png extension",
      check: "[ ! -e out ]"),
    HostileCase(
      title: "a --name that gives an output an extension of no format is a usage error",
      setup: "cp in.jpg b.heic",
      command: "hexmask in.jpg b.heic --out-dir out --name '{name}.{ext}' --dry-run", status: 2,
      firstError: "hexmask: the output name 'out/b.heic' (from --name '{name}.{ext}') ends in "
        + "'.heic', which is not a format hexmask writes; give --name the extension, or --format",
      check: "[ ! -e out ]"),
    HostileCase(
      title: "a translucent --background against a --name that makes JPEG names is a usage error",
      command: "hexmask in.jpg --out-dir out --name '{name}.{ext}' --background '#ff000080'",
      status: 2,
      firstError: "hexmask: --background must be opaque for JPEG output, and the output name "
        + "'out/in.jpg' (from --name '{name}.{ext}') is a JPEG name; give --name another extension",
      check: "[ ! -e out ]"),
    HostileCase(
      title: "--quality with a --name that takes the input's extension warns of nothing",
      setup: "hexmask in.jpg b.png --size 64 -q",
      command: "hexmask in.jpg b.png --out-dir out --name '{name}.{ext}' --size 16 --quality 50",
      status: 0, firstError: "hexmask: 2 written, 0 skipped, 0 failed…",
      check: "is_png out/b.png && [ -s out/in.jpg ]"),
    HostileCase(
      title: "--mask-only with a batch of AVIFs is a usage error, not a failure per file",
      command: "hexmask -r . --out-dir out --mask-only --format avif --size 16", status: 2,
      firstError: "hexmask: --mask-only writes a gray PNG, and AVIF output cannot hold it; "
        + "drop one, or write .png files",
      check: "[ ! -e out ]"),
    HostileCase(
      title: "a palette PNG is the same for no --compression, default and small",
      command: "hexmask in.jpg a.png --size 64 --colors 16 && hexmask in.jpg b.png --size 64 "
        + "--colors 16 --compression default && hexmask in.jpg c.png --size 64 --colors 16 "
        + "--compression small && hexmask in.jpg d.png --size 64 --colors 16 --compression 0",
      status: 0, firstError: nil,
      check: "cmp a.png b.png && cmp a.png c.png && ! cmp -s a.png d.png"),
    HostileCase(
      title: "--colors 1 is a usage error",
      command: "hexmask in.jpg o.png --colors 1", status: 2,
      firstError: "hexmask: invalid value '1' for '--colors': …", check: "[ ! -e o.png ]"),
    HostileCase(
      title: "--colors 16 writes a palette PNG, and a mask's is gray",
      command: "hexmask in.jpg o.png --size 32 --colors 16 && hexmask --mask-only --size 32 "
        + "--colors 4 m.png",
      status: 0, firstError: nil,
      check: "is_png o.png && [ \"$(od -An -tu1 -j25 -N1 o.png)\" -eq 3 ] && "
        + "[ \"$(od -An -tu1 -j25 -N1 m.png)\" -eq 3 ]"),
    HostileCase(
      title: "--colors refuses a picture whose palette would not fit the memory limit",
      command: "hexmask in.jpg o.png --size 3000 --colors 256 --memory-limit 64M", status: 1,
      firstError: "hexmask: o.png: needs 563 MiB to encode a 3000×3000 palette PNG, more than "
        + "the memory limit of 64 MiB (--memory-limit)",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "an AVIF or WebP that would not fit the memory limit to encode is refused",
      command: "hexmask in.jpg o.avif --size 3000 --memory-limit 64M", status: 1,
      firstError: "hexmask: o.avif: needs 322 MiB to encode a 3000×3000 AVIF, more than the "
        + "memory limit of 64 MiB (--memory-limit)",
      check: "[ ! -e o.avif ] && ! hexmask in.jpg o.webp --size 3000 --memory-limit 64M 2> err "
        + "&& grep -q 'needs 334 MiB to encode a 3000×3000 WebP' err && [ ! -e o.webp ]"),
    HostileCase(
      title: "--colors --dither writes the same bytes for any -j",
      setup: "cp in.jpg b.jpg && cp in.jpg c.jpg",
      command: "hexmask in.jpg b.jpg c.jpg --out-dir j1 --size 32,48 --name '{name}-{size}.png' "
        + "--colors 8 --dither -j 1 -q && hexmask in.jpg b.jpg c.jpg --out-dir j3 --size 32,48 "
        + "--name '{name}-{size}.png' --colors 8 --dither -j 3 -q",
      status: 0, firstError: nil,
      check: "for f in j1/*.png; do cmp -s \"$f\" j3/\"${f#j1/}\" || exit 1; done "
        + "&& [ \"$(ls j1/*.png | wc -l)\" -eq 6 ]"),
    HostileCase(
      title: "a half-transparent --background keeps its alpha in WebP",
      command: "hexmask in.jpg o.webp --size 32 --background '#ff000080' && hexmask o.webp "
        + "back.png",
      status: 0, firstError: nil,
      check: "grep -q ALPH o.webp && is_png back.png"),
    HostileCase(
      title: "a half-transparent --background keeps its alpha in PNG, exactly",
      // In sRGB: kept, in.jpg's profile would have the colour written in its own numbers.
      command: "hexmask in.jpg o.png --size 32 --background '#ff000080' --colorspace srgb",
      status: 0,
      firstError: nil,
      // The top-left pixel is outside the shape: the background alone. Row 0 is filtered
      // with Up against zeros, so its bytes are the pixels'.
      check: "[ \"$(python3 -c \"import zlib,sys; d=open('o.png','rb').read(); "
        + "i=d.index(b'IDAT'); print(list(zlib.decompressobj().decompress(d[i+4:])[1:5]))\")\" "
        + "= '[255, 0, 0, 128]' ]"),
    HostileCase(
      title: "--verbose names a dangling symbolic link a folder search passes over",
      setup: "mkdir p && cp in.jpg p/a.jpg && ln -s gone.jpg p/b.jpg",
      command: "hexmask p --out-dir out --verbose 2> err; s=$?; cat err >&2; exit $s", status: 0,
      firstError: "hexmask: skipped p/b.jpg: dangling symbolic link",
      check: "is_png out/a.png && hexmask p --out-dir out2 2> quiet && ! grep -q b.jpg quiet"),
    HostileCase(
      title: "--verbose names a hard-linked duplicate a folder search passes over",
      setup: "mkdir p && cp in.jpg p/a.jpg && ln p/a.jpg p/b.jpg",
      command: "hexmask p --out-dir out --verbose", status: 0,
      firstError: "hexmask: skipped p/b.jpg: the same file as p/a.jpg",
      check: "is_png out/a.png && [ ! -e out/b.png ]"),
  ]
}
