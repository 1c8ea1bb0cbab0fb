import TestSupport
import Testing

@testable import HexMask

/// One range of qualities, `HexMask.Output.qualityRange`, for both lossy writers.
@Suite struct QualityRangeTests {
  @Test func isOneToAHundredAndHoldsTheDefault() {
    #expect(HexMask.Output.qualityRange == 1...100)
    #expect(HexMask.Output.qualityRange.contains(HexMask.Output.defaultQuality))
  }

  @Test func bothWritersAcceptExactlyTheRange() throws {
    let range = HexMask.Output.qualityRange
    try withTemporaryFolder { url in
      let directory = url.path
      try withFile(directory + "/out", mode: "wb") { file in
        for quality in [range.lowerBound, range.upperBound] {
          _ = try JPEGWriter(file: file, width: 3, height: 3, quality: quality)
          _ = try WebPWriter(file: file, width: 3, height: 3, quality: quality)
        }
        for quality in [range.lowerBound - 1, range.upperBound + 1] {
          #expect(
            throws: ImageError(.writeFailed, "JPEG quality must be 1…100, not \(quality)")
          ) { try JPEGWriter(file: file, width: 3, height: 3, quality: quality) }
          #expect(
            throws: ImageError(.writeFailed, "WebP quality must be 1…100, not \(quality)")
          ) { try WebPWriter(file: file, width: 3, height: 3, quality: quality) }
        }
      }
    }
  }
}
