import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Every frame of an animation gets the same square, shape and resize (work in progress:
/// the render is not yet reached from the command).
@Suite struct AnimatedRenderTests {
  /// The frames of photo-local-palettes.gif (three opaque 48² photos) as 32² frames.
  static func rendered(line: Double = 4) throws -> (HexMask.AnimationReport, [[UInt8]], [Int]) {
    try withFile(Fixtures.path("animation/photo-local-palettes.gif")) { file in
      let source = try GIFFrames(
        file: file, maxPixels: 1 << 20, maxFrames: 100, maxTotalPixels: 1 << 24)
      var shape = HexMask.Shape()
      shape.line = .pixels(line)
      var frames: [[UInt8]] = []
      var delays: [Int] = []
      let report = try HexMask.renderFrames(
        source, side: 32, shape: shape, output: HexMask.Output()
      ) { pixels, delay in
        frames.append(Array(pixels))
        delays.append(delay)
      }
      return (report, frames, delays)
    }
  }

  @Test func everyFrameHasTheStillEdge() throws {
    let (report, frames, delays) = try Self.rendered()
    #expect(report.frames == 3 && frames.count == 3)
    #expect(report.durationMilliseconds == delays.reduce(0, +))
    let alpha = { (frame: [UInt8]) in stride(from: 3, to: frame.count, by: 4).map { frame[$0] } }
    // The still mask of a 32² canvas: a picture's opaque frames all carry exactly its alpha.
    var output = HexMask.Output()
    output.kind = .mask(.init())
    var shape = HexMask.Shape()
    shape.line = .pixels(4)
    let mask = try decodePNG(
      try withTemporaryFolder { (url: URL) throws -> [UInt8] in
        let path = url.path + "/mask.png"
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        defer { close(fd) }
        try HexMask.renderMask(side: 32, to: fd, shape: shape, output: output)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      }
    ).image
    let coverage = stride(from: 0, to: mask.pixels.count, by: 4).map { mask.pixels[$0] }
    for frame in frames { #expect(alpha(frame) == coverage) }
    // The pictures differ from frame to frame (rotated, negated), the edges do not.
    #expect(frames[0] != frames[1] && frames[1] != frames[2])
  }

  /// Through the animated WebP writer and back: as many frames, the same delays and alpha.
  @Test func roundTripsThroughAnimatedWebP() throws {
    let (_, frames, delays) = try Self.rendered()
    try withTemporaryFolder { url in
      let path = url.path + "/out.webp"
      try withFile(path, mode: "wb") { file in
        let writer = try AnimatedWebPWriter(file: file, width: 32, height: 32, lossless: true)
        for (frame, delay) in zip(frames, delays) {
          try frame.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: delay) }
        }
        try writer.finish(loopCount: 2)
      }
      try withFile(path) { file in
        let back = try WebPFrames(
          file: file, maxPixels: 1 << 20, maxFrames: 100, maxTotalPixels: 1 << 24)
        #expect(back.loopCount == 2)
        var index = 0
        while let frame = try back.nextFrame() {
          #expect(Array(frame.canvas) == frames[index])
          #expect(frame.delayMilliseconds == delays[index])
          index += 1
        }
        #expect(index == frames.count)
      }
    }
  }

  /// Through the APNG writer, whose frame count is known only at the end (a GIF says none
  /// up front: the writer corrects acTL in a seekable file), and back.
  @Test func roundTripsThroughAPNG() throws {
    let (_, frames, delays) = try Self.rendered()
    try withTemporaryFolder { url in
      let path = url.path + "/out.png"
      try withFile(path, mode: "w+b") { file in
        let writer = try APNGWriter(
          file: file, width: 32, height: 32, frameCount: 1, loopCount: 2)
        for (frame, delay) in zip(frames, delays) {
          try frame.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: delay) }
        }
        try writer.finish()
      }
      try withFile(path) { file in
        let back = try APNGFrames(file: file, signatureBytes: 0, maxPixels: 1 << 20, maxFrames: 100)
        #expect(back.loopCount == 2)
        var index = 0
        while let frame = try back.nextFrame() {
          // Straight alpha: where a pixel is transparent its colour is not kept.
          let got = Array(frame.canvas)
          let want = frames[index]
          var same = true
          for pixel in stride(from: 0, to: want.count, by: 4) {
            let alpha: UInt8 = want[pixel + 3]
            if got[pixel + 3] != alpha { same = false }
            if alpha > 0 && Array(got[pixel..<pixel + 3]) != Array(want[pixel..<pixel + 3]) {
              same = false
            }
          }
          #expect(same, "frame \(index)")
          #expect(frame.delayMilliseconds == delays[index])
          index += 1
        }
        #expect(index == frames.count)
      }
    }
  }
}
