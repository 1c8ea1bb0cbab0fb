/// Hostile-user rows about what the process shares with its parent: descriptor 2, which the
/// decoders also write to (issue 18, item 10).
extension HostileUserTests {
  /// A HEIC whose SPS makes libde265 print "SPS error: CB alignment" to descriptor 2.
  private static let damagedHEIC = "cp \"$FIXTURES/heif/rocket-bad-sps.heic\" bad.heic"

  static let processRows: [HostileCase] = [
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
  ]
}
