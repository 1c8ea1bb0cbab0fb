import Foundation
import HexMask
import Testing

/// `maxPixels` limits the output as it limits the input, and a format's own limit on the
/// side is the options' fault: both are usage errors before anything is written.
@Suite struct OutputSizeLimitTests {
  @Test func aMaskLargerThanTheLimitIsRefused() throws {
    try withTemporaryDirectory { (folder: String) throws in
      var options = RenderOptions()
      options.size = 65_500
      let output = folder + "/mask.png"
      let error = #expect(throws: HexMaskError.self) {
        try renderMask(output: output, options: options)
      }
      #expect(error?.isUsage == true)
      let reason = error?.reason ?? ""
      #expect(reason == "a 65500×65500 output has more pixels than the limit of 268402689")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
  }

  @Test func aPictureLargerThanTheLimitIsRefused() throws {
    try withTemporaryDirectory { (folder: String) throws in
      var options = RenderOptions()
      options.size = 64
      options.maxPixels = 64 * 64 - 1
      let error = #expect(throws: HexMaskError.self) {
        try render(
          input: Fixtures.path("pngsuite/basn2c08.png"), output: folder + "/out.png",
          options: options)
      }
      #expect(error?.isUsage == true)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
      // Exactly at the limit is fine.
      options.maxPixels = 64 * 64
      try render(
        input: Fixtures.path("pngsuite/basn2c08.png"), output: folder + "/out.png",
        options: options)
    }
  }

  @Test func aWebPLargerThanWebPAllowsIsAUsageError() throws {
    try withTemporaryDirectory { (folder: String) throws in
      var options = RenderOptions()
      options.size = WebPWriter.maximumSide + 1
      options.maxPixels = .max
      let error = #expect(throws: HexMaskError.self) {
        try render(
          input: Fixtures.path("pngsuite/basn2c08.png"), output: folder + "/out.webp",
          options: options)
      }
      #expect(error?.isUsage == true)
      let reason = error?.reason ?? ""
      #expect(reason == "a WebP can be at most 16383 pixels a side, not 16384")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
  }
}
