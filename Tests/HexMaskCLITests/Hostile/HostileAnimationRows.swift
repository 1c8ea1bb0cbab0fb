import Foundation
import TestSupport
import Testing

/// Hostile-user rows about animations: damaged and lying files, limits, and the outputs
/// that are not plain files. Each runs with the harness of ``HostileUserTests`` (no
/// leftovers, every earlier file kept), in a folder that also holds the animations made
/// by ``HostileAnimationTests/prepare(_:)``.
@Suite(.tags(.slow, .endToEnd), .outsideTheFastLane) struct HostileAnimationTests {
  @Test(arguments: rows)
  func hostileUser(_ row: HostileCase) throws {
    try runHostileCase(row, prepare: Self.prepare)
  }

  /// `anim.gif` (7 frames), `apng.png` (6), `cut.gif`, `bad-lzw.gif`, `outside.gif` and
  /// `later-outside.gif` from the fixtures, and the files made here: `billion.gif` (29
  /// bytes, one 65535 × 65535 frame), `billion.png` (65 bytes: 65535 frames of 65535 ×
  /// 65535), `many.png` (77 bytes: 65535 frames of 16000 × 16000), `many.gif` (17 frames on a
  /// 100 × 100 screen), `out-of-order.png` (the APNG with two frames' sequence numbers
  /// swapped) and `long.gif` (2000 frames, 30 KB, for reading slowly).
  static func prepare(_ folder: URL) throws {
    for (fixture, name) in [
      ("mixed-disposal.gif", "anim.gif"), ("apng-dispose-blend.png", "apng.png"),
      ("edge-cut.gif", "cut.gif"), ("edge-bad-lzw.gif", "bad-lzw.gif"),
      ("edge-outside.gif", "outside.gif"), ("later-frame-outside.gif", "later-outside.gif"),
    ] {
      try FileManager.default.copyItem(
        atPath: Fixtures.path("animation/" + fixture),
        toPath: folder.appendingPathComponent(name).path)
    }
    func write(_ name: String, _ bytes: [UInt8]) throws {
      try Data(bytes).write(to: folder.appendingPathComponent(name))
    }
    try write(
      "billion.gif",
      Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0]
        + [0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 2, 2, 0x4C, 1, 0, 0x3B])
    try write("billion.png", Self.apngHeader(side: 65535, frames: 65535))
    try write("many.png", Self.apngHeader(side: 16000, frames: 65535, imageData: true))
    try write("many.gif", tinyGIF(frames: 17, side: 100))
    try write("long.gif", tinyGIF(frames: 2000, side: 4))
    let apng = [UInt8](try Data(contentsOf: folder.appendingPathComponent("apng.png")))
    try write("out-of-order.png", try Self.swappingSequenceNumbers(of: apng))
  }

  /// A PNG chunk with its CRC.
  static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
  }

  /// PNG's CRC-32 (ISO 3309, reflected, polynomial 0xEDB88320), bit by bit: a few hundred
  /// bytes here.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
  }

  /// The signature, IHDR of a `side` square and an `acTL` claiming `frames`, then (with
  /// `imageData`) an empty IDAT, and IEND: every claim and no picture.
  static func apngHeader(side: UInt32, frames: UInt32, imageData: Bool = false) -> [UInt8] {
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      + chunk("IHDR", bigEndian(side) + bigEndian(side) + [8, 6, 0, 0, 0])
      + chunk("acTL", bigEndian(frames) + [0, 0, 0, 0])
      + (imageData ? chunk("IDAT", []) : []) + chunk("IEND", [])
  }

  /// `png` with the sequence numbers of its second and third `fcTL` swapped, CRCs made
  /// anew: the frames come out of order.
  static func swappingSequenceNumbers(of png: [UInt8]) throws -> [UInt8] {
    var chunks: [(type: String, body: [UInt8])] = []
    var offset = 8
    while offset + 12 <= png.count {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      chunks.append((type, Array(png[offset + 8..<offset + 8 + length])))
      offset += 12 + length
    }
    let controls = chunks.indices.filter { chunks[$0].type == "fcTL" }
    try #require(controls.count >= 3)
    let (a, b) = (controls[1], controls[2])
    let first = Array(chunks[a].body[..<4])
    chunks[a].body.replaceSubrange(0..<4, with: chunks[b].body[..<4])
    chunks[b].body.replaceSubrange(0..<4, with: first)
    return Array(png[..<8]) + chunks.flatMap { chunk($0.type, $0.body) }
  }

  /// True (as a shell condition) when FILE is an APNG whose `acTL` (right after IHDR, as
  /// hexmask writes it) says N frames.
  static func apngFrames(_ file: String, _ count: Int) -> String {
    #"[ "$(od -An -c -j 37 -N 4 \#(file) | tr -d ' ')" = acTL ] && "#
      + #"set -- $(od -An -tu1 -j 41 -N 4 \#(file)) && "#
      + #"[ $(( ($1 << 24) + ($2 << 16) + ($3 << 8) + $4 )) = \#(count) ]"#
  }

  /// `command`, its standard error also kept in `err` so a check can count its lines.
  static func keepingErrors(_ command: String) -> String {
    "{ \(command); } 2> err; s=$?; cat err >&2; exit $s"
  }

  /// The file's one line: standard error holds exactly one, and no output was made.
  static func oneLine(andNo output: String) -> String {
    "[ \"$(wc -l < err)\" = 1 ] && [ ! -e \(output) ]"
  }

  static let rows: [HostileCase] = damagedRows + limitRows + outputRows + signalRows

  static let damagedRows: [HostileCase] =
    [
      (
        "a GIF cut inside its second frame", "cut.gif",
        "truncated GIF: unexpected end of file in frame 1"
      ),
      (
        "a GIF cut inside its colour table", "head.gif",
        "truncated GIF: unexpected end of file in the header"
      ),
      (
        "a GIF whose second frame has a bad LZW code", "bad-lzw.gif",
        "corrupt GIF: bad LZW code in frame 1"
      ),
      (
        "an APNG whose frames' sequence numbers are out of order", "out-of-order.png",
        "frame 1: APNG sequence number 3 where 1 was expected"
      ),
    ].flatMap { what, file, reason in
      // A still output reads only the frames it needs (below): damage after them is found
      // by the moving outputs, and by --strict.
      (file == "head.gif" ? ["o.png", "o.webp", "o.jpg"] : ["o.png", "o.webp"]).map { output in
        HostileCase(
          title: "\(what) → \(output): one line, status 1, the earlier output kept",
          setup: "head -c 40 anim.gif > head.gif && hexmask small.png \(output) -q",
          command: keepingErrors("hexmask \(file) \(output)"), status: 1,
          firstError: "hexmask: \(file): \(reason)",
          check: "[ \"$(wc -l < err)\" = 1 ]")
      }
    } + [
      HostileCase(
        title: "the first frame of a GIF whose second frame is damaged makes a JPEG",
        command: "hexmask bad-lzw.gif o.jpg", status: 0,
        firstError: "hexmask: bad-lzw.gif: warning: an animation: a JPEG cannot move, so it "
          + "shows the first frame only (--frame N picks another)",
        check: "[ -s o.jpg ]"),
      HostileCase(
        title: "the same with --strict: refused",
        command: keepingErrors("hexmask bad-lzw.gif o.jpg --strict"), status: 1,
        firstError: "hexmask: bad-lzw.gif: corrupt GIF: bad LZW code in frame 1",
        check: "[ ! -e o.jpg ]"),
      HostileCase(
        title: "the first frame of an APNG whose later frames are out of order makes a JPEG",
        command: "hexmask out-of-order.png o.jpg", status: 0,
        firstError: "hexmask: out-of-order.png: warning: an animation: a JPEG cannot move, so it "
          + "shows the first frame only (--frame N picks another)",
        check: "[ -s o.jpg ]"),
      HostileCase(
        title: "a batch of damaged animations and a good one: a line each, the good one written",
        setup: "mkdir in && cp cut.gif bad-lzw.gif out-of-order.png billion.gif anim.gif in/ "
          + "&& head -c 40 anim.gif > in/head.gif",
        command: keepingErrors("hexmask in --out-dir out -q"), status: 1,
        firstError: "hexmask: in/bad-lzw.gif: corrupt GIF: bad LZW code in frame 1",
        check: "[ \"$(wc -l < err)\" = 5 ] && " + apngFrames("out/anim.png", 7)
          + " && [ \"$(ls out)\" = anim.png ]"),
      HostileCase(
        title: "frames reaching past the canvas are clipped, as browsers do: it renders",
        command: "hexmask outside.gif o.png && hexmask later-outside.gif o2.png", status: 0,
        firstError: nil, check: apngFrames("o.png", 2) + " && " + apngFrames("o2.png", 2)),
    ]

  static let limitRows: [HostileCase] = [
    HostileCase(
      title: "a 29-byte GIF of one 65535 × 65535 frame is refused before any allocation",
      command: keepingErrors("hexmask billion.gif o.png"), status: 1,
      firstError: "hexmask: billion.gif: image is 65535×65535 = 4294836225 pixels, more than "
        + "--max-pixels 268402689",
      check: oneLine(andNo: "o.png")),
    HostileCase(
      title: "a 65-byte APNG of 65535 frames of 65535 × 65535: refused, one line",
      command: keepingErrors("hexmask billion.png o.webp"), status: 1,
      firstError: "hexmask: billion.png: image is 65535×65535 = 4294836225 pixels, more than "
        + "--max-pixels 268402689",
      check: oneLine(andNo: "o.webp")),
    HostileCase(
      title: "a 77-byte APNG of 65535 frames of 16000 × 16000 names --max-frames",
      command: keepingErrors("hexmask many.png o.png"), status: 1,
      firstError: "hexmask: many.png: more frames than the limit of 10000 (--max-frames)",
      check: oneLine(andNo: "o.png")),
    HostileCase(
      title: "… and past --max-frames, the pixels of all its frames, 16 × --max-pixels, "
        + "naming the first frame count over it",
      command: keepingErrors("hexmask many.png o.png --max-frames 70000"), status: 1,
      firstError: "hexmask: many.png: 17 frames of 16000×16000 are more than the limit of "
        + "4294443024 pixels over all frames (16 × --max-pixels)",
      check: oneLine(andNo: "o.png")),
    HostileCase(
      title: "a GIF whose frames together pass 16 × --max-pixels is refused when they do",
      command: keepingErrors("hexmask many.gif o.png --max-pixels 10000"), status: 1,
      firstError: "hexmask: many.gif: 17 frames of 100×100 are more than the limit of 160000 "
        + "pixels over all frames (16 × --max-pixels)",
      check: oneLine(andNo: "o.png")),
    HostileCase(
      title: "a GIF of more frames than --max-frames is refused when the one too many comes",
      command: keepingErrors("hexmask many.gif o.webp --max-frames 5"), status: 1,
      firstError: "hexmask: many.gif: more frames than the limit of 5 (--max-frames)",
      check: oneLine(andNo: "o.webp")),
    // The animated WebP reader, like the APNG one, knows the frames and canvas from the header.
    HostileCase(
      title: "an animated WebP of more frames than --max-frames names it",
      setup: "hexmask many.gif many.webp --size 100",
      command: keepingErrors("hexmask many.webp o.png --max-frames 16"), status: 1,
      firstError: "hexmask: many.webp: more frames than the limit of 16 (--max-frames)",
      check: oneLine(andNo: "o.png")),
    HostileCase(
      title: "an animated WebP whose frames together pass 16 × --max-pixels names it",
      setup: "hexmask many.gif many.webp --size 100",
      command: keepingErrors("hexmask many.webp o.png --max-pixels 10000"), status: 1,
      firstError: "hexmask: many.webp: 17 frames of 100×100 are more than the limit of 160000 "
        + "pixels over all frames (16 × --max-pixels)",
      check: oneLine(andNo: "o.png")),
    HostileCase(
      title: "--frame past the last frame: one line naming the file, status 1, nothing written",
      command: keepingErrors("hexmask anim.gif o.png --frame 7"), status: 1,
      firstError: "hexmask: anim.gif: no frame 7: the GIF has 7 frames (the first is 0)",
      check: oneLine(andNo: "o.png")),
    HostileCase(
      title: "--frame 1 of a still picture: one line, status 1",
      command: keepingErrors("hexmask in.jpg o.png --frame 1"), status: 1,
      firstError: "hexmask: in.jpg: no frame 1: the picture is a still (frame 0)",
      check: oneLine(andNo: "o.png")),
    HostileCase(
      title: "--frame 2 in a batch applies to every file: the stills fail, the animation is cut",
      setup: "mkdir in && cp anim.gif small.png in/",
      command: "hexmask in --out-dir out --frame 2 -q", status: 1,
      firstError: "hexmask: in/small.png: no frame 2: the picture is a still (frame 0)",
      check: "is_png out/anim.png && ! ( " + apngFrames("out/anim.png", 7)
        + " ) && [ ! -e out/small.png ]"),
  ]

  static let outputRows: [HostileCase] = [
    HostileCase(
      title: "an APNG from a GIF into a pipe is whole: the same bytes as the file, 7 frames",
      command:
        "hexmask anim.gif file.png && { hexmask anim.gif -; echo $? > st; } | cat > got.png; "
        + "exit $(cat st)",
      status: 0, firstError: nil, check: "cmp got.png file.png && " + apngFrames("got.png", 7)),
    HostileCase(
      title: "an APNG on standard output redirected to a file",
      command: "hexmask anim.gif file.png && hexmask anim.gif - > got.png", status: 0,
      firstError: nil, check: "cmp got.png file.png && " + apngFrames("got.png", 7)),
    HostileCase(
      title: "an animated WebP into a pipe is the file's bytes",
      command: "hexmask anim.gif file.webp && { hexmask anim.gif - --format webp; echo $? > st; } "
        + "| cat > got.webp; exit $(cat st)",
      status: 0, firstError: nil, check: "cmp got.webp file.webp"),
    HostileCase(
      title: "an APNG from standard input to standard output",
      command: "hexmask anim.gif file.png && hexmask - - < anim.gif | cat > got.png", status: 0,
      firstError: nil, check: "cmp got.png file.png"),
    HostileCase(
      title: "an animation to /dev/full: one line, status 1",
      command: keepingErrors("hexmask anim.gif /dev/full"), status: 1,
      firstError: "hexmask: /dev/full: cannot write: No space left on device",
      check: "[ \"$(wc -l < err)\" = 1 ]"),
    HostileCase(
      title: "an animated WebP on standard output that is /dev/full: one line, status 1",
      command: keepingErrors("hexmask apng.png - --format webp > /dev/full"), status: 1,
      firstError: "hexmask: <stdout>: cannot write: No space left on device",
      check: "[ \"$(wc -l < err)\" = 1 ]"),
  ]

  /// A FIFO that gives the first half of `long.gif`, then nothing for 3 seconds: hexmask is
  /// stopped by `signal` in the middle of its frames.
  static func interrupted(by signal: String, output: String, launcher: String = "") -> String {
    "mkfifo slow.gif; { head -c 15000 long.gif; sleep 3; } > slow.gif & "
      + "\(launcher) \"$HEXMASK\" slow.gif \(output) & p=$!; sleep 1; "
      + "kill -\(signal) $p; { wait $p; } 2>/dev/null; s=$?; wait; exit $s"
  }

  static let signalRows: [HostileCase] = [
    HostileCase(
      title: "Ctrl-C in the middle of an animation: no output, no temporary file, 130",
      command: interrupted(
        by: "INT", output: "o.png", launcher: "perl -e '$SIG{INT} = \"DEFAULT\"; exec @ARGV'"),
      status: 130, firstError: nil, check: "[ ! -e o.png ]"),
    HostileCase(
      title: "SIGTERM in the middle of an animated WebP with named temporary files: none left",
      command: "export HEXMASK_NAMED_TEMPORARIES=1; " + interrupted(by: "TERM", output: "o.webp"),
      status: 143, firstError: nil, check: "[ ! -e o.webp ]"),
  ]
}
