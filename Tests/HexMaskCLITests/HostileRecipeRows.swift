/// Hostile-user rows about reruns and options that change no byte: the
/// record is taken over each output's effective recipe, so spelling the same output another
/// way skips it, and a real change still rebuilds.
extension HostileUserTests {
  /// Two photos rendered into `out/` once, quietly, with `options`.
  private static func rendered(_ options: String) -> String {
    "mkdir photos && cp in.jpg photos/a.jpg && cp small.png photos/b.png "
      + "&& hexmask photos --out-dir out -q \(options)"
  }
  /// The outputs of `rendered` and their records, which a rebuilding rerun replaces.
  private static func outputs(_ ext: String = "png") -> [String] {
    ["out/a.\(ext)", "out/b.\(ext)", "out/.hexmask/a.\(ext).rec", "out/.hexmask/b.\(ext).rec"]
  }
  private static let bothSkipped = "[ $(grep -c '\"status\":\"skipped\"' rows) = 2 ]"

  static let recipeRows: [HostileCase] = [
    HostileCase(
      title: "a rerun adding --quality to PNG outputs skips them",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --quality 50 --json > rows", status: 0,
      firstError: "hexmask: warning: --quality has no effect on PNG output", check: bothSkipped),
    HostileCase(
      title: "a rerun adding a --max-pixels above the pictures skips them",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --max-pixels 100000000", status: 0,
      firstError: "hexmask: 0 written, 2 skipped, 0 failed in …"),
    HostileCase(
      title: "a rerun adding --no-upscale without --size skips them",
      setup: rendered(""),
      command: "hexmask photos --out-dir out --no-upscale -q --json > rows", status: 0,
      firstError: nil, check: bothSkipped),
    HostileCase(
      title: "a rerun adding --focus 0.5,0.5, the centre, skips them",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --focus 0.5,0.5", status: 0,
      firstError: "hexmask: 0 written, 2 skipped, 0 failed in …"),
    HostileCase(
      title: "a rerun with --rotation 450, the default 90, skips them",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --rotation 450", status: 0,
      firstError: "hexmask: 0 written, 2 skipped, 0 failed in …"),
    HostileCase(
      title: "a rerun with --rotation -270, the default 90 turned the other way, skips them",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --rotation -270", status: 0,
      firstError: "hexmask: 0 written, 2 skipped, 0 failed in …"),
    HostileCase(
      title: "a rerun giving the defaults --corner 10 --line 5 skips them",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --corner 10 --line 5", status: 0,
      firstError: "hexmask: 0 written, 2 skipped, 0 failed in …"),
    HostileCase(
      title: "a rerun with --rotation 91 rebuilds them, as a fresh run makes them",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --rotation 91", status: 0,
      firstError: "hexmask: 2 written, 0 skipped, 0 failed in …",
      check: "hexmask photos --out-dir fresh --size 48 --rotation 91 -q && cmp out/a.png "
        + "fresh/a.png && cmp out/b.png fresh/b.png",
      changes: outputs()),
    HostileCase(
      title: "a rerun with another --quality for JPEG outputs rebuilds them",
      setup: rendered("--size 48 --format jpeg"),
      command: "hexmask photos --out-dir out --size 48 --format jpeg --quality 50", status: 0,
      firstError: "hexmask: 2 written, 0 skipped, 0 failed in …", changes: outputs("jpg")),
    HostileCase(
      title: "a rerun with --line 5 on a canvas where the default line shrinks to 4 rebuilds",
      setup: rendered("--size 32"),
      command: "hexmask photos --out-dir out --size 32 --line 5", status: 0,
      firstError: "hexmask: 2 written, 0 skipped, 0 failed in …", changes: outputs()),
  ]
}
