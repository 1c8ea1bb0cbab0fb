import Testing

@testable import HexMask

/// A palette PNG holds the whole picture while it chooses the colours: one that would need
/// more than the memory budget's limit is refused before any row, naming what it needs.
@Suite struct PaletteMemoryTests {
  static func make(side: Int, limit: Int?) throws -> ImageError? {
    try withFile("/dev/null", mode: "wb") { file in
      thrownError { () throws(ImageError) in
        _ = try PalettePNGWriter(
          file: file, width: side, height: side, colors: 256,
          memory: limit.map { MemoryBudget(limit: $0) })
      }
    }
  }

  @Test func aPictureOverTheMemoryLimitIsRefused() throws {
    let side = 3000
    let needed = PalettePNGWriter.cost.bytes(width: side, height: side)
    let error = try Self.make(side: side, limit: 64 << 20)
    #expect(error?.kind == .tooLarge)
    #expect(error?.memory == ImageError.MemoryLimit(needed: needed, limit: 64 << 20))
    #expect(
      error?.reason == "a 3000×3000 palette PNG needs \(byteAmount(needed)) to choose its "
        + "colours, more than the memory limit of 64 MiB")
  }

  @Test func aPictureWithinTheLimitOrWithoutABudgetIsWritten() throws {
    let side = 3000
    let needed = PalettePNGWriter.cost.bytes(width: side, height: side)
    #expect(try Self.make(side: side, limit: needed) == nil)
    #expect(try Self.make(side: side, limit: needed - 1) != nil)
    #expect(try Self.make(side: side, limit: nil) == nil)
  }

  @Test func morePixelsThanTheColourCountHoldsAreRefused() throws {
    let error = try Self.make(side: 1 << 16, limit: nil)
    #expect(error?.kind == .writeFailed)
  }
}
