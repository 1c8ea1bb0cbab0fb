/// Hostile-user rows about what the process shares with its parent: descriptor 2, which the
/// decoders also write to, and the signal dispositions it inherits.
extension HostileUserTests {
  /// Twelve copies of the rocket in `photos/`: a batch of them takes over a second with
  /// `-j 1`, long enough to be stopped (or not) in the middle.
  private static let twelvePhotos =
    "mkdir photos && for i in $(seq -w 1 12); do cp in.jpg photos/p$i.jpg; done"

  /// True when `out/` holds fewer than twelve pictures and each of them is a whole PNG.
  private static let someButNotAllWritten =
    #"[ "$(ls out | wc -l)" -lt 12 ] && for f in out/*.png; do is_png "$f" || exit 1; done"#

  /// A HEIC whose SPS makes libde265 print "SPS error: CB alignment" to descriptor 2.
  private static let damagedHEIC = "cp \"$FIXTURES/heif/rocket-bad-sps.heic\" bad.heic"

  static let processRows: [HostileCase] =
    [
      HostileCase(
        title: "a damaged HEIC gets hexmask's one line, not libde265's own",
        setup: damagedHEIC,
        command: keepingStandardError("hexmask bad.heic out.png"), status: 1,
        firstError: "hexmask: bad.heic: corrupt HEIF: …",
        check: lineCount(1) + " && [ ! -e out.png ]"),
      HostileCase(
        title: "damaged HEICs on two threads: one line each, and the summary",
        setup: damagedHEIC + " && mkdir bad && for i in 1 2 3; do cp bad.heic bad/$i.heic; done",
        command: keepingStandardError("hexmask bad in.jpg --out-dir out -j 2"), status: 1,
        firstError: "hexmask: bad/1.heic: corrupt HEIF: …",
        check: lineCount(4) + " && ! grep -v '^hexmask: ' stderr.txt && is_png out/in.png"),
      HostileCase(
        title: "a damaged HEIC's message lost on a full stderr still fails, quietly",
        setup: damagedHEIC,
        command: "hexmask bad.heic out.png 2>/dev/full", status: 1, firstError: nil,
        check: "[ ! -e out.png ]"),
      HostileCase(
        title: "with SIGPIPE ignored, a --json pipe closed early stops the batch: 141, silent",
        setup: twelvePhotos,
        command: "trap '' PIPE; { hexmask photos --out-dir out --json -j 1; echo $? > status; } "
          + "| head -c 10 > /dev/null; exit \"$(cat status)\"",
        status: 141, firstError: nil, check: someButNotAllWritten),
      HostileCase(
        title: "with SIGPIPE ignored, a stderr pipe closed early stops the batch too",
        setup: twelvePhotos,
        command: "trap '' PIPE; { hexmask photos --out-dir out --verbose -j 1 2>&1 > /dev/null; "
          + "echo $? > status; } | head -c 10 > /dev/null; exit \"$(cat status)\"",
        status: 141, firstError: nil, check: someButNotAllWritten),
    ]
    + ["INT", "TERM"].map { signal in
      HostileCase(
        title: "a batch whose parent ignores SIG\(signal) keeps ignoring it and finishes",
        setup: twelvePhotos,
        // "$HEXMASK", not the shell function, so that `$!` is hexmask itself.
        command: "trap '' \(signal); \"$HEXMASK\" photos --out-dir out -j 1 -q & p=$!; "
          + "while [ ! -e out/p01.png ]; do sleep 0.02; done; "
          + "kill -\(signal) $p || exit 99; wait $p",
        status: 0, firstError: nil, check: #"[ "$(ls out | wc -l)" -eq 12 ]"#)
    }
}
