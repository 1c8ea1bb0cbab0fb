import HexMask
import Testing

@testable import HexMaskCLI

/// Short options as getopt reads them: a value attached to its letter, flags bundled.
@Suite struct ShortOptionTests {
  let batch = ["photos", "--out-dir", "out"]

  @Test func aValueMayFollowItsLetterDirectly() throws {
    #expect(try Job(parsing: batch + ["-j2"]).batch.jobs == 2)
    #expect(try Job(parsing: batch + ["-j", "3"]).batch.jobs == 3)
    #expect(try Job(parsing: ["in.jpg", "out.png", "-j12"]).options.output.threads == 12)
  }

  @Test func flagsMayBeBundled() throws {
    let job = try Job(parsing: batch + ["-rq0"])
    #expect(job.batch.recursive && job.batch.verbosity == .quiet && job.batch.nulSeparated)
  }

  @Test func aBundleMayEndWithAnOptionThatTakesAValue() throws {
    let attached = try Job(parsing: batch + ["-rj4"])
    #expect(attached.batch.recursive && attached.batch.jobs == 4)
    let separate = try Job(parsing: batch + ["-rj", "5"])
    #expect(separate.batch.recursive && separate.batch.jobs == 5)
  }

  @Test func theWordAfterAnOptionIsItsValueEvenWithADash() throws {
    #expect(
      try Job(parsing: ["in.jpg", "out.png", "--rotation", "-30"]).options.rotationDegrees == -30)
    #expect(try Job(parsing: ["in.jpg", "out.png", "--rotation=-3"]).options.rotationDegrees == -3)
  }

  static let errors: [([String], CommandError)] = [
    (["photos", "--out-dir", "o", "-rx"], .unknownOption("-rx", suggestions: [])),
    (["-sides", "8", "in.jpg", "out.png"], .unknownOption("-sides", suggestions: ["--sides"])),
    (["--colour=red", "in.jpg", "out.png"], .unknownOption("--colour", suggestions: [])),
    (["photos", "--out-dir", "o", "-rj"], .missingValue(option: "-j")),
    (
      ["photos", "--out-dir", "o", "-j0"],
      .invalidValue("0", option: "-j", kind: .wholeNumber(1...1024))
    ),
    (
      ["photos", "--out-dir", "o", "-j=2"],
      .invalidValue("=2", option: "-j", kind: .wholeNumber(1...1024))
    ),
    (["-r", "in.jpg", "out.png"], .needsOutputFolder(option: "-r")),
  ]

  @Test(arguments: errors)
  func bundlesFailLikeTheirParts(arguments: [String], error: CommandError) {
    #expect(throws: error) { try Job(parsing: arguments) }
  }

  @Test func theJobKnowsWhichOptionsWereGiven() throws {
    #expect(try Job(parsing: ["in.jpg", "out.png"]).givenOptions.isEmpty)
    let job = try Job(parsing: ["in.jpg", "out.png", "--quality", "90", "--strip", "-j2"])
    #expect(job.givenOptions == ["quality", "strip", "jobs"])
  }
}
