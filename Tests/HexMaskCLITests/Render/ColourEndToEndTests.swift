import Foundation
import HexMask
import TestSupport
import Testing

/// `--colorspace` and `--strip` through the binary: what `--json` rows say, what a rerun
/// rebuilds, and the words for mistakes.
@Suite(.tags(.endToEnd)) struct ColourEndToEndTests {
  /// Adobe RGB (1998), a gray profile, sRGB, and no profile at all.
  static let inputs = [
    "photos/rocket.jpg", "icc/grayscale-icc.jpg", "icc/icc_profile.png",
    "attention/coffee-160.png",
  ]

  /// A folder holding copies of ``inputs``.
  func inputFolder(in dir: URL) throws -> URL {
    let folder = dir.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in Self.inputs {
      try FileManager.default.copyItem(
        atPath: Fixtures.path(name),
        toPath: folder.appendingPathComponent((name as NSString).lastPathComponent).path)
    }
    return folder
  }

  /// `--json` rows by input file name.
  func rows(_ run: ProcessRun) throws -> [String: [String: Any]] {
    var rows: [String: [String: Any]] = [:]
    for line in run.standardOutput.split(separator: "\n") {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let input = try #require(object["input"] as? String)
      rows[(input as NSString).lastPathComponent] = object
    }
    return rows
  }

  @Test func jsonRowsNameTheProfileAndWhatWasDone() throws {
    try withTemporaryFolder { dir in
      let input = try inputFolder(in: dir).path
      let expected: [(String, [String: String?])] = [
        (
          "keep",
          [
            "rocket.jpg": "kept", "grayscale-icc.jpg": "converted",
            "icc_profile.png": "kept", "coffee-160.png": nil,
          ]
        ),
        (
          "srgb",
          [
            "rocket.jpg": "converted", "grayscale-icc.jpg": "converted",
            "icc_profile.png": "srgb", "coffee-160.png": nil,
          ]
        ),
      ]
      for (mode, actions) in expected {
        let run = try runHexMask([
          input, "--out-dir", dir.appendingPathComponent(mode).path, "--colorspace", mode,
          "--size", "32", "--json",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = try rows(run)
        for (name, action) in actions {
          let row = try #require(rows[name])
          #expect(row["colour"] as? String == action, "\(mode) \(name)")
          #expect((row["profile"] == nil) == (action == nil), "\(mode) \(name)")
        }
        #expect(rows["rocket.jpg"]?["profile"] as? String == "Adobe RGB (1998)")
      }
    }
  }

  /// The colour space is part of the rerun recipe, where it can change the bytes: an input
  /// without a profile is rebuilt by nothing, one with a profile by every change.
  @Test func rerunsRebuildOnlyWhatTheColourSpaceChanges() throws {
    try withTemporaryFolder { dir in
      let input = try inputFolder(in: dir).path
      let out = dir.appendingPathComponent("out").path
      func statuses(_ options: [String]) throws -> [String: String] {
        let run = try runHexMask([input, "--out-dir", out, "--size", "32", "--json"] + options)
        #expect(run.status == 0, "\(run.standardError)")
        return try rows(run).mapValues { $0["status"] as? String ?? "" }
      }
      #expect(Set(try statuses([]).values) == ["written"])
      let toSRGB = try statuses(["--colorspace", "srgb"])
      #expect(toSRGB["coffee-160.png"] == "skipped")
      #expect(toSRGB["rocket.jpg"] == "written")
      #expect(toSRGB["icc_profile.png"] == "written")  // the tag changes
      #expect(try statuses(["--colorspace", "srgb"]).values.allSatisfy { $0 == "skipped" })
      let stripped = try statuses(["--strip"])
      #expect(stripped["coffee-160.png"] == "skipped")
      #expect(stripped["rocket.jpg"] == "written")
    }
  }

  @Test func anUnknownColourSpaceIsAUsageError() throws {
    let run = try runHexMask([Fixtures.path("photos/rocket.jpg"), "-", "--colorspace", "p3"])
    #expect(run.status == 2)
    #expect(run.standardOutput.isEmpty)
    let first = run.standardError.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.contains("--colorspace") && first.contains("keep") && first.contains("srgb"))
  }

  @Test func optionsThatChangeNothingAreSaid() throws {
    try withTemporaryFolder { dir in
      let output = dir.appendingPathComponent("o.png").path
      let both = try runHexMask([
        Fixtures.path("photos/rocket.jpg"), output, "--colorspace", "keep", "--strip",
      ])
      #expect(both.status == 0)
      #expect(
        both.standardError
          == "hexmask: warning: --colorspace keep has no effect with --strip, which converts to sRGB\n"
      )
      let mask = try runHexMask([
        "--mask-only", "--size", "16", dir.appendingPathComponent("m.png").path, "--colorspace",
        "srgb",
      ])
      #expect(mask.standardError.contains("--colorspace has no effect with --mask-only"))
    }
  }

  /// A damaged profile: a warning naming the file, and with --strict a failure that leaves
  /// nothing behind.
  @Test func anUnusableProfileWarnsAndStrictFails() throws {
    try withTemporaryFolder { dir in
      let input = dir.appendingPathComponent("damaged.jpg")
      try Data(damagedProfileJPEG()).write(to: input)
      let output = dir.appendingPathComponent("out.png").path
      let run = try runHexMask([input.path, output, "--colorspace", "srgb"])
      #expect(run.status == 0)
      #expect(
        run.standardError.hasPrefix("hexmask: \(input.path): warning: ICC profile not used ("))
      #expect(run.standardError.split(separator: "\n").count == 1)
      let strict = try runHexMask([
        input.path, dir.appendingPathComponent("strict.png").path, "--colorspace", "srgb",
        "--strict",
      ])
      #expect(strict.status == 1)
      #expect(strict.standardError.split(separator: "\n").count == 1)
      #expect(try filesIn(dir) == ["damaged.jpg", "out.png"])
    }
  }

  /// A JPEG whose APP2 segment holds 200 bytes that are no ICC profile (no `acsp`).
  func damagedProfileJPEG() throws -> [UInt8] {
    let photo = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("exif/Landscape_1.jpg"))))
    var profile = [UInt8](repeating: 0x41, count: 200)
    profile[0..<4] = [0, 0, 0, 200]
    profile[16..<20] = Array("RGB ".utf8)[...]
    let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
    let length = payload.count + 2
    return Array(photo[..<2]) + [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]
      + payload + Array(photo[2...])
  }
}
