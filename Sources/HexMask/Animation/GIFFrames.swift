import CGIF

/// A GIF, still or animated, as a browser shows it: each frame composited onto the canvas
/// in turn, read from the file one frame at a time through giflib (never `DGifSlurp`,
/// which holds every frame).
///
/// Every choice is the one Chromium makes, as a browser shows the GIF (GIFFramesTests checks
/// every frame of the fixtures against Chromium's, Fixtures/animation/gif-frames.tsv):
/// - the canvas is the logical screen, grown to hold the first frame when that frame
///   reaches past it; later frames are clipped to it;
/// - it starts transparent, and "restore to background" clears to transparent: the
///   background colour index is ignored;
/// - a frame's delay of 10 ms or less (0 or 1 centisecond) is played as 100 ms;
/// - palette indices past the colour table, and every index of a frame with no table at
///   all, are opaque black; disposal 4 is "restore to previous", 5 to 7 are "none";
/// - a Graphics Control Extension of other than 4 bytes makes the file unreadable;
/// - a file that ends, or turns into bytes that start no block, between whole frames shows
///   the frames before (with a warning);
/// - an ICC profile in the file is ignored (see `readHeader`);
/// - `loopCount` is how many times the animation plays in all, 0 forever: 1 without a
///   NETSCAPE2.0 extension, N + 1 for a loop count of N (Chromium's
///   `repetitionCount` is N: it repeats N times after the first play), 0 for 0.
///
/// Memory is the canvas and, for files with "restore to previous" frames, one copy of it,
/// taken together from `memory` up front; giflib's per-frame records are freed as each
/// frame is read. A truncated file, a bad LZW code or a broken block is a thrown
/// `ImageError` naming the frame, even after earlier frames decoded, so that a damaged
/// upload is refused whole rather than cut short.
///
/// ```swift
/// let frames = try GIFFrames(
///   file: fp, maxPixels: 1 << 28, maxFrames: 1000, maxTotalPixels: 1 << 32)
/// while let frame = try frames.nextFrame() { encoder.add(frame) }
/// ```
package final class GIFFrames: FrameSource {
  package let canvasWidth: Int
  package let canvasHeight: Int
  package private(set) var loopCount = 1
  package var declaredFrameCount: Int? { nil }
  /// Empty: GIF has no EXIF, and its ICC profile is ignored as browsers ignore it.
  package let metadata = ImageMetadata()
  package private(set) var warnings: [Warning] = []

  private let input: GIFInput
  private let gif: UnsafeMutablePointer<GifFileType>
  private let limits: Limits
  private let canvas: FrameCanvas
  private let reservation: MemoryReservation?
  private let globalPalette: GIFPalette
  /// The Graphics Control Extension read since the last frame.
  private var control = GIFControl()
  /// The first frame's header, read by `init` to size the canvas.
  private var pending: GIFFrameHeader?
  /// What to undo before the next frame: the last frame's disposal, on its clipped rectangle.
  private var disposal: (kind: GIFDisposal, rectangle: CanvasRectangle)?
  private var index = 0
  private var totalPixels = 0
  private var finished = false
  private var failure: ImageError?

  /// What the reader refuses, checked before the memory they would cost is allocated.
  private struct Limits {
    var maxPixels: Int
    var maxFrames: Int
    var maxTotalPixels: Int
  }

  /// Reads the header and the first frame's descriptor from `file`, whose first bytes
  /// `prefix` the caller already took (to sniff the format). Refuses a canvas or frame of
  /// more than `maxPixels`, more than `maxFrames` frames, and more than `maxTotalPixels`
  /// canvas pixels summed over the frames: from the frames the file holds, walked first
  /// (``countGIFFrames(_:prefixCount:stopAfter:)``; a pipe's first 16 MiB are kept for
  /// that, ``keepGIFStart(_:prefix:stopAfter:)``), and again as each frame is read. The canvas and
  /// its copy are taken from `memory` first.
  package init(
    file: CFile, prefix: [UInt8] = [], maxPixels: Int, maxFrames: Int, maxTotalPixels: Int,
    readsAtMost: Int = .max, memory: MemoryBudget?
  ) throws(ImageError) {
    // Counted first, so the limits hold from what the file says: where it can seek, by
    // walking it; a pipe's first bytes are kept on the way (a pipe too long for that is
    // counted as its frames are read). The count stops at the first frame over a limit.
    let tooMany = { (frames: Int, screenPixels: Int) -> Bool in
      let (pixels, overflow) = screenPixels.multipliedReportingOverflow(by: frames)
      return frames > maxFrames || overflow || pixels > maxTotalPixels
    }
    // A render that reads a few frames counts no further than those (`readsAtMost`).
    let stop = { (frames: Int, canvasPixels: Int) -> Bool in
      frames >= readsAtMost || tooMany(frames, canvasPixels)
    }
    var prefix = prefix
    let counts = maxFrames < Int.max || maxTotalPixels < Int.max
    var declared = counts ? countGIFFrames(file, prefixCount: prefix.count, stopAfter: stop) : nil
    if declared == nil, counts {
      (prefix, declared) = try keepGIFStart(file, prefix: prefix, stopAfter: stop)
    }
    let input = GIFInput(file: file, prefix: prefix)
    var code: Int32 = 0
    guard let gif = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), readGIFInput, &code)
    else { throw ImageError.gif(code: code, place: "in the header", input: input) }
    // From here on every throw closes the file, then frees what was allocated.
    var closer = GIFCloser(gif: gif)
    self.input = input
    self.gif = gif
    limits = Limits(maxPixels: maxPixels, maxFrames: maxFrames, maxTotalPixels: maxTotalPixels)
    globalPalette = GIFPalette(gif.pointee.SColorMap)
    let screenWidth = Int(gif.pointee.SWidth)
    let screenHeight = Int(gif.pointee.SHeight)
    if screenWidth * screenHeight > maxPixels {
      throw .tooManyPixels(width: screenWidth, height: screenHeight, maxPixels: maxPixels)
    }
    var control = GIFControl()
    var loopCount = 1
    guard
      let first = try readHeader(
        gif, input: input, global: globalPalette, control: &control, loopCount: &loopCount,
        frame: 0)
    else {
      throw ImageError(.corrupt, "a GIF without frames")
    }
    // Chromium grows the canvas to hold the first frame (Wuffs' default, not
    // QUIRK_IMAGE_BOUNDS_ARE_STRICT); ImageMagick clips it instead.
    let width = max(screenWidth, first.left + first.width)
    let height = max(screenHeight, first.top + first.height)
    if width * height > maxPixels {
      throw .tooManyPixels(width: width, height: height, maxPixels: maxPixels)
    }
    if width == 0 || height == 0 {
      throw ImageError(.corrupt, "corrupt GIF: a canvas of \(width)×\(height) pixels")
    }
    if let declared {
      if declared > maxFrames { throw .tooManyFrames(limit: maxFrames) }
      let (pixels, overflow) = (width * height).multipliedReportingOverflow(by: declared)
      if overflow || pixels > maxTotalPixels {
        throw .tooManyPixelsInAll(
          frames: declared, width: width, height: height, limit: maxTotalPixels)
      }
    }
    // One reservation for the canvas, its copy for "restore to previous" (whether one
    // comes is known only when it does) and the first frame a render keeps while it reads
    // the second to learn whether the GIF moves (AnimationPicture): a second reservation,
    // waiting while this one is held, could wait for ever.
    reservation = try reserveFrameReading(
      width: width, height: height, canvases: 3, working: 0, memory: memory)
    canvasWidth = width
    canvasHeight = height
    canvas = FrameCanvas(width: width, height: height)
    self.control = control
    self.loopCount = loopCount
    pending = first
    closer.keep()
  }

  /// The frame records giflib holds (it keeps one per frame read, for `DGifSlurp`): 0
  /// once each is dropped as its frame is read, which tests check, since a process's
  /// resident size is shared with whatever else runs in it.
  package var heldFrameRecords: Int { Int(gif.pointee.ImageCount) }

  deinit {
    var code: Int32 = 0
    DGifCloseFile(gif, &code)
  }

  package func nextFrame() throws(ImageError) -> ComposedFrame? {
    if let failure { throw failure }
    if finished { return nil }
    do {
      guard let header = try nextHeader() else {
        finished = true
        return nil
      }
      try checkLimits(header)
      undoLastFrame()
      try draw(header)
      let shown = canvas.handOut()
      let frame = ComposedFrame(
        canvas: shown.pixels, delayMilliseconds: header.control.delayMilliseconds,
        index: index, changed: shown.changed)
      index += 1
      return frame
    } catch {
      failure = error
      throw error
    }
  }

  /// The next frame's header: the one `init` read, then the file's.
  private func nextHeader() throws(ImageError) -> GIFFrameHeader? {
    if let first = pending {
      pending = nil
      return first
    }
    do {
      return try readHeader(
        gif, input: input, global: globalPalette, control: &control, loopCount: &loopCount,
        frame: index)
    } catch {
      // A file that ends cleanly between blocks after whole frames lacks only its trailer
      // (or further frames nobody can know of): browsers show what came, and so does hexmask.
      if index > 0 && input.endedBetweenBlocks {
        warnings.append(Warning(.damagedInput, "the GIF ends without its trailer byte"))
        return nil
      }
      // Chromium shows the frames before bytes that start no block, and stops there.
      if index > 0 && input.endedInJunk {
        warnings.append(
          Warning(
            .damagedInput, "the GIF ends in bytes that are no GIF block after frame \(index - 1)"))
        return nil
      }
      throw error
    }
  }

  private func checkLimits(_ header: GIFFrameHeader) throws(ImageError) {
    if index >= limits.maxFrames {
      throw .tooManyFrames(limit: limits.maxFrames)
    }
    if header.width * header.height > limits.maxPixels {
      throw .tooManyPixels(
        width: header.width, height: header.height, maxPixels: limits.maxPixels)
    }
    totalPixels += canvasWidth * canvasHeight
    if totalPixels > limits.maxTotalPixels {
      throw .tooManyPixelsInAll(
        frames: index + 1, width: canvasWidth, height: canvasHeight, limit: limits.maxTotalPixels)
    }
  }

  /// Applies the last frame's disposal before the next frame is drawn.
  private func undoLastFrame() {
    guard let (kind, rectangle) = disposal else { return }
    canvas.dispose(kind.onCanvas, rectangle)
  }

  /// Decodes the frame's rows and draws them onto the canvas.
  private func draw(_ header: GIFFrameHeader) throws(ImageError) {
    let visible = CanvasRectangle(
      left: header.left, top: header.top, width: header.width, height: header.height,
      canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    if header.control.disposal == .previous { canvas.save(visible) }
    canvas.draw(visible)
    disposal = (header.control.disposal, visible)
    let place = "in frame \(index)"
    if header.width == 0 || header.height == 0 {
      try skipPixels(place: place)
      return
    }
    // Each pixel is one 4-byte store of its palette entry, through raw pointers: this loop
    // runs for every pixel of every frame.
    let row = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: header.width)
    defer { row.deallocate() }
    let colours = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 256)
    defer { colours.deallocate() }
    header.palette.rgba.withUnsafeBytes { bytes in
      for index in 0..<256 {
        colours[index] = bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
      }
    }
    let pixels = UnsafeMutableRawBufferPointer(canvas.pixels)
    let transparent = header.control.transparentIndex ?? -1
    for stored in 0..<header.height {
      if DGifGetLine(gif, row.baseAddress, Int32(row.count)) == GIF_ERROR {
        throw ImageError.gif(code: gif.pointee.Error, place: place, input: input)
      }
      let y =
        header.top + (header.interlaced ? interlacedRow(stored, height: header.height) : stored)
      guard y < canvasHeight, visible.width > 0 else { continue }
      let start = (y * canvasWidth + header.left) * 4
      for x in 0..<visible.width {
        let colour = Int(row[x])
        if colour != transparent {
          pixels.storeBytes(of: colours[colour], toByteOffset: start + x * 4, as: UInt32.self)
        }
      }
    }
  }

  /// Reads past the LZW data of a frame without pixels.
  private func skipPixels(place: String) throws(ImageError) {
    var codeSize: Int32 = 0
    var block: UnsafeMutablePointer<GifByteType>?
    var status = DGifGetCode(gif, &codeSize, &block)
    while status != GIF_ERROR && block != nil { status = DGifGetCodeNext(gif, &block) }
    if status == GIF_ERROR {
      throw ImageError.gif(code: gif.pointee.Error, place: place, input: input)
    }
  }
}

/// Closes a GIF that `init` opened, unless it is kept: a throwing initialiser of a class
/// does not run `deinit`.
private struct GIFCloser: ~Copyable {
  let gif: UnsafeMutablePointer<GifFileType>
  private var kept = false

  init(gif: UnsafeMutablePointer<GifFileType>) { self.gif = gif }

  mutating func keep() { kept = true }

  deinit {
    guard !kept else { return }
    var code: Int32 = 0
    DGifCloseFile(gif, &code)
  }
}
