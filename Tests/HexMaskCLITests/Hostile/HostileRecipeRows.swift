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
      title: "a rerun with --rotation 30 or 150, the default hexagon turned by steps, skips them",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --rotation 30 -q --json > rows "
        + "&& hexmask photos --out-dir out --size 48 --rotation 150 -q --json >> rows",
      status: 0, firstError: nil,
      check: "[ $(grep -c '\"status\":\"skipped\"' rows) = 4 ] && hexmask photos --out-dir "
        + "fresh --size 48 --rotation 30 -q && cmp out/a.png fresh/a.png && cmp out/b.png "
        + "fresh/b.png && hexmask --svg 150.svg --size 48 --rotation 150 && hexmask --svg "
        + "default.svg --size 48 && cmp 150.svg default.svg"),
    HostileCase(
      title: "a rerun with --rotation 45 or 60 (half a step) rebuilds them, as a fresh run does",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --rotation 45 -q --json > rows "
        + "&& hexmask photos --out-dir out --size 48 --rotation 60 -q --json >> rows",
      status: 0, firstError: nil,
      check: "[ $(grep -c '\"reason\":\"changed\"' rows) = 4 ] && hexmask photos --out-dir "
        + "fresh --size 48 --rotation 60 -q && cmp out/a.png fresh/a.png",
      changes: outputs()),
    HostileCase(
      title: "a rerun with --frame 0 on still pictures skips them, and one without it again",
      setup: rendered("--size 48"),
      command: "hexmask photos --out-dir out --size 48 --frame 0 -q --json > rows "
        + "&& hexmask photos --out-dir out --size 48 --frame first -q --format webp "
        + "&& hexmask photos --out-dir out --size 48 --frame 0 -q --format webp --json >> rows "
        + "&& hexmask photos --out-dir out --size 48 -q --format webp --json >> rows",
      status: 0, firstError: nil,
      check: "[ $(grep -c '\"status\":\"skipped\"' rows) = 6 ] && hexmask photos "
        + "--out-dir fresh --size 48 --frame 0 -q && cmp out/a.png fresh/a.png"),
    HostileCase(
      title: "--frame 0 on an animation into a PNG rebuilds it (a still where it moved)",
      setup: "mkdir photos && cp \"$FIXTURES/animation/mixed-disposal.gif\" photos/anim.gif "
        + "&& hexmask photos --out-dir out --size 48 -q",
      command: "hexmask photos --out-dir out --size 48 --frame 0 -q --json > rows "
        + "&& hexmask photos --out-dir out --size 48 --frame 0 -q --json >> rows "
        + "&& hexmask photos --out-dir out --size 48 --frame 0 --format jpeg -q "
        + "&& hexmask photos --out-dir out --size 48 --format jpeg -q --json >> rows",
      status: 0, firstError: nil,
      check: "grep -q '\"output\":\"out/anim.png\",\"status\":\"written\",\"reason\":"
        + "\"changed\"' rows && [ $(grep -c '\"status\":\"skipped\"' rows) = 2 ] "
        + "&& hexmask photos/anim.gif still.png --size 48 --frame 0 -q "
        + "&& cmp out/anim.png still.png",
      changes: ["out/anim.png", "out/.hexmask/anim.png.rec"]),
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
