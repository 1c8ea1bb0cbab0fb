import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Animations through the public render: every frame gets the same square, shape and
/// resize, so each frame is what the still render of that frame makes; the timing and the
/// play count are the input's; outputs that cannot move take the first frame and say so.
@Suite struct AnimatedRenderTests {
  /// Frames as a reader composited them: canvas bytes and delays, and the play count.
  struct Frames: Equatable {
    var canvases: [[UInt8]] = []
    var delays: [Int] = []
    var loopCount = -1
  }

  /// Every frame of the animation in `bytes` (GIF, APNG or WebP, told by its first bytes).
  static func frames(of bytes: [UInt8]) throws -> Frames {
    try withBytesFile(bytes) { file in
      let source: any FrameSource =
        switch ImageFormat(sniffing: bytes) {
        case .gif:
          try GIFFrames(
            file: file, maxPixels: 1 << 24, maxFrames: 1000, maxTotalPixels: 1 << 30, memory: nil)
        case .webp:
          try WebPFrames(
            file: file, maxPixels: 1 << 24, maxFrames: 1000, maxTotalPixels: 1 << 30, memory: nil)
        default:
          try APNGFrames(
            file: file, signatureBytes: 0, maxPixels: 1 << 24, maxFrames: 1000, memory: nil)
        }
      var frames = Frames()
      while let frame = try source.nextFrame() {
        frames.canvases.append(Array(frame.canvas))
        frames.delays.append(frame.delayMilliseconds)
      }
      frames.loopCount = source.loopCount
      return frames
    }
  }

  static func output(_ kind: HexMask.Output.Kind, size: Int = 32) -> HexMask.Output {
    var output = HexMask.Output()
    output.kind = kind
    output.size = size
    return output
  }

  static let apng = HexMask.Output.Kind.png(.init())
  static let losslessWebP = HexMask.Output.Kind.webp(.init(quality: .lossless))
  static let gif = "animation/photo-local-palettes.gif"

  /// The alpha channel of straight RGBA bytes.
  static func alpha(_ rgba: [UInt8]) -> [UInt8] {
    stride(from: 3, to: rgba.count, by: 4).map { rgba[$0] }
  }

  /// Each frame of the APNG is the still render of that frame (`Input.frame`) byte for
  /// byte: the edge, the border and the resize of every frame are the still's.
  @Test func everyFrameIsTheStillOfThatFrame() throws {
    let bytes = try Fixtures.bytes(Self.gif)
    let rendered = try HexMask.render(bytes, output: Self.output(Self.apng))
    let frames = try Self.frames(of: rendered.bytes)
    #expect(frames.canvases.count == 3)
    for index in frames.canvases.indices {
      var input = HexMask.Input()
      input.frame = index
      let still = try HexMask.render(bytes, output: Self.output(Self.apng), input: input)
      #expect(still.animation == nil && still.warnings.isEmpty)
      #expect(try decodePNG(still.bytes).image.pixels == frames.canvases[index], "frame \(index)")
    }
    // The pictures differ from frame to frame, the edges do not.
    #expect(frames.canvases[0] != frames.canvases[1])
    #expect(Set(frames.canvases.map(Self.alpha)).count == 1)
  }

