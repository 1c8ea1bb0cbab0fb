import Foundation
import TestSupport
import Testing

@testable import HexMask

/// A GIF's frames counted by walking its blocks agree with the frames its decoder reads, on
/// every GIF fixture (made by gifsicle, ImageMagick, Pillow and by hand, damaged ones
/// included: a count is never more than the frames there are), and the count lets the
/// limits refuse a frame-count bomb before any frame is drawn.
@Suite struct GIFFrameCountTests {
  static let fixtures: [String] = {
    let folder = Fixtures.path("animation")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".gif") }.sorted()
  }()

  static func count(_ bytes: [UInt8], prefix: Int) -> Int? {
    var copy = bytes
    return copy.withUnsafeMutableBytes { buffer -> Int? in
      guard let file = fmemopen(buffer.baseAddress, buffer.count, "rb") else { return nil }
      defer { fclose(file) }
      var head = [UInt8](repeating: 0, count: prefix)
      _ = fread(&head, 1, prefix, file)
      let counted = countGIFFrames(file, prefixCount: prefix)
      #expect(ftello(file) == off_t(prefix), "the file is left where it was")
      return counted
    }
  }

  @Test func thereAreFixtures() { #expect(Self.fixtures.count >= 20) }

  @Test(arguments: fixtures)
  func theCountIsTheFramesTheDecoderReads(name: String) throws {
    let bytes = try Fixtures.bytes("animation/\(name)")
    let counted = try #require(Self.count(bytes, prefix: 8))
    var limits = GIFLimits()
    limits.maxTotalPixels = .max
    if let decoded = try? decodeGIF(bytes, prefix: 8, limits: limits, hashing: false) {
      // A damaged file may end inside a frame the walk counted and the decoder drops.
      #expect(counted == decoded.frames.count || counted == decoded.frames.count + 1, "\(name)")
    } else {
      #expect(counted >= 0)
    }
  }

  /// 200 one-pixel frames on an 8000² screen: refused from the count, saying all 200.
  @Test func aFrameCountBombIsRefusedFromWhatTheFileSays() throws {
    var bytes = Array("GIF89a".utf8) + [0x40, 0x1F, 0x40, 0x1F, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
    for index in 0..<200 {
      bytes += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
      bytes += [0x2C, UInt8(index % 100), 0, UInt8(index / 100), 0, 1, 0, 1, 0, 0]
      bytes += [2, 2, 0x4C, 0x01, 0]
    }
    bytes.append(0x3B)
    #expect(Self.count(bytes, prefix: 8) == 200)
    var limits = GIFLimits()
    limits.maxPixels = 8000 * 8000
    limits.maxFrames = 100
    #expect(
      throws: ImageError.tooManyFrames(limit: 100),
      performing: { try decodeGIF(bytes, prefix: 8, limits: limits, hashing: false) })
    limits.maxFrames = 1000
    limits.maxTotalPixels = HexMask.Input().maxAnimationPixels
    #expect(
      throws: ImageError.tooManyPixelsInAll(
        frames: 200, width: 8000, height: 8000, limit: limits.maxTotalPixels),
      performing: { try decodeGIF(bytes, prefix: 8, limits: limits, hashing: false) })
  }

  @Test func oneFrameIsSaidInTheSingular() {
    #expect(
      ImageError.tooManyPixelsInAll(frames: 1, width: 24, height: 20, limit: 479).reason
        == "1 frame of 24×20 is more than the limit of 479 pixels over all frames")
  }

  @Test func aStreamThatCannotSeekIsNotCounted() throws {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    let file = try #require(fdopen(descriptors[0], "rb"))
    defer { fclose(file) }
    close(descriptors[1])
    #expect(countGIFFrames(file, prefixCount: 8) == nil)
  }
}
