import Foundation
import TestSupport
import Testing

/// The one-machine GNU parallel recipe of docs/scale-out.md, run for real: four
/// `--shard` runs at once into one folder must write exactly what one plain run writes, byte
/// for byte, each shard only its part, and a second round must write nothing.
///
/// GNU parallel must be installed (`.ci/run` and `make test` install it as root on Debian); a
/// missing one fails the test rather than skipping it, so CI cannot pass without running it.
@Suite(.tags(.endToEnd)) struct GNUParallelTests {
  /// The recipe as docs/scale-out.md shows it; the test runs it with `--size 32,64` appended.
  static let recipe = "seq 0 3 | parallel hexmask -r photos --out-dir avatars -q --shard {}/4"

  /// Sizes for every run, so that the shards must keep an input's outputs together.
  static let sizes = ["--size", "32,64"]

  /// Makes the recipe's `hexmask` the built one for the shells parallel starts, and keeps
  /// parallel's citation notice off standard error; `-j 4` runs the four shards at once even
  /// on a machine with fewer cores (parallel's default is one job per core).
  static let parallelPrelude = """
    PATH="$(dirname "$HEXMASK"):$PATH"; export PATH
    PARALLEL='--will-cite -j 4'; export PARALLEL

    """

  @Test func readmeRecipeMakesWhatOnePlainRunMakes() throws {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/scale-out.md"), encoding: .utf8)
    #expect(page.contains(Self.recipe), "docs/scale-out.md no longer shows \(Self.recipe)")

    try withTemporaryFolder { folder in
      // A moreutils `parallel` (another syntax) would not do either.
      let version = try shell("parallel --version </dev/null", in: folder)
      try #require(
        version.status == 0 && version.standardOutput.hasPrefix("GNU parallel"),
        "GNU parallel is not installed: apt-get install parallel (.ci/run does it)")

      let inputs = try makePhotos(in: folder)
      let sized = Self.sizes.joined(separator: " ")

      let sharded = try shell(
        Self.parallelPrelude + Self.recipe + " " + sized, in: folder, timeout: 600)
      #expect(sharded.status == 0, "parallel: \(sharded.status): \(sharded.standardError)")
      #expect(sharded.standardError.isEmpty, "\(sharded.standardError)")
      let plain = try runHexMask(
        ["-r", "photos", "--out-dir", "plain", "-q"] + Self.sizes, in: folder, timeout: 600)
      #expect(plain.status == 0, "plain run: \(plain.status): \(plain.standardError)")

      let avatars = try snapshot(folder.appendingPathComponent("avatars"))
      let plainFiles = try snapshot(folder.appendingPathComponent("plain"))
      let outputs = Set(plainFiles.keys.filter { !$0.hasPrefix(".hexmask/") })
      #expect(outputs.count == 2 * inputs.count, "\(outputs.sorted())")
      #expect(Set(avatars.keys.filter { !$0.hasPrefix(".hexmask/") }) == outputs)
      for output in outputs.sorted() {
        #expect(avatars[output] == plainFiles[output], "\(output) differs from the plain run's")
      }
      // One rerun record per output, as the plain run keeps them (their times differ).
      #expect(
        Set(avatars.keys.filter { $0.hasPrefix(".hexmask/") })
          == Set(plainFiles.keys.filter { $0.hasPrefix(".hexmask/") }))

      // Each shard alone plans a strict part; together the parts are disjoint and complete,
      // and an input's sizes stay in one shard.
      var owner: [String: Int] = [:]
      var inputShard: [String: Int] = [:]
      for index in 0..<4 {
        let run = try runHexMask(
          ["-r", "photos", "--out-dir", "probe", "--dry-run", "--json", "--shard", "\(index)/4"]
            + Self.sizes, in: folder)
        #expect(run.status == 0, "shard \(index): \(run.standardError)")
        let rows = try jsonRows(run.standardOutput)
        #expect(rows.count < outputs.count, "shard \(index)/4 alone plans every output")
        for row in rows {
          #expect(row["status"] as? String == "planned")
          let output = try #require(row["output"] as? String)
          let input = try #require(row["input"] as? String)
          let relative = String(output.dropFirst("probe/".count))
          #expect(owner.updateValue(index, forKey: relative) == nil, "\(relative) twice")
          #expect(inputShard.updateValue(index, forKey: input).map { $0 == index } ?? true)
        }
      }
      #expect(Set(owner.keys) == outputs, "the shards' plans together are not every output")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("probe").path))

      // The same recipe again finds everything up to date and writes nothing.
      let rerun = try shell(
        Self.parallelPrelude + Self.recipe + " " + sized + " --json", in: folder, timeout: 600)
      #expect(rerun.status == 0, "rerun: \(rerun.status): \(rerun.standardError)")
      let rows = try jsonRows(rerun.standardOutput)
      #expect(rows.count == outputs.count)
      for row in rows {
        #expect(row["status"] as? String == "skipped", "\(row)")
      }
      #expect(try snapshot(folder.appendingPathComponent("avatars")) == avatars)
    }
  }

  /// Copies fixtures into `photos/landscape` and `photos/portrait` (the rocket in both, so
  /// `-r` must mirror the folders to keep them apart) and returns their paths.
  func makePhotos(in folder: URL) throws -> [String] {
    let files = [
      "landscape": (1...8).map { "exif/Landscape_\($0).jpg" } + ["photos/rocket.jpg"],
      "portrait": (1...8).map { "exif/Portrait_\($0).jpg" }
        + ["photos/rocket.jpg", "pngsuite/basn2c08.png", "pngsuite/basn6a08.png"],
    ]
    var copied: [String] = []
    for (subfolder, fixtures) in files {
      let target = folder.appendingPathComponent("photos/\(subfolder)")
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      for path in fixtures {
        let name = URL(fileURLWithPath: path).lastPathComponent
        try FileManager.default.copyItem(
          atPath: Fixtures.path(path), toPath: target.appendingPathComponent(name).path)
        copied.append("photos/\(subfolder)/\(name)")
      }
    }
    return copied
  }

  /// The objects of `--json` output, one a line.
  func jsonRows(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }
}
