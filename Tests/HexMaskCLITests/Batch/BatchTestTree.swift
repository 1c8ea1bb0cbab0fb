import Foundation
import HexMask
import TestSupport

@testable import HexMaskCLI

/// Creates files under `root`: each relative path gets a copy of `source` (a fixture path) or
/// the bytes of `text`. Folders on the way are created.
func makeTree(_ root: String, copies: [String: String] = [:], texts: [String: String] = [:])
  throws
{
  let fileManager = FileManager.default
  for (relative, contents) in copies.mapValues({ try? Data(contentsOf: URL(fileURLWithPath: $0)) })
    .merging(texts.mapValues { Data($0.utf8) }, uniquingKeysWith: { first, _ in first })
  {
    let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
    try fileManager.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try (contents ?? Data()).write(to: url)
  }
}

/// The fixture photo and a small PNG, for trees of inputs.
let photoFixture = Fixtures.path("photos/rocket.jpg")
let pngFixture = Fixtures.path("pngsuite/basn2c08.png")

/// A render result for fake renderers: a `side` square, no warnings, no file.
func fakeRendered(side: Int, warnings: [String] = []) -> RenderedFile {
  RenderedFile(
    side: side, warnings: warnings.map { .render(HexMask.Warning(.damagedInput, $0)) }, stamp: nil)
}
