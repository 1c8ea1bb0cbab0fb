import Foundation
import HexMask
import TestSupport
import Testing

/// Pins the default look itself: `--sides 6 --corner 10 --line 5 --rotation 90`
/// (docs/design.md, Defaults: the original's values). A change of a default (the corner from
/// 10 to 9 once) was caught only because the committed man page and README table no longer
/// matched the option table; this test fails on the picture, whatever the documents say.
///
/// Only the alpha channel is pinned: it is the shape's coverage alone (the photo is opaque),
/// so the numbers depend on the geometry and the rasterizer, not on the JPEG decoder's
/// version.
@Suite struct DefaultShapePinTests {
  /// The bundled rocket photo's bytes.
  static func photo() throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/rocket.jpg"))))
  }

  /// A default 256 px render of the bundled rocket photo, decoded back.
  static func defaultRender() throws -> DecodedImage {
    let photo = try Self.photo()
    var output = HexMask.Output()
    output.size = 256
    return try decodePNG(try HexMask.render(photo, output: output).bytes).image
  }

  @Test func theDefaultShapeHasTheseExactAlphaLevels() throws {
    let image = try Self.defaultRender()
    #expect(image.width == 256 && image.height == 256)
    let alpha = stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
    #expect(alpha.reduce(0) { $0 + Int($1) } == Self.alphaSum)
    #expect(sha256Hex(alpha) == Self.alphaDigest)
  }

  @Test func theDefaultsAreTheOriginalsValues() throws {
    #expect(HexMask.Shape.defaultSides == 6)
    #expect(HexMask.Shape.defaultCorner == 10)
    #expect(HexMask.Shape.defaultLine == 5)
    #expect(HexMask.Shape.defaultRotation == 90)
    // Spelling the defaults out gives the same picture, byte for byte.
    let photo = try Self.photo()
    var output = HexMask.Output()
    output.size = 256
    var shape = HexMask.Shape()
    shape.corner = .pixels(10)
    shape.line = .pixels(5)
    shape.rotation = 90
    shape.sides = 6
    #expect(
      try HexMask.render(photo, shape: shape, output: output).bytes
        == HexMask.render(photo, output: output).bytes)
  }

  /// Σ alpha of the default 256 px render: 44 393.8 px of coverage, a hexagon of circumradius
  /// 128 with 10 px corners and the outer half of a 5 px border. With `--corner 9` it is
  /// larger, with `--line 4` smaller: any change of a default moves it.
  static let alphaSum = 11_320_428
  /// SHA-256 of the 65 536 alpha bytes, row by row: pins where the coverage lies, too.
  static let alphaDigest = "0965396704eeda95e27e7247474c06664c2e96ed62949c117039dfaa9c00a51a"
}
