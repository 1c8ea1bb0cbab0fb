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

/// How far apart two pictures of the same size are, as mean absolute differences of their
/// samples (0 for the same pixels, 255 for black against white).
extension DecodedImage {
  /// The mean absolute difference of every sample, alpha included.
  public func meanSampleDifference(from other: DecodedImage) -> Double {
    zip(pixels, other.pixels).reduce(0.0) { $0 + Double(abs(Int($1.0) - Int($1.1))) }
      / Double(max(pixels.count, 1))
  }

  /// The mean absolute difference of the red, green and blue samples, alpha left out.
  public func meanColorDifference(from other: DecodedImage) -> Double {
    var total = 0
    var count = 0
    for index in pixels.indices where index % 4 != 3 {
      total += abs(Int(pixels[index]) - Int(other.pixels[index]))
      count += 1
    }
    return Double(total) / Double(max(count, 1))
  }

  /// The mean absolute difference of each channel on its own: red, green, blue, alpha.
  public func meanChannelDifferences(from other: DecodedImage) -> [Double] {
    var sums = [0, 0, 0, 0]
    for index in pixels.indices {
      sums[index % 4] += abs(Int(pixels[index]) - Int(other.pixels[index]))
    }
    return sums.map { Double($0) / Double(max(width * height, 1)) }
  }
}
