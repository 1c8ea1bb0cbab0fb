import Foundation
import TestSupport
import Testing

@testable import HexMask

/// `maxPixels` limits the output as it limits the input, and a format's own limit on the
/// side is the options' fault: both are shape errors, before anything is written.
@Suite struct OutputSizeLimitTests {
  static let picture =
    FileManager.default.contents(atPath: Fixtures.path("pngsuite/basn2c08.png"))
    .map { [UInt8]($0) } ?? []

  @Test func aMaskLargerThanTheLimitIsRefused() throws {
    let pipe = Pipe()
    #expect(throws: HexMask.Error.output(.tooManyPixels(side: 65_500, limit: 268_402_689))) {
      try HexMask.renderMask(side: 65_500, to: pipe.fileHandleForWriting.fileDescriptor)
    }
    try pipe.fileHandleForWriting.close()
    #expect(pipe.fileHandleForReading.readDataToEndOfFile().isEmpty)
  }

  @Test func aPictureLargerThanTheLimitIsRefused() throws {
    #expect(!Self.picture.isEmpty)
    var output = HexMask.Output()
    output.size = 64
    var input = HexMask.Input()
    input.maxPixels = 64 * 64 - 1
    #expect(throws: HexMask.Error.output(.tooManyPixels(side: 64, limit: 64 * 64 - 1))) {
      try HexMask.render(Self.picture, output: output, input: input).bytes
    }
    // Exactly at the limit is fine.
    input.maxPixels = 64 * 64
    #expect(try !HexMask.render(Self.picture, output: output, input: input).bytes.isEmpty)
  }

  @Test func aWebPLargerThanWebPAllowsIsAShapeError() {
    var output = HexMask.Output()
    output.size = WebPWriter.maximumSide + 1
    output.kind = .init(.webp)
    var input = HexMask.Input()
    input.maxPixels = .max
    #expect(
      throws: HexMask.Error.output(
        .tooLargeForFormat(side: 16384, format: .webp, maximumSide: 16383))
    ) {
      try HexMask.render(Self.picture, output: output, input: input).bytes
    }
  }
}
