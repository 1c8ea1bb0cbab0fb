/// A whole decoded image, for comparing pixels in tests.
public struct DecodedImage: Equatable, Sendable {
  public var width: Int
  public var height: Int
  /// RGBA8, rows top to bottom.
  public var pixels: [UInt8]
  public var warnings: [String]

  public init(width: Int, height: Int, pixels: [UInt8], warnings: [String] = []) {
    self.width = width
    self.height = height
    self.pixels = pixels
    self.warnings = warnings
  }

  /// The RGBA value at column `x`, row `y`.
  public func pixel(_ x: Int, _ y: Int) -> [UInt8] {
    let start = (y * width + x) * 4
    return Array(pixels[start..<start + 4])
  }
}