  /// An opaque animation's frames carry the still mask's alpha exactly, in both formats.
  @Test(arguments: [apng, losslessWebP, .webp(.init())])
  func opaqueFramesCarryTheStillMask(kind: HexMask.Output.Kind) throws {
    var shape = HexMask.Shape()
    shape.line = .pixels(4)
    var maskOutput = HexMask.Output()
    maskOutput.kind = .mask(.init())
    let mask = try withTemporaryFolder { (url: URL) throws -> [UInt8] in
      let path = url.path + "/mask.png"
      let fd = open(path, O_WRONLY | O_CREAT, 0o644)
      defer { close(fd) }
      try HexMask.renderMask(side: 32, to: fd, shape: shape, output: maskOutput)
      return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    let coverage = try decodePNG(mask).image.pixels.enumerated().filter { $0.offset % 4 == 0 }
      .map(\.element)
    let rendered = try HexMask.render(
      try Fixtures.bytes(Self.gif), shape: shape, output: Self.output(kind))
    let frames = try Self.frames(of: rendered.bytes)
    #expect(frames.canvases.count == 3)
    for (index, frame) in frames.canvases.enumerated() {
      #expect(Self.alpha(frame) == coverage, "frame \(index)")
    }
  }

  /// Fully transparent pixels of every frame are (0, 0, 0, 0), as a still's are: outside
  /// the shape and where the input is transparent (the GIFs' transparent canvases), in
  /// every lossless output that moves. (A lossy WebP's invisible colour is the encoder's,
  /// in a still as in each frame: it keeps the blocks around the edge smooth.)
  @Test(arguments: [apng, losslessWebP])
  func transparentPixelsOfEveryFrameAreZero(kind: HexMask.Output.Kind) throws {
    for fixture in [
      Self.gif, "animation/im-dispose-background.gif", "animation/apng-dispose-blend.png",
    ] {
      let rendered = try HexMask.render(try Fixtures.bytes(fixture), output: Self.output(kind))
      let frames = try Self.frames(of: rendered.bytes)
      #expect(frames.canvases.count > 1, "\(fixture)")
      for (index, frame) in frames.canvases.enumerated() {
        let clear = stride(from: 0, to: frame.count, by: 4).filter { frame[$0 + 3] == 0 }
        #expect(!clear.isEmpty, "\(fixture) frame \(index)")
        let coloured = clear.filter { frame[$0] != 0 || frame[$0 + 1] != 0 || frame[$0 + 2] != 0 }
        #expect(coloured.isEmpty, "\(fixture) frame \(index): \(coloured.count) pixels")
      }
    }
  }

  /// Frame count, each delay and the play count come through as the input has them (as a
  /// browser plays it), and the report says so.
  @Test(arguments: [
    "animation/photo-local-palettes.gif", "animation/mixed-disposal.gif",
    "animation/loop-forever.gif", "animation/loop-absent.gif", "animation/edge-zero-frame.gif",
    "animation/apng-dispose-blend.png", "animation/apng-hidden-default.png",
    "animation/webp-img2webp-mixed-loop3.webp", "animation/webp-img2webp-short-delays.webp",
  ])
  func timingIsKept(fixture: String) throws {
    let bytes = try Fixtures.bytes(fixture)
    let input = try Self.frames(of: bytes)
    let apng = try HexMask.render(bytes, output: Self.output(Self.apng))
    let apngFrames = try Self.frames(of: apng.bytes)
    #expect(apngFrames.canvases.count == input.canvases.count)
    #expect(apngFrames.delays == input.delays)
    #expect(apngFrames.loopCount == input.loopCount)
    #expect(
      apng.animation
        == HexMask.Animation(
          frames: input.canvases.count, durationMilliseconds: input.delays.reduce(0, +),
          loopCount: input.loopCount))
    let webp = try HexMask.render(bytes, output: Self.output(Self.losslessWebP))
    #expect(try Self.frames(of: webp.bytes) == apngFrames, "\(fixture)")
    #expect(webp.animation == apng.animation)
  }

  /// A JPEG, AVIF or palette PNG of an animation is its first frame, with a warning;
  /// asking for frame 0 gives the same bytes without one. A mask, the same for every
  /// frame, says nothing.
  @Test(arguments: [
    HexMask.Output.Kind.jpeg(.init()), .avif(.init()), .png(.init(palette: .init(colors: 64))),
    .mask(.init()),
  ])
  func stillOutputsShowTheFirstFrame(kind: HexMask.Output.Kind) throws {
    let bytes = try Fixtures.bytes(Self.gif)
    let rendered = try HexMask.render(bytes, output: Self.output(kind))
    #expect(rendered.animation == nil)
    let isMask = if case .mask = kind { true } else { false }
    #expect(rendered.warnings.map(\.kind) == (isMask ? [] : [.firstFrameOnly]))
    var input = HexMask.Input()
    input.frame = 0
    let first = try HexMask.render(bytes, output: Self.output(kind), input: input)
    #expect(first.warnings.isEmpty)
    #expect(first.bytes == rendered.bytes)
  }

  /// One frame, or one frame asked for, is a still: no animation chunk, no report of one.
  @Test func oneFrameIsAStill() throws {
    let still = try HexMask.render(
      try Fixtures.bytes("animation/still.gif"), output: Self.output(Self.apng))
    #expect(still.animation == nil && still.warnings.isEmpty)
    #expect(!still.bytes.contains(subsequence: Array("acTL".utf8)))
    var input = HexMask.Input()
    input.frame = 2
    let third = try HexMask.render(
      try Fixtures.bytes(Self.gif), output: Self.output(Self.losslessWebP), input: input)
    #expect(third.animation == nil)
    #expect(!third.bytes.contains(subsequence: Array("ANIM".utf8)))
  }

