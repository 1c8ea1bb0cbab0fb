import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One road for a turned picture: an animation stored turned, with the EXIF tag that turns
/// it back, gives the upright animation's output, every frame, in every moving format; and
/// each animated frame is the still of that frame. Chromium 156 turns an APNG's `eXIf` on
/// every frame and ignores a WebP's `EXIF` chunk, still or animated (docs/formats.md).
@Suite struct TurnedAnimationTests {
  /// Three upright frames, 48 × 30 (not square, so a quarter turn changes the size),
  /// taken from a GIF made by another tool.
  static let upright: (width: Int, height: Int, frames: [[UInt8]]) = {
    let (width, height) = (48, 30)
    let frames =
      (try? AnimatedRenderTests.frames(of: Fixtures.bytes(AnimatedRenderTests.gif)))?
      .canvases ?? []
    return (width, height, frames.map { Array($0[0..<(width * height * 4)]) })
  }()

  /// The stored pixels that `orientation` turns into `upright` (`width × height`).
  static func stored(
    _ upright: [UInt8], width: Int, height: Int, orientation: Orientation
  ) -> (pixels: [UInt8], width: Int, height: Int) {
    let (storedWidth, storedHeight) =
      orientation.swapsAxes ? (height, width) : (width, height)
    var pixels = [UInt8](repeating: 0, count: upright.count)
    for y in 0..<height {
      for x in 0..<width {
        let from = orientation.storedPixel(x: x, y: y, width: storedWidth, height: storedHeight)
        for channel in 0..<4 {
          pixels[(from.y * storedWidth + from.x) * 4 + channel] =
            upright[(y * width + x) * 4 + channel]
        }
      }
    }
    return (pixels, storedWidth, storedHeight)
  }

  /// An APNG of `frames` (`width × height`), with an `eXIf` chunk saying `orientation`
  /// right after its header when it is not 1.
  static func apng(
    _ frames: [[UInt8]], width: Int, height: Int, orientation: Orientation
  ) throws -> [UInt8] {
    let bytes = try apngBytes(frames, width: width, height: height)
    guard orientation != .up else { return bytes }
    let afterHeader = 8 + 8 + 13 + 4
    return Array(bytes[..<afterHeader]) + exifChunk(orientation) + Array(bytes[afterHeader...])
  }

  /// A PNG `eXIf` chunk holding one IFD entry: the orientation tag.
  static func exifChunk(_ orientation: Orientation) -> [UInt8] {
    let tiff: [UInt8] =
      [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0]
      + [UInt8(orientation.rawValue), 0, 0, 0, 0, 0, 0]
    let typeAndData = Array("eXIf".utf8) + tiff
    return bigEndian(tiff.count) + typeAndData + bigEndian(Int(crc32(typeAndData)))
  }

  static func bigEndian(_ value: Int) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
  }

  static let kinds: [HexMask.Output.Kind] = [
    AnimatedRenderTests.apng, AnimatedRenderTests.losslessWebP,
  ]

  /// Every orientation × moving format: the turned APNG's frames are the upright APNG's.
  @Test(arguments: Orientation.allCases)
  func aTurnedAPNGMovesAsTheUprightOne(orientation: Orientation) throws {
    let upright = Self.upright
    try #require(upright.frames.count == 3)
    let plain = try Self.apng(
      upright.frames, width: upright.width, height: upright.height, orientation: .up)
    let stored = upright.frames.map {
      Self.stored($0, width: upright.width, height: upright.height, orientation: orientation)
    }
    let turned = try Self.apng(
      stored.map(\.pixels), width: stored[0].width, height: stored[0].height,
      orientation: orientation)
    for kind in Self.kinds {
      let output = AnimatedRenderTests.output(kind, size: 24)
      let expected = try HexMask.render(plain, output: output)
      let rendered = try HexMask.render(turned, output: output)
      #expect(rendered.animation?.frames == 3, "\(orientation) \(kind)")
      #expect(rendered.bytes == expected.bytes, "\(orientation) \(kind)")
      #expect(rendered.crop == expected.crop, "\(orientation) \(kind)")
    }
  }

  /// Each frame of a turned APNG's animated output is the still of that frame (the same
  /// road, one frame long).
  @Test(arguments: [Orientation.down, .right, .left, .rightMirrored])
  func eachTurnedFrameIsItsStill(orientation: Orientation) throws {
    let upright = Self.upright
    try #require(upright.frames.count == 3)
    let stored = upright.frames.map {
      Self.stored($0, width: upright.width, height: upright.height, orientation: orientation)
    }
    let turned = try Self.apng(
      stored.map(\.pixels), width: stored[0].width, height: stored[0].height,
      orientation: orientation)
    let output = AnimatedRenderTests.output(AnimatedRenderTests.apng, size: 24)
    let frames = try AnimatedRenderTests.frames(of: HexMask.render(turned, output: output).bytes)
    #expect(frames.canvases.count == 3)
    for index in frames.canvases.indices {
      var input = HexMask.Input()
      input.frame = index
      let still = try HexMask.render(turned, output: output, input: input)
      #expect(try decodePNG(still.bytes).image.pixels == frames.canvases[index], "frame \(index)")
    }
  }

  /// Without auto-orientation the stored pixels are drawn, every frame alike.
  @Test func noAutoOrientDrawsTheStoredFrames() throws {
    let upright = Self.upright
    try #require(upright.frames.count == 3)
    let stored = upright.frames.map {
      Self.stored($0, width: upright.width, height: upright.height, orientation: .right)
    }
    let turned = try Self.apng(
      stored.map(\.pixels), width: stored[0].width, height: stored[0].height,
      orientation: .right)
    let untagged = try Self.apng(
      stored.map(\.pixels), width: stored[0].width, height: stored[0].height, orientation: .up)
    var input = HexMask.Input()
    input.autoOrient = false
    let output = AnimatedRenderTests.output(AnimatedRenderTests.apng, size: 24)
    #expect(
      try HexMask.render(turned, output: output, input: input).bytes
        == HexMask.render(untagged, output: output, input: input).bytes)
  }
}
