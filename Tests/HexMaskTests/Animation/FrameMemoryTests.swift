import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every frame reader is priced at the door, by one rule (``reserveFrameReading``): an
/// animation whose canvas does not fit the memory budget is refused before its canvas is
/// allocated, whatever its container, and one that fits renders.
@Suite struct FrameMemoryTests {
  /// Animations made by other tools (gifsicle's GIF, apngasm's APNG, gif2webp's WebP).
  static let animations = [
    "animation/photo-local-palettes.gif", "animation/apng-apngasm.png",
    "animation/webp-gif2webp-lossless.webp", "animation/webp-img2webp-alpha.webp",
  ]

  /// The memory error a render under `limit` bytes throws, or nil when it renders.
  static func memoryRefusal(_ bytes: [UInt8], limit: Int, kind: HexMask.Output.Kind)
    -> HexMask.ImageError.MemoryLimit?
  {
    var input = HexMask.Input()
    input.memoryBudget = HexMask.MemoryBudget(limit: limit)
    do {
      _ = try HexMask.render(
        bytes, output: AnimatedRenderTests.output(kind, size: 16), input: input)
      return nil
    } catch {
      guard case .decoding(let reason) = error else { return nil }
      return reason.memory
    }
  }

  /// Below one canvas every reader refuses, naming what it needs (more than the canvas);
  /// with room it renders, animated and still alike.
  @Test(arguments: animations)
  func everyReaderIsPricedBeforeItsCanvas(_ name: String) throws {
    let bytes = try Fixtures.bytes(name)
    let canvas = try AnimatedRenderTests.frames(of: bytes).canvases[0].count
    for kind in [AnimatedRenderTests.apng, .jpeg(.init())] {
      let refusal = Self.memoryRefusal(bytes, limit: canvas - 1, kind: kind)
      #expect(refusal?.limit == canvas - 1, "\(name) \(kind)")
      #expect((refusal?.needed ?? 0) > canvas, "\(name) \(kind)")
      #expect(Self.memoryRefusal(bytes, limit: 16 << 20, kind: kind) == nil, "\(name) \(kind)")
    }
  }

  /// The case a tryout found: a 1500 × 1500 APNG of two frames under a 1 MiB budget was
  /// rendered (45 MB peak) while the same GIF was refused.
  @Test func aLargeAPNGIsRefusedUnderASmallBudget() throws {
    let side = 1500
    let first = [UInt8](repeating: 200, count: side * side * 4)
    var second = first
    second[0] = 0
    let bytes = try apngBytes([first, second], width: side, height: side)
    let refusal = Self.memoryRefusal(bytes, limit: 1 << 20, kind: AnimatedRenderTests.apng)
    #expect(refusal?.limit == 1 << 20)
    #expect((refusal?.needed ?? 0) >= 2 * side * side * 4)
  }
}