  /// Frames that do not exist, and animations past the limits, are typed errors.
  @Test func framesPastTheEndAndTheLimitsAreRefused() throws {
    func failure(_ fixture: String, _ change: (inout HexMask.Input) -> Void) throws -> ImageError? {
      var input = HexMask.Input()
      change(&input)
      do {
        _ = try HexMask.render(
          try Fixtures.bytes(fixture), output: Self.output(Self.apng), input: input)
        return nil
      } catch let error as HexMask.Error {
        guard case .decoding(let decoding) = error else { throw error }
        return decoding
      }
    }
    let past = try #require(try failure(Self.gif) { $0.frame = 3 })
    #expect(past.reason == "no frame 3: the GIF has 3 frames (the first is 0)")
    let still = try #require(try failure("jpeg/testorig.jpg") { $0.frame = 1 })
    #expect(still.reason.contains("still"))
    let many = try #require(try failure(Self.gif) { $0.maxFrames = 2 })
    #expect(many.kind == .tooLarge)
    let apng = try #require(try failure("animation/apng-dispose-blend.png") { $0.maxFrames = 1 })
    #expect(apng.kind == .tooLarge)
    #expect(try failure(Self.gif) { $0.maxFrames = 3 } == nil)
    // The pixel limit is the canvas's: at exactly its size, every frame is read.
    #expect(try failure(Self.gif) { $0.maxPixels = 48 * 48 } == nil)
    #expect(try failure(Self.gif) { $0.maxPixels = 48 * 48 - 1 }?.kind == .tooLarge)
  }

  /// A still counts the frames it reads against the frames' pixels in all, in every
  /// animated format: frame 29 of 30 reads 30 frames (over 16 × `maxPixels` of 8×8
  /// canvases), frame 2 and the first read few; `strict`, which reads them all, refuses.
  /// A still output's "shows the first frame" is no reason for strict mode to refuse.
  @Test func aStillCountsTheFramesItReads() throws {
    let gif = GIFFrameCountTests.bomb(frames: 30, side: 8)
    let apng = try HexMask.render(gif, output: Self.output(Self.apng, size: 8)).bytes
    let webp = try HexMask.render(gif, output: Self.output(Self.losslessWebP, size: 8)).bytes
    for (name, bytes) in [("GIF", gif), ("APNG", apng), ("WebP", webp)] {
      for (frame, strict, refused) in [
        (29, false, true), (2, false, false), (nil, false, false), (nil, true, true),
      ] {
        var input = HexMask.Input()
        (input.frame, input.strict, input.maxPixels) = (frame, strict, 64)
        let result = Result { () throws(HexMask.Error) in
          try HexMask.render(bytes, output: Self.output(.jpeg(.init()), size: 8), input: input)
        }
        switch result {
        case .success(let rendered):
          #expect(!refused, "\(name) frame \(String(describing: frame)) strict \(strict)")
          #expect(rendered.warnings.map(\.kind) == (frame == nil ? [.firstFrameOnly] : []))
        case .failure(let error):
          #expect(refused, "\(name) frame \(String(describing: frame)): \(error)")
          guard case .decoding(let reason) = error else { continue }
          #expect(reason.animation == .pixelsInAll(limit: 16 * 64), "\(name): \(reason)")
        }
      }
    }
  }

  /// Frames encoded on a thread of their own while the next is drawn make the same bytes.
  @Test(arguments: [apng, .webp(.init())])
  func encodingInTheBackgroundChangesNoByte(kind: HexMask.Output.Kind) throws {
    let bytes = try Fixtures.bytes("animation/mixed-disposal.gif")
    var threaded = Self.output(kind)
    threaded.threads = 4
    let foreground = try HexMask.render(bytes, output: Self.output(kind))
    let background = try HexMask.render(bytes, output: threaded)
    #expect(foreground.bytes == background.bytes)
    #expect(foreground.animation == background.animation && background.animation != nil)
  }

