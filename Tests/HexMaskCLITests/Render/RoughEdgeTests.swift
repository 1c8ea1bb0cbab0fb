import HexMask
import Testing

@testable import HexMaskCLI

/// The rough edges a fresh-eyes tryout found, one row each, run by the
/// hostile-user harness (``runHostileCase(_:prepare:)``: `in.jpg` is 640 × 427, `small.png`
/// 32 × 32).
@Suite(.tags(.endToEnd)) struct RoughEdgeTests {
  static let messageRows: [HostileCase] = [
    // A4: a corner too large is a usage error for the one picture given (status 2, nothing
    // written), but one file's failure in a batch (status 1), and the help says both.
    HostileCase(
      title: "A4: a corner too large for one picture of a batch fails that file, status 1",
      setup: "mkdir p && cp in.jpg p/a.jpg && cp small.png p/b.png",
      command: "hexmask p --out-dir o --corner 30 -q", status: 1,
      firstError: "hexmask: p/b.png: --corner 30 is too large: at most …",
      check: "[ -e o/a.png ] && [ ! -e o/b.png ]"),
    HostileCase(
      title: "A4: the help's status 2 says a batch makes a too-large corner status 1",
      command: "hexmask --help > help", status: 0, firstError: nil,
      check:
        "grep -A3 '^  2' help | tr '\\n' ' ' | tr -s ' ' | grep -q 'in a batch, that file.s failure: status 1'"
    ),
    HostileCase(
      title: "A4: a corner too large for the one picture given is status 2, nothing written",
      command: "hexmask small.png o.png --corner 30", status: 2,
      firstError: "hexmask: small.png: --corner 30 is too large: at most …",
      check: "[ ! -e o.png ]"),
    // A5: the compact HEIF form is named, not called "not an image file".
    HostileCase(
      title: "A5: a mif3 AVIF is named and the reason given",
      setup: "cp \"$FIXTURES/heif/simple_osm_tile_alpha.avif\" tile.avif",
      command: "hexmask tile.avif o.png", status: 1,
      firstError: "hexmask: tile.avif: a compact AVIF or HEIF (brand 'mif3', a 'mini' header), "
        + "which this build's libheif cannot read; AVIF and HEIC with a full header (brands "
        + "avif, heic, mif1) are read",
      check: "[ ! -e o.png ]"),
    // A6: the default the help names can be typed.
    HostileCase(
      title: "A6: --background none is the default, transparent",
      command: "hexmask in.jpg a.png --background none && hexmask in.jpg b.png", status: 0,
      firstError: nil, check: "cmp a.png b.png"),
    HostileCase(
      title: "A6: --background none on a JPEG is its default white",
      command: "hexmask in.jpg a.jpg --background NONE && hexmask in.jpg b.jpg", status: 0,
      firstError: nil, check: "cmp a.jpg b.jpg"),
    // A7: messages keep what the user typed.
    HostileCase(
      title: "A7: a percentage corner too large is told as typed, with its pixels",
      command: "hexmask in.jpg o.png --corner 50%", status: 2,
      firstError: "hexmask: in.jpg: --corner 50% (213.50 px) is too large: at most 120.57 fits "
        + "a 427 px canvas with this line and number of sides",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "A7: a --max-pixels beyond any number is too large, and the range is named",
      command: "hexmask in.jpg o.png --max-pixels 99999999999999999999", status: 2,
      firstError: "hexmask: invalid value '99999999999999999999' for '--max-pixels': too "
        + "large, expected a whole number from 1 to 9223372036854775807"),
    HostileCase(
      title: "A7: an SVG name without {size} is suggested as an SVG name",
      command: "hexmask --svg o.svg --size 64,128", status: 2,
      firstError: "hexmask: --svg 'o.svg' names one file, but --size lists several; put {size} "
        + "in it (e.g. 'o-{size}.svg')",
      check: "[ ! -e o.svg ]"),
    // A8: standard error is no place for a picture, however named.
    HostileCase(
      title: "A8: /dev/stderr as OUTPUT with standard error in a file is refused",
      command: "hexmask in.jpg /dev/stderr --quality 80 2> x.png", status: 2,
      firstError: nil,
      check: "[ \"$(cat x.png)\" = \"hexmask: /dev/stderr: output is standard error, where "
        + "hexmask's messages go; they would mix with the picture's bytes\" ]"),
    HostileCase(
      title: "A8: OUTPUT that is the file standard error goes to is refused",
      command: "hexmask in.jpg x.png --quality 80 2> x.png", status: 2, firstError: nil,
      check: "grep -q '^hexmask: x.png: output is standard error' x.png && ! is_png x.png"),
    HostileCase(
      title: "A8: /dev/fd/2 and /proc/self/fd/2 are standard error too",
      command: "hexmask in.jpg /dev/fd/2 2>/dev/null; [ $? = 2 ] || exit 9; hexmask in.jpg "
        + "o.png --svg /proc/self/fd/2 2> e", status: 2, firstError: nil,
      check: "grep -q \"the --svg output is standard error\" e && [ ! -e o.png ]"),
    HostileCase(
      title: "A8: a batch output that is the file standard error goes to is refused",
      setup: "mkdir p o && cp in.jpg p/a.jpg && cp small.png p/b.png",
      command: "hexmask p --out-dir o 2> o/a.png", status: 2, firstError: nil,
      check: "grep -q '^hexmask: o/a.png: output is standard error' o/a.png && [ ! -e o/b.png ]"),
  ]

  /// A10: the records can be kept out of a folder that is published.
  static let recordRows: [HostileCase] = [
    HostileCase(
      title: "A10: --records keeps the records out of the output folder, and reruns skip",
      setup: "mkdir -p p/2024 && cp in.jpg p/2024/a.jpg && cp small.png p/b.png",
      command: "hexmask -r p --out-dir public --records recs -q && hexmask -r p --out-dir public "
        + "--records recs --json > rows", status: 0,
      firstError: "hexmask: 0 written, 2 skipped, 0 failed in …",
      check: "[ ! -e public/.hexmask ] && [ -s recs/2024/a.png.rec ] && [ -s recs/b.png.rec ] "
        + "&& [ $(grep -c '\"skipped\"' rows) = 2 ]"),
    HostileCase(
      title: "A10: a record is a digest and stamps, no path",
      setup: "mkdir p && cp in.jpg p/secret-name.jpg",
      command: "hexmask p --out-dir public --records recs -q", status: 0, firstError: nil,
      check: "! grep -rq secret recs/*.rec && [ $(wc -l < recs/secret-name.png.rec) = 1 ]"),
    HostileCase(
      title: "A10: --records works only with --out-dir",
      command: "hexmask in.jpg o.png --records recs", status: 2,
      firstError: "hexmask: option '--records' works only in batch mode, with --out-dir DIR",
      check: "[ ! -e o.png ] && [ ! -e recs ]"),
    HostileCase(
      title: "A10: a record that would replace an input is a conflict",
      setup: "mkdir p recs && cp in.jpg p/a.jpg && cp in.jpg recs/a.png.rec",
      command: "hexmask p recs/a.png.rec --out-dir o --records recs", status: 2,
      firstError: "hexmask: conflict: …", check: "[ ! -e o/a.png ]"),
  ]

  /// A landscape JPEG without a profile or an EXIF turn (225 × 150) and a square PNG,
  /// rendered into `o/` once.
  private static let plainRun =
    "mkdir p && cp small.png p/b.png && cp \"$FIXTURES/exif/Landscape_1.jpg\" p/l.jpg "
    + "&& hexmask p --out-dir o -q"
  private static func skipsBoth(_ options: String) -> String {
    "[ $(grep -c '\"status\":\"skipped\"' rows) = 2 ] && hexmask p --out-dir fresh -q "
      + "\(options) && cmp o/l.png fresh/l.png && cmp o/b.png fresh/b.png"
  }

  /// A1: an option that cannot act on an input rebuilds nothing, and one that can still
  /// rebuilds; `skipsBoth` also checks that a fresh run with the option makes the same
  /// bytes, so skipping was right.
  static let recipeRows: [HostileCase] =
    [
      "--strip", "--no-rotate", "--strict", "--focus 0.5,0.4", "--gravity north",
      "--strip --no-rotate --strict --focus 0.5,0.4",
    ].map { options in
      HostileCase(
        title: "A1: a rerun adding \(options) to inputs it cannot act on skips them",
        setup: plainRun, command: "hexmask p --out-dir o \(options) -q --json > rows",
        status: 0, firstError: nil, check: skipsBoth(options))
    } + [
      HostileCase(
        title: "A1: a rerun with --size equal to each picture's own side skips it",
        setup: "mkdir p && cp in.jpg p/a.jpg && hexmask p --out-dir o -q",
        command: "hexmask p --out-dir o --size 427 -q --json > rows", status: 0,
        firstError: nil,
        check: "grep -q '\"status\":\"skipped\"' rows && hexmask p --out-dir fresh -q "
          + "--size 427 && cmp o/a.png fresh/a.png"),
      HostileCase(
        title: "A1: --strip on an input with a colour profile rebuilds it",
        setup: "mkdir p && cp in.jpg p/a.jpg && hexmask p --out-dir o -q",
        command: "hexmask p --out-dir o --strip -q --json > rows", status: 0, firstError: nil,
        check: "grep -q '\"status\":\"written\",\"reason\":\"changed\"' rows",
        changes: ["o/a.png", "o/.hexmask/a.png.rec"]),
      HostileCase(
        title: "A1: --no-rotate on an input with an EXIF turn rebuilds it",
        setup: "mkdir p && cp \"$FIXTURES/exif/Landscape_6.jpg\" p/t.jpg "
          + "&& hexmask p --out-dir o -q",
        command: "hexmask p --out-dir o --no-rotate -q --json > rows", status: 0,
        firstError: nil, check: "grep -q '\"status\":\"written\"' rows",
        changes: ["o/t.png", "o/.hexmask/t.png.rec"]),
      HostileCase(
        title: "A1: --focus 0.5,0.4 on a portrait rebuilds it",
        setup: "mkdir p && cp \"$FIXTURES/exif/Portrait_1.jpg\" p/t.jpg "
          + "&& hexmask p --out-dir o -q",
        command: "hexmask p --out-dir o --focus 0.5,0.4 -q --json > rows", status: 0,
        firstError: nil, check: "grep -q '\"status\":\"written\"' rows",
        changes: ["o/t.png", "o/.hexmask/t.png.rec"]),
      HostileCase(
        title: "A1: --strict on a damaged input rebuilds it, and fails",
        setup: "mkdir p && head -c 3000 in.jpg > p/cut.jpg && hexmask p --out-dir o -q 2>/dev/null",
        command: "hexmask p --out-dir o --strict -q --json > rows", status: 1,
        firstError: "hexmask: p/cut.jpg: premature end of JPEG file (--strict)",
        check: "grep -q '\"status\":\"failed\"' rows"),
    ]

  /// A2: a failed rerun keeps the earlier output and says so.
  static let failedRerunRows: [HostileCase] = [
    HostileCase(
      title: "A2: a --strict rerun that fails keeps cut.png and says so in the summary and row",
      setup: "mkdir p && cp in.jpg p/a.jpg && head -c 3000 in.jpg > p/cut.jpg "
        + "&& hexmask p --out-dir o -q 2>/dev/null",
      command: "hexmask p --out-dir o --strict --json > rows 2> errors", status: 1,
      firstError: nil,
      check: "is_png o/cut.png && grep -q '\"output\":\"o/cut.png\",\"status\":\"failed\".*"
        + "\"kept\":true}$' rows && ! grep '\"o/a.png\"' rows | grep -q kept && grep -q "
        + "'^hexmask: 0 written, 1 skipped, 1 failed (1 earlier output kept) in ' errors"),
    HostileCase(
      title: "A2: a failure with no earlier output keeps nothing and says nothing of it",
      setup: "mkdir p && head -c 3000 in.jpg > p/cut.jpg",
      command: "hexmask p --out-dir o --strict --json > rows 2> errors", status: 1,
      firstError: nil,
      check: "[ ! -e o/cut.png ] && ! grep -q kept rows && grep -q "
        + "'^hexmask: 0 written, 0 skipped, 1 failed in ' errors"),
  ]

  @Test(arguments: recipeRows)
  func optionsThatCannotActRebuildNothing(_ row: HostileCase) throws {
    try runHostileCase(row)
  }

  @Test(arguments: failedRerunRows)
  func failedRerunKeepsTheEarlierOutput(_ row: HostileCase) throws {
    try runHostileCase(row)
  }

  /// A1: version 3 records keep the picture's facts; version 2 records are still read,
  /// without them, and their digest is still the whole recipe's, so an upgrade rebuilds
  /// nothing.
  @Test func recordsKeepThePicturesFactsAndReadTheOldFormat() throws {
    let facts = HexMask.PictureFacts(
      width: 640, height: 427, hasColorProfile: true, isTurned: false, isClean: true)
    let output = FileStamp(size: 48213, seconds: 1_764_590_400, nanoseconds: 123_456_789)
    let record = RunRecord(recipe: 0x9f3c, side: 427, output: output, picture: facts)
    #expect(
      record.line == "hexmask-record 3 0000000000009f3c 427 48213 1764590400.123456789 640x427 pc\n"
    )
    #expect(RunRecord(line: record.line) == record)
    let old = try #require(
      RunRecord(line: "hexmask-record 2 0000000000009f3c 427 48213 1764590400.123456789\n"))
    #expect(old.picture == nil && old.side == 427)
    #expect(RunRecord(line: "hexmask-record 3 0000000000009f3c 427 48213 1.1 640x427 px\n") == nil)
    // Without facts the recipe is what it always was: every option counts.
    var strip = RenderSettings()
    strip.output.keepColorProfile = false
    #expect(
      effectiveRecipe(of: strip, side: 427, format: .png)
        != effectiveRecipe(of: RenderSettings(), side: 427, format: .png))
    let plain = HexMask.PictureFacts(
      width: 640, height: 427, hasColorProfile: false, isTurned: false, isClean: true)
    #expect(
      effectiveRecipe(of: strip, side: 427, format: .png, picture: plain)
        == effectiveRecipe(of: RenderSettings(), side: 427, format: .png, picture: plain))
  }

  @Test(arguments: recordRows)
  func recordsElsewhere(_ row: HostileCase) throws {
    try runHostileCase(row)
  }

  @Test(arguments: messageRows)
  func roughEdge(_ row: HostileCase) throws {
    try runHostileCase(row)
  }
}
