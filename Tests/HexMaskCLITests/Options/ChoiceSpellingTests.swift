import HexMask
import Testing

@testable import HexMaskCLI

/// Words of a fixed choice are read in any case, and --format takes the extension spelling.
@Suite struct ChoiceSpellingTests {
  @Test(arguments: [
    ("jpg", OutputFormat.jpeg), ("JPEG", .jpeg), ("Jpg", .jpeg), ("jpeg", .jpeg),
    ("PNG", .png), ("WebP", .webp),
  ])
  func formatsInAnyCaseAndAsExtensions(text: String, format: OutputFormat) throws {
    #expect(try Job(parsing: ["in.jpg", "out", "--format", text]).options.format == format)
  }

  @Test func otherChoicesIgnoreCase() throws {
    let job = try Job(parsing: ["in.jpg", "out.png", "--layout", "Seed", "--gravity", "NorthEast"])
    #expect(job.options.layout == .seed)
    #expect(job.options.crop == .gravity(.northeast))
    #expect(try Job(parsing: ["--completions", "BASH"]).action == .showCompletions(.bash))
  }

  @Test func otherWordsAreStillRefused() {
    #expect(
      throws: CommandError.invalidValue(
        "gif", option: "--format", kind: .choice(["png", "jpeg", "webp", "avif", "jxl"]))
    ) {
      try Job(parsing: ["in.jpg", "out.png", "--format", "gif"])
    }
    // A prefix is no spelling of a choice: jp is not taken for jpeg.
    #expect(
      throws: CommandError.invalidValue(
        "jp", option: "--format", kind: .choice(["png", "jpeg", "webp", "avif", "jxl"]))
    ) {
      try Job(parsing: ["in.jpg", "out.png", "--format", "jp"])
    }
  }

  @Test func theLibraryReadsExtensionsInAnyCase() {
    #expect(OutputFormat(fileExtension: "JPG") == .jpeg)
    #expect(OutputFormat(forPath: "dir.v2/photo.JPEG") == .jpeg)
    #expect(OutputFormat(fileExtension: "gif") == nil)
  }
}