  /// A still of a damaged animation needs only its first frames; strict mode reads the
  /// rest, as it reads a still's rows below the square, and refuses it.
  @Test func strictReadsEveryFrameOfAStill() throws {
    let whole = try Fixtures.bytes("animation/apng-dispose-blend.png")
    let cut = Array(whole.prefix(whole.count - 40))
    let jpeg = Self.output(.jpeg(.init()))
    #expect(try HexMask.render(cut, output: jpeg).warnings.map(\.kind) == [.firstFrameOnly])
    var input = HexMask.Input()
    input.strict = true
    input.frame = 0
    #expect(try HexMask.render(whole, output: jpeg, input: input).warnings.isEmpty)
    #expect(
      throws: HexMask.Error.decoding(
        ImageError(.corrupt, "frame 5: the file ends inside the fdAT chunk"))
    ) { try HexMask.render(cut, output: jpeg, input: input) }
  }

  /// An animation's ICC profile is kept, or its frames converted to sRGB, as a still's.
  @Test func colourIsManagedOnEveryFrame() throws {
    let profile = try Fixtures.bytes("webp/icc-p3.icc")
    let source = try Self.frames(of: try Fixtures.bytes(Self.gif))
    let tagged = try withTemporaryFolder { url in
      let path = url.path + "/p3.webp"
      try withFile(path, mode: "wb") { file in
        let writer = try AnimatedWebPWriter(
          file: file, width: 48, height: 48, lossless: true, iccProfile: profile)
        for (canvas, delay) in zip(source.canvases, source.delays) {
          try canvas.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: delay) }
        }
        try writer.finish(loopCount: 0)
      }
      return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    var output = Self.output(Self.losslessWebP)
    let kept = try HexMask.render(tagged, output: output)
    output.colorSpace = .srgb
    let converted = try HexMask.render(tagged, output: output)
    #expect(kept.colour?.action == .kept && converted.colour?.action == .converted)
    #expect(kept.animation?.frames == 3 && converted.animation?.frames == 3)
    let keptFrames = try Self.frames(of: kept.bytes)
    let convertedFrames = try Self.frames(of: converted.bytes)
    for (before, after) in zip(keptFrames.canvases, convertedFrames.canvases) {
      #expect(Self.alpha(before) == Self.alpha(after))
      #expect(before != after)
    }
  }

  /// What an animated output takes to encode is taken from the memory limit before
  /// anything is written, together with the frames' reading, in one reservation: a limit
  /// that holds the encoding alone is not enough.
  @Test func theMemoryLimitCoversAnimatedOutputsTogetherWithTheirReading() throws {
    let bytes = try Fixtures.bytes(Self.gif)
    var input = HexMask.Input()
    let side = 200
    let encoding = Self.losslessWebP.encodingBytes(side: side, moving: true)
    input.memoryBudget = HexMask.MemoryBudget(limit: encoding)
    var refusal: ImageError?
    do {
      _ = try HexMask.render(
        bytes, output: Self.output(Self.losslessWebP, size: side), input: input)
    } catch .decoding(let error) {
      refusal = error
    }
    let needed = try #require(refusal?.memory?.needed)
    #expect(needed > encoding)
    #expect(
      refusal?.reason == "needs \(byteAmount(needed)) to decode and encode, more than the "
        + "memory limit of \(byteAmount(encoding))")
    input.memoryBudget = HexMask.MemoryBudget(limit: needed)
    let fits = try HexMask.render(
      bytes, output: Self.output(Self.losslessWebP, size: side), input: input)
    #expect(fits.animation?.frames == 3)
    #expect(input.memoryBudget?.bytesInUse == 0)
  }

  /// A WebP frame lasts at most 16777215 ms; an APNG's longer frame is written as that,
  /// with a warning, and its other frames keep their delays.
  @Test func longerFramesThanAWebPHoldsAreShortened() throws {
    let canvas = [UInt8](repeating: 255, count: 8 * 8 * 4)
    var other = canvas
    other[0] = 0
    let apng = try withTemporaryFolder { url in
      let path = url.path + "/long.png"
      try withFile(path, mode: "w+b") { file in
        let writer = try APNGWriter(file: file, width: 8, height: 8, frameCount: 2, loopCount: 0)
        try canvas.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: 40) }
        try other.withUnsafeBufferPointer {
          try writer.addFrame($0, delayMilliseconds: 30_000_000)
        }
        try writer.finish()
      }
      return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    let webp = try HexMask.render(apng, output: Self.output(Self.losslessWebP, size: 8))
    #expect(webp.warnings.map(\.kind) == [.shorterFrame])
    #expect(try Self.frames(of: webp.bytes).delays == [40, AnimatedWebPWriter.maximumMilliseconds])
    let png = try HexMask.render(apng, output: Self.output(Self.apng, size: 8))
    #expect(png.warnings.isEmpty && png.animation?.durationMilliseconds == 30_000_040)
  }

  /// Two long frames and more plays than a WebP holds: one warning of each kind, however
  /// many frames were shortened.
  @Test func eachWayAWebPCannotHoldTheAnimationIsSaidOnce() throws {
    let canvas = [UInt8](repeating: 255, count: 8 * 8 * 4)
    var other = canvas
    other[0] = 0
    let apng = try withTemporaryFolder { url in
      let path = url.path + "/long.png"
      try withFile(path, mode: "w+b") { file in
        let writer = try APNGWriter(
          file: file, width: 8, height: 8, frameCount: 3, loopCount: 70_000)
        for (frame, delay) in [(other, 30_000_000), (canvas, 40), (other, 20_000_000)] {
          try frame.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: delay) }
        }
        try writer.finish()
      }
      return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    let webp = try HexMask.render(apng, output: Self.output(Self.losslessWebP, size: 8))
    #expect(webp.warnings.map(\.kind) == [.shorterFrame, .fewerPlays])
    #expect(webp.animation?.loopCount == 65535)
  }

  /// A GIF asking for more plays than a WebP holds is written with the most, says so, and
  /// the report gives what the file holds; an APNG keeps them.
  @Test func playsAWebPCannotHoldAreSaid() throws {
    let bytes = try Fixtures.bytes("animation/edge-loop-65535.gif")
    let webp = try HexMask.render(bytes, output: Self.output(Self.losslessWebP))
    #expect(webp.animation?.loopCount == 65535 && webp.warnings.map(\.kind) == [.fewerPlays])
    #expect(try Self.frames(of: webp.bytes).loopCount == 65535)
    let png = try HexMask.render(bytes, output: Self.output(Self.apng))
    #expect(png.animation?.loopCount == 65536 && png.warnings.isEmpty)
  }

  /// A GIF damaged in its second frame: an animated output fails, a still of its first
  /// frame is made with or without `frame`, and strict mode refuses both.
  @Test func aDamagedSecondFrameFailsOnlyWhatNeedsIt() throws {
    let bytes = try Fixtures.bytes("animation/edge-bad-lzw.gif")
    let badCode = HexMask.Error.decoding(
      ImageError(.corrupt, "corrupt GIF: bad LZW code in frame 1"))
    #expect(throws: badCode) {
      try HexMask.render(bytes, output: Self.output(Self.apng))
    }
    let jpeg = try HexMask.render(bytes, output: Self.output(.jpeg(.init())))
    var input = HexMask.Input()
    input.frame = 0
    let first = try HexMask.render(bytes, output: Self.output(.jpeg(.init())), input: input)
    #expect(jpeg.bytes == first.bytes)
    input.strict = true
    #expect(throws: badCode) {
      try HexMask.render(bytes, output: Self.output(.jpeg(.init())), input: input)
    }
  }

  /// Several sizes from one decode of each frame: every one animated, the same frames.
  @Test func everySizeIsAnimated() throws {
    let rendered = try HexMask.render(
      try Fixtures.bytes(Self.gif), sizes: [16, 40],
      output: {
        var output = HexMask.Output()
        output.kind = Self.apng
        return output
      }())
    #expect(rendered.map(\.side) == [16, 40])
    for output in rendered {
      #expect(output.animation?.frames == 3)
      #expect(try Self.frames(of: output.bytes).canvases.count == 3)
    }
  }

  /// A GIF says how many frames it has only at its end, and a pipe cannot seek back to the
  /// APNG's header: the APNG is still whole, with the right count.
  @Test func apngOfAGIFThroughAPipe() throws {
    let bytes = try Fixtures.bytes(Self.gif)
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    // 3 frames of 32² fit the pipe's buffer: no reader needs to run alongside.
    let report = try withTemporaryFolder { url in
      let path = url.path + "/in.gif"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let source = open(path, O_RDONLY)
      defer { close(source) }
      defer { close(ends[1]) }
      return try HexMask.render(from: source, to: ends[1], output: Self.output(Self.apng))
    }
    var collected: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while case let count = read(ends[0], &chunk, chunk.count), count > 0 {
      collected += chunk[..<count]
    }
    #expect(report.animation?.frames == 3)
    #expect(try Self.frames(of: collected).canvases.count == 3)
  }
}

extension Array where Element == UInt8 {
  fileprivate func contains(subsequence: [UInt8]) -> Bool {
    guard subsequence.count <= count else { return false }
    return (0...(count - subsequence.count)).contains {
      self[$0..<($0 + subsequence.count)].elementsEqual(subsequence)
    }
  }
}
