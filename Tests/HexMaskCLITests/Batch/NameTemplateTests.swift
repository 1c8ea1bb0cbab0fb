import HexMask
import Testing

@testable import HexMaskCLI

@Suite struct NameTemplateTests {
  static let cases: [(template: String, path: String, folder: String?, output: String?)] = [
    ("{dir}/{name}.png", "in/a.jpg", "", "a.png"),
    ("{dir}/{name}.png", "in/sub/a.jpg", "sub", "sub/a.png"),
    ("{name}-{ext}.png", "in/a.b.jpeg", "", "a.b-jpeg.png"),
    ("{name}.{ext}.png", "noext", "", "noext..png"),
    ("{name}.png", ".hidden", "", ".hidden.png"),
    ("thumbs/{dir}/hex_{name}.png", "x/y/z.jpg", "y", "thumbs/y/hex_z.png"),
    ("{dir}/{name}.png", "../a.jpg", nil, nil),
    ("{name}.png", "../a.jpg", nil, "a.png"),
    ("{name}/x.png", "...png", "", nil),
  ]

  @Test(arguments: cases)
  func expands(template: String, path: String, folder: String?, output: String?) throws {
    let parsed = try NameTemplate(parsing: template)
    #expect(parsed.outputPath(for: BatchInput(path: path, folder: folder)) == output)
  }

  @Test func theStandardTemplateIsTheParsedOne() throws {
    #expect(try NameTemplate(parsing: NameTemplate.standard.text) == NameTemplate.standard)
  }

  @Test(arguments: [
    ("{nam}.png", "unknown placeholder '{nam}' (use {name}, {ext}, {dir} or {size})"),
    ("{name.png", "unbalanced '{' or '}'"),
    ("name}.png", "unbalanced '{' or '}'"),
    ("/tmp/{name}.png", "must be a path inside the output folder, not absolute"),
    ("../{name}.png", "must stay inside the output folder (no '..')"),
    ("{dir}/", "names no file"),
  ])
  func refuses(template: String, reason: String) {
    #expect(throws: NameTemplateError(reason: reason)) { try NameTemplate(parsing: template) }
  }
}
