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

  /// `frames` one-pixel frames on a `side`² screen.
  static func bomb(frames: Int, side: Int = 8000) -> [UInt8] {
    let (low, high) = (UInt8(side & 0xFF), UInt8(side >> 8))
    var bytes = Array("GIF89a".utf8) + [low, high, low, high, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
    for index in 0..<frames {
      bytes += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
      bytes += [0x2C, UInt8(index % 100), 0, UInt8(index / 100 % 256), 0, 1, 0, 1, 0, 0]
      bytes += [2, 2, 0x4C, 0x01, 0]
    }
    bytes.append(0x3B)
    return bytes
  }

  /// One-pixel frames on an 8000² screen: refused from the count, which stops at the first
  /// frame over a limit (and names it), from a file and from a pipe alike.
  @Test(arguments: [false, true])
  func aFrameCountBombIsRefusedFromWhatTheFileSays(piped: Bool) throws {
    let bytes = Self.bomb(frames: 200)
    #expect(Self.count(bytes, prefix: 8) == 200)
    var limits = GIFLimits()
    limits.maxPixels = 8000 * 8000
    (limits.maxFrames, limits.maxTotalPixels) = (100, .max)
    func decode() throws(ImageError) {
      _ = try decodeGIF(bytes, prefix: 8, limits: limits, hashing: false, piped: piped)
    }
    #expect(throws: ImageError.tooManyFrames(limit: 100), performing: decode)
    limits.maxFrames = 1000
    limits.maxTotalPixels = HexMask.Input().maxAnimationPixels
    #expect(
      throws: ImageError.tooManyPixelsInAll(
        frames: limits.maxTotalPixels / (8000 * 8000) + 1, width: 8000, height: 8000,
        limit: limits.maxTotalPixels),
      performing: decode)
  }

  /// Every GIF fixture decodes from a pipe as from memory: with limits (its bytes kept in
  /// memory and counted first) and without (read as it comes).
  @Test(arguments: fixtures)
  func aPipeDecodesAsAFileDoes(name: String) throws {
    let bytes = try Fixtures.bytes("animation/\(name)")
    var limits = GIFLimits()
    for _ in 0..<2 {
      let fromMemory = Result { () throws(ImageError) in
        try decodeGIF(bytes, prefix: 8, limits: limits)
      }
      let fromPipe = Result { () throws(ImageError) in
        try decodeGIF(bytes, prefix: 8, limits: limits, piped: true)
      }
      switch (fromMemory, fromPipe) {
      case (.success(let memory), .success(let pipe)):
        #expect(memory.frames == pipe.frames && memory.warnings == pipe.warnings, "\(name)")
      case (.failure(let memory), .failure(let pipe)):
        #expect(memory == pipe, "\(name)")
      default:
        Issue.record("\(name): \(fromMemory) from memory, \(fromPipe) from a pipe")
      }
      (limits.maxFrames, limits.maxTotalPixels) = (.max, .max)
    }
  }

  /// A piped GIF longer than what is kept to count it (an endless comment, here 17 MiB) is
  /// kept only up to that, and counted as it is read: its first bytes are all kept, in order.
  @Test func aLongPipeIsKeptOnlyInPart() throws {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    let header = Array("GIF89a".utf8) + [8, 0, 8, 0, 0, 0, 0] + [0x21, 0xFE]
    let block = [UInt8(255)] + [UInt8](repeating: 0x41, count: 255)
    let blocks = (17 << 20) / block.count
    let writer = Thread { [descriptors] in
      var sent = header
      for _ in 0..<blocks { sent += block }
      sent.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let done = write(descriptors[1], bytes.baseAddress! + offset, bytes.count - offset)
          if done <= 0 { break }
          offset += done
        }
      }
      close(descriptors[1])
    }
    writer.start()
    let file = try #require(fdopen(descriptors[0], "rb"))
    defer { fclose(file) }
    var prefix = [UInt8](repeating: 0, count: 8)
    #expect(fread(&prefix, 1, 8, file) == 8)
    let kept = try keepGIFStart(file, prefix: prefix) { frames, _ in frames > 100 }
    #expect(kept.frames == nil)
    #expect(kept.bytes.count <= keptGIFBytes && kept.bytes.count > keptGIFBytes - 512)
    #expect(Array(kept.bytes.prefix(header.count)) == header)
    var rest = [UInt8](repeating: 0, count: 1 << 16)
    var total = kept.bytes.count
    while case let read = fread(&rest, 1, rest.count, file), read > 0 { total += read }
    #expect(total == header.count + blocks * block.count)
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
