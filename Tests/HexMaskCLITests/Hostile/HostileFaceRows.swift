import Foundation
import HexMask
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The face cascade opencv-data installs on Debian, which CI installs: the rows that need a
/// real model are skipped where it is missing.
let installedFaceCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"
/// The pet cascade opencv-data installs beside it, which the model includes.
let installedPetCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalcatface.xml"

/// `--gravity face` and `--gravity attention` through the built binary, as the hostile-user
/// rows run (``HostileCase``). Each folder also holds `one.jpg` (1 × 1) and `strip.png`
/// (16000 × 100), the shapes a square chooser finds hardest.
@Suite(.tags(.endToEnd)) struct HostileFaceTests {
  /// The 16000 × 100 strip, made once: stripes, and a saturated block for attention to
  /// choose.
  static let strip: Result<Data, any Error> = Result {
    try withTemporaryFolder { url in
      let folder = url.path
      let path = folder + "/strip.png"
      guard let file = fopen(path, "wb") else {
        throw ProcessRunError(description: "cannot create \(path)")
      }
      defer { fclose(file) }
      let writer = try PNGStreamEncoder(file: file, width: 16000, height: 100)
      for y in 0..<100 {
        var row = [UInt8](repeating: 255, count: 16000 * 4)
        for x in 0..<16000 {
          let block = (12000..<12100).contains(x)
          row[4 * x] = block ? 230 : UInt8(x % 7 * 30)
          row[4 * x + 1] = block ? 40 : UInt8(y)
          row[4 * x + 2] = block ? 40 : 90
        }
        try row.withUnsafeBufferPointer { try writer.writeRow($0) }
      }
      try writer.finish()
      fflush(file)
      return try Data(contentsOf: URL(fileURLWithPath: path))
    }
  }

  /// Puts the two extreme pictures in the row's folder.
  static func prepare(_ folder: URL) throws {
    try FileManager.default.copyItem(
      atPath: Fixtures.path("jpeg/jpg-size-1x1.jpg"),
      toPath: folder.appendingPathComponent("one.jpg").path)
    try strip.get().write(to: folder.appendingPathComponent("strip.png"))
  }

  @Test(arguments: modelFileRows + cropRows)
  func withoutTheInstalledModel(_ row: HostileCase) throws {
    try runHostileCase(row, prepare: Self.prepare)
  }

  @Test(
    .enabled(if: FileManager.default.fileExists(atPath: installedFaceCascade)),
    arguments: installedModelRows + modelOutputRows)
  func withTheInstalledModel(_ row: HostileCase) throws {
    try runHostileCase(row, prepare: Self.prepare)
  }

  /// A shell command printing a cascade (24 × 24, one feature) of `stages` stages of
  /// `trees` stumps that accept every window.
  static func acceptingModel(stages: Int, trees: Int) -> String {
    "awk 'BEGIN { printf \"<?xml version=\\\"1.0\\\"?><opencv_storage><cascade>"
      + "<stageType>BOOST</stageType><featureType>HAAR</featureType><height>24</height>"
      + "<width>24</width><stages>\"; for (s = 0; s < \(stages); s++) { printf \"<_>"
      + "<stageThreshold>0.5</stageThreshold><weakClassifiers>\"; for (t = 0; t < \(trees); "
      + "t++) printf \"<_><internalNodes>0 -1 0 0.</internalNodes><leafValues>1. 1."
      + "</leafValues></_>\"; printf \"</weakClassifiers></_>\" } printf \"</stages>"
      + "<features><_><rects><_>0 0 12 24 -1.</_><_>12 0 12 24 1.</_></rects><tilted>0"
      + "</tilted></_></features></cascade></opencv_storage>\" }'"
  }

  /// Prints the first line of `command`'s standard error and checks it was the only one.
  static func oneLine(_ command: String) -> String {
    "\(command) 2> err; s=$?; cat err >&2; [ $(wc -l < err) = 1 ] && exit $s"
  }

  /// `HEXMASK_FACE_MODEL` naming what is no cascade: a usage error naming it, one line,
  /// nothing written, no other model tried; and runs that do not need a model never look.
  static let modelFileRows: [HostileCase] = [
    HostileCase(
      title: "HEXMASK_FACE_MODEL naming a missing file",
      command: oneLine("HEXMASK_FACE_MODEL=gone.xml hexmask in.jpg o.png --gravity face"),
      status: 2,
      firstError: "hexmask: gone.xml: cannot be the face model (HEXMASK_FACE_MODEL): cannot "
        + "open: No such file or directory",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "HEXMASK_FACE_MODEL naming a folder, in a batch: said before any file is read",
      setup: "mkdir cascades",
      command: oneLine("HEXMASK_FACE_MODEL=cascades hexmask in.jpg --out-dir o --gravity face"),
      status: 2,
      firstError: "hexmask: cascades: cannot be the face model (HEXMASK_FACE_MODEL): is a "
        + "folder, not a cascade file",
      check: "[ ! -e o ]"),
    HostileCase(
      title: "HEXMASK_FACE_MODEL naming a FIFO: refused at once, never waits for a writer",
      setup: "mkfifo m.xml",
      command: oneLine("HEXMASK_FACE_MODEL=m.xml hexmask in.jpg o.png --gravity face"),
      status: 2,
      firstError: "hexmask: m.xml: cannot be the face model (HEXMASK_FACE_MODEL): is a FIFO, "
        + "not a cascade file",
      check: "[ -p m.xml ] && [ ! -e o.png ]"),
    HostileCase(
      title: "HEXMASK_FACE_MODEL naming a photo, not XML",
      command: oneLine("HEXMASK_FACE_MODEL=in.jpg hexmask small.png o.png --gravity face"),
      status: 2,
      firstError: "hexmask: in.jpg: cannot be the face model (HEXMASK_FACE_MODEL): not a "
        + "cascade hexmask can use: not XML: …",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "HEXMASK_FACE_MODEL naming XML that is no cascade",
      setup: "printf '<?xml version=\"1.0\"?>\\n<svg/>\\n' > s.xml",
      command: oneLine("HEXMASK_FACE_MODEL=s.xml hexmask small.png o.png --gravity face"),
      status: 2,
      firstError: "hexmask: s.xml: cannot be the face model (HEXMASK_FACE_MODEL): not a "
        + "cascade hexmask can use: not an OpenCV cascade (no <opencv_storage>)"),
    HostileCase(
      title: "HEXMASK_FACE_MODEL naming an empty file, a huge one, and nothing",
      // The huge file is made and removed by the command: the harness reads every file.
      setup: ": > e.xml",
      command: "HEXMASK_FACE_MODEL=e.xml hexmask small.png o.png --gravity face 2> e1; a=$?; "
        + "truncate -s 65M big.xml; "
        + "HEXMASK_FACE_MODEL=big.xml hexmask small.png o.png --gravity face 2> e2; b=$?; "
        + "rm big.xml; "
        + "HEXMASK_FACE_MODEL= hexmask small.png o.png --gravity face; c=$?; cat e1 e2 >&2; "
        + "[ $a$b$c = 222 ] && exit 2",
      status: 2,
      firstError: "hexmask: HEXMASK_FACE_MODEL is set but empty: unset it, or name a cascade "
        + "file",
      check: "grep -qx 'hexmask: e.xml: cannot be the face model (HEXMASK_FACE_MODEL): is empty, "
        + "not a cascade file' e1 && grep -qx 'hexmask: big.xml: cannot be the face model "
        + "(HEXMASK_FACE_MODEL): is larger than 64 MiB, which no cascade file is' e2 "
        + "&& [ ! -e o.png ]"),
    HostileCase(
      title: "HEXMASK_FACE_MODEL with 200 000 stages that accept everything: refused by size",
      // Made and removed by the command (28 MB): the harness reads every file.
      command: "\(acceptingModel(stages: 200_000, trees: 1)) > m.xml; "
        + oneLine("HEXMASK_FACE_MODEL=m.xml hexmask small.png o.png --gravity face")
        + "; s=$?; rm m.xml; exit $s",
      status: 2,
      firstError: "hexmask: m.xml: cannot be the face model (HEXMASK_FACE_MODEL): not a "
        + "cascade hexmask can use: 200000 stages, more than the 1000 a cascade may have",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "HEXMASK_FACE_MODEL at the caps, accepting every window: the look's work is capped",
      command: "\(acceptingModel(stages: 1000, trees: 100)) > m.xml; "
        + "HEXMASK_FACE_MODEL=m.xml hexmask in.jpg small.png one.jpg strip.png --out-dir o "
        + "--gravity face -q; s=$?; rm m.xml; exit $s",
      status: 0,
      check: "is_png o/in.png && is_png o/small.png && is_png o/one.png && is_png o/strip.png"),
    HostileCase(
      title: "HEXMASK_FACE_MODEL naming a file the user may not read",
      setup: "printf x > locked.xml && chmod 000 locked.xml",
      command: "HEXMASK_FACE_MODEL=locked.xml as_user small.png o.png --gravity face",
      status: 2,
      firstError: "hexmask: locked.xml: cannot be the face model (HEXMASK_FACE_MODEL): cannot "
        + "open: Permission denied"),
    HostileCase(
      title: "--gravity face --focus is a usage error, whatever the model",
      command: oneLine(
        "HEXMASK_FACE_MODEL=gone.xml hexmask in.jpg o.png --gravity face --focus 0.5,0.5"),
      status: 2,
      firstError: "hexmask: --gravity and --focus both choose the square; give only one"),
    HostileCase(
      title: "attention, another gravity, a mask and a dry run without face never read the model",
      setup: "mkfifo m.xml",
      command: "export HEXMASK_FACE_MODEL=m.xml; hexmask in.jpg a.png --gravity attention "
        + "&& hexmask in.jpg n.png --gravity north && hexmask in.jpg --out-dir o --dry-run -q "
        + "&& hexmask --mask-only in.jpg m.png --gravity face",
      status: 0, firstError: "hexmask: warning: --gravity has no effect with --mask-only",
      check: "is_png a.png && is_png n.png && is_png m.png"),
    HostileCase(
      title: "--layout seed: --gravity and --focus do nothing and say so, face reads no model, "
        + "and switching them rebuilds nothing",
      setup: "mkdir p && cp in.jpg small.png p/",
      command: "run() { hexmask p --out-dir o --layout seed --json \"$@\"; }; run -q > r1 "
        + "&& run --gravity east > r2 2> e2 && HEXMASK_FACE_MODEL=gone.xml run --gravity face "
        + "> r3 2> e3 && run --focus 0.9,0.1 > r4 2> e4; s=$?; cat e3 >&2; exit $s",
      status: 0, firstError: "hexmask: warning: --gravity has no effect with --layout seed",
      check: "[ $(grep -c '\"reason\":\"new\"' r1) = 2 ] "
        + #"&& grep -q '"input":"p/in.jpg".*"crop":{"x":0,"y":0,"side":427}[,}]' r1 "#
        + "&& for r in r2 r3 r4; do [ $(grep -c '\"status\":\"skipped\"' $r) = 2 ] || exit 1; "
        + "done && grep -qx 'hexmask: warning: --gravity has no effect with --layout seed' e2 "
        + "&& grep -qx 'hexmask: warning: --focus has no effect with --layout seed' e4 "
        + "&& ! grep -q 'face model' e3"),
  ]

  /// Crops reported in `--json` and `--verbose` for every gravity, and attention on the
  /// extreme pictures (no model needed).
  static let cropRows: [HostileCase] = [
    HostileCase(
      title: "--json rows carry the crop for --gravity north too, and no faces",
      command: "hexmask in.jpg --out-dir o --gravity north --json -q > rows", status: 0,
      firstError: nil,
      check: #"grep -q '"warnings":\[\],"crop":{"x":106,"y":0,"side":427}[,}]' rows "#
        + "&& ! grep -q faces rows"),
    HostileCase(
      title: "--gravity west --verbose names the crop",
      command: "hexmask in.jpg --out-dir o --gravity west --size 32 --verbose 2> log; "
        + "grep wrote log >&2",
      status: 0,
      firstError: "hexmask: wrote o/in.png from in.jpg (new, 32x32, crop 427x427+0+0, …"),
    HostileCase(
      title: "--gravity attention on a 1 × 1 picture and a 16000 × 100 strip",
      setup: "mkdir p && cp one.jpg strip.png p/",
      command: "hexmask p --out-dir o --gravity attention --size 32 --json -q > rows "
        + "&& hexmask one.jpg o1.png --gravity attention && hexmask strip.png o2.png "
        + "--gravity attention",
      status: 0, firstError: nil,
      check: #"grep -q '"input":"p/one.jpg".*"crop":{"x":0,"y":0,"side":1}}$' rows "#
        + #"&& grep -q '"input":"p/strip.png".*"crop":{"x":[0-9]*,"y":0,"side":100}}$' rows "#
        + "&& is_png o/one.png && is_png o/strip.png && [ $(side o1.png) = 1 ] "
        + "&& [ $(side o2.png) = 100 ]"),
  ]

  /// Rows that need the installed cascades (CI installs opencv-data).
  static let installedModelRows: [HostileCase] = [
    HostileCase(
      title: "--gravity face on a 1 × 1 picture and a 16000 × 100 strip, the model found",
      setup: "mkdir p && cp one.jpg strip.png p/",
      command: "unset HEXMASK_FACE_MODEL; hexmask p --out-dir o --gravity face --size 32 "
        + "--json -q > rows && hexmask one.jpg o1.png --gravity face "
        + "&& hexmask strip.png o2.png --gravity face",
      status: 0, firstError: nil,
      check: #"grep -q '"input":"p/one.jpg".*"crop":{"x":0,"y":0,"side":1},"faces":[0-9]*}$' rows "#
        + #"&& grep -q '"input":"p/strip.png".*"crop":{"x":[0-9]*,"y":0,"side":100},"faces":[0-9]*}$' "#
        + "rows && is_png o/one.png && is_png o/strip.png && [ $(side o1.png) = 1 ] "
        + "&& [ $(side o2.png) = 100 ]"),
    HostileCase(
      title: "--verbose says how many faces --gravity face found",
      command: "unset HEXMASK_FACE_MODEL; hexmask small.png --out-dir o --gravity face --verbose "
        + "2> log; grep wrote log >&2",
      status: 0,
      firstError: "hexmask: wrote o/small.png from small.png (new, 32x32, crop 32x32+0+0, no "
        + "face (attention), …"),
    HostileCase(
      title: "HEXMASK_FACE_MODEL naming a truncated copy of the cascade",
      setup: "head -c 20000 \(installedFaceCascade) > t.xml",
      command: oneLine("HEXMASK_FACE_MODEL=t.xml hexmask small.png o.png --gravity face"),
      status: 2,
      firstError: "hexmask: t.xml: cannot be the face model (HEXMASK_FACE_MODEL): not a "
        + "cascade hexmask can use: not XML: …",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title:
        "a rerun with the same model skips; another (a comment added) rebuilds the landscape, "
        + "not the square, where every crop is the whole picture",
      setup: "mkdir m p && cp \(installedFaceCascade) m/c.xml && cp small.png in.jpg p/",
      command: "export HEXMASK_FACE_MODEL=\"$PWD/m/c.xml\"; run() { hexmask p --out-dir o "
        + "--gravity face --json -q; }; run > r1 && run > r2 "
        + "&& echo '<!-- tuned -->' >> m/c.xml && run > r3 "
        + "&& unset HEXMASK_FACE_MODEL && run > r4",
      status: 0, firstError: nil,
      check: "[ $(grep -c '\"status\":\"written\",\"reason\":\"new\"' r1) = 2 ] "
        + "&& [ $(grep -c '\"status\":\"skipped\"' r2) = 2 ] "
        + "&& [ $(grep -c '\"status\":\"written\",\"reason\":\"changed\"' r3) = 1 ] "
        + "&& grep -q '\"input\":\"p/in.jpg\".*\"reason\":\"changed\"' r3 "
        + "&& [ $(grep -c '\"status\":\"written\",\"reason\":\"changed\"' r4) = 1 ] "
        + "&& [ $(grep -c '\"status\":\"skipped\"' r4) = 1 ]",
      changes: ["m/c.xml"]),
  ]

  /// The cascades the model is read from are inputs: no output may replace one, however
  /// named. The harness checks they are left byte for byte.
  static let modelOutputRows: [HostileCase] = [
    HostileCase(
      title: "--svg naming the face model: refused, nothing written",
      setup: "cp \(installedFaceCascade) m.xml",
      command: oneLine("HEXMASK_FACE_MODEL=m.xml hexmask in.jpg o.png --svg m.xml --gravity face"),
      status: 2,
      firstError: "hexmask: m.xml: the --svg output is the face model; refusing to overwrite it",
      check: "[ ! -e o.png ]"),
    HostileCase(
      title: "OUTPUT naming the face model: refused",
      setup: "cp \(installedFaceCascade) m.xml",
      command: oneLine(
        "HEXMASK_FACE_MODEL=m.xml hexmask in.jpg m.xml --format png --gravity face"),
      status: 2, firstError: "hexmask: m.xml: output is the face model; refusing to overwrite it"),
    HostileCase(
      title: "a batch output naming the face model: a conflict, as the --files-from list is",
      setup: "cp \(installedFaceCascade) m.xml",
      command: "HEXMASK_FACE_MODEL=$PWD/m.xml hexmask in.jpg --out-dir . --name m.xml "
        + "--format png --gravity face",
      status: 2,
      firstError: "hexmask: conflict: 'in.jpg' would write './m.xml', which is the face model",
      check: "[ ! -e .hexmask ]"),
    HostileCase(
      title: "a hard link to the face model as OUTPUT, a batch output and through a symlink",
      setup: "cp \(installedFaceCascade) m.xml && ln m.xml twin.xml && ln -s twin.xml sym.png",
      command: "export HEXMASK_FACE_MODEL=m.xml; "
        + "hexmask in.jpg --out-dir . --name twin.xml --format png --gravity face 2> e1; a=$?; "
        + "hexmask in.jpg sym.png --gravity face 2> e2; b=$?; "
        + "hexmask in.jpg twin.xml --format png --gravity face; c=$?; cat e1 e2 >&2; "
        + "[ $a$b = 22 ] && exit $c",
      status: 2,
      firstError: "hexmask: twin.xml: output is the face model 'm.xml'; refusing to overwrite it",
      check: "grep -qx \"hexmask: conflict: 'in.jpg' would write './twin.xml', which is the face "
        + "model\" e1 && grep -qx \"hexmask: sym.png: output is the face model 'm.xml'; refusing "
        + "to overwrite it\" e2 && [ -L sym.png ] && [ ! -e .hexmask ]"),
    HostileCase(
      title: "the installed pet cascade linked as a batch output: a conflict (a dry run, so a "
        + "regression writes nothing)",
      setup: "ln -s \(installedPetCascade) cat.png",
      command: "unset HEXMASK_FACE_MODEL; hexmask in.jpg --out-dir . --name cat.png --dry-run "
        + "--gravity face",
      status: 2,
      firstError: "hexmask: conflict: 'in.jpg' would write './cat.png', which is the face model"),
  ]
}
