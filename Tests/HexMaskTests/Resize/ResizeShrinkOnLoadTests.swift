import TestSupport
import Testing

@testable import HexMask

@Suite("Resize shrink-on-load")
struct ResizeShrinkOnLoadTests {
  @Test(
    "the shrink leaves the filter at least a factor of 2",
    arguments: [
      (3024, 256, 4), (4096, 256, 8), (4095, 256, 4), (2048, 256, 4), (2047, 256, 2),
      (1024, 256, 2), (1023, 256, 1), (427, 106, 2), (427, 107, 1), (427, 26, 8), (427, 27, 4),
      (1, 1, 1), (100, 0, 1), (100_000, 64, 8),
    ])
  func factor(shortSide: Int, target: Int, expected: Int) {
    #expect(shrinkFactor(sourceShortSide: shortSide, targetSide: target) == expected)
  }

  @Test(
    "a JPEG decodes at 1/d of its size, rounded up",
    arguments: [(nil, 640, 427), (200, 640, 427), (106, 320, 214), (53, 160, 107), (26, 80, 54)])
  func scaledSize(target: Int?, width: Int, height: Int) throws {
    try withFile(Fixtures.path("photos/rocket.jpg")) { file in
      let decoder = try openDecoder(file: file, maxPixels: 1 << 28, targetSide: target)
      #expect(decoder.width == width && decoder.height == height)
      let pixels = try readPixels(decoder)
      #expect(pixels.count == width * height && pixels.allSatisfy { $0.w == 255 })
    }
  }

  @Test("the pixel limit counts the stored size, not the shrunk one")
  func limitCountsStoredSize() throws {
    let error = try withFile(Fixtures.path("photos/rocket.jpg")) { file in
      thrownError { () throws(ImageError) in
        _ = try openDecoder(file: file, maxPixels: 640 * 427 - 1, targetSide: 26)
      }
    }
    #expect(error?.kind == .tooLarge)
  }

  @Test("PNG files decode at full size whatever the target")
  func pngIgnoresTarget() throws {
    try withFile(Fixtures.path("pngsuite/basn6a08.png")) { file in
      let decoder = try openDecoder(file: file, maxPixels: 1 << 28, targetSide: 1)
      #expect(decoder.width == 32 && decoder.height == 32)
    }
  }

  /// Shrinking in libjpeg's inverse DCT and then filtering gives nearly the picture that
  /// filtering the full decode gives. The crop is chosen on the shrunk picture, as hexmask
  /// does (it knows only the decoder's size): when the stored size is not a multiple of the
  /// shrink, the shrunk picture ends in a partial pixel and the square is off by up to a
  /// shrunk pixel. Measured mean absolute difference per channel ≤ 1.33 levels (max 46) on
  /// rocket 640×427 at 1/2, 1/4 and 1/8, 4.4 on the small testorig (227×149) at 1/4. For
  /// sizes that are a multiple of 8 (4032×3024 camera photos) the square is the same.
  @Test(
    "shrink-on-load is close to decoding in full and filtering",
    arguments: [
      ("photos/rocket.jpg", 106), ("photos/rocket.jpg", 64), ("photos/rocket.jpg", 50),
      ("photos/rocket.jpg", 26), ("photos/rocket.jpg", 16), ("jpeg/jpg-cmyk-2.jpg", 64),
      ("jpeg/jpg-cmyk-2.jpg", 16), ("jpeg/testorig.jpg", 18),
    ])
  func closeToFullDecode(name: String, side: Int) throws {
    let decodeSquare = { (targetSide: Int?) in
      try withFile(Fixtures.path(name)) { file in
        let decoder = try openDecoder(file: file, maxPixels: 1 << 28, targetSide: targetSide)
        let crop = CropSquare(imageWidth: decoder.width, imageHeight: decoder.height)
        return (try readPixels(ResizedDecoder(decoder, crop: crop, side: side)), decoder.width)
      }
    }
    let (full, fullWidth) = try decodeSquare(nil)
    let (shrunk, shrunkWidth) = try decodeSquare(side)
    #expect(shrunkWidth < fullWidth)
    let simple = difference(full, shrunk)
    #expect(simple.mean < 5, "crop on shrunk size: \(simple)")
    if name == "photos/rocket.jpg" { #expect(simple.mean < 1.5) }
  }

  /// The mean and largest absolute difference of two images, per channel.
  private func difference(_ a: [SIMD4<UInt8>], _ b: [SIMD4<UInt8>]) -> (mean: Double, worst: Int) {
    let differences = zip(a, b).flatMap { a, b in (0..<4).map { abs(Int(a[$0]) - Int(b[$0])) } }
    let mean = Double(differences.reduce(0, +)) / Double(max(differences.count, 1))
    return (mean, differences.max() ?? 0)
  }
}
