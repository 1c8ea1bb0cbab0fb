#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The frames of an animated PNG, composited onto its canvas as Chromium shows them.
///
/// The chunks libpng skips are read here: `acTL` (frame count, plays), each frame's `fcTL`
/// (sequence number, rectangle, delay, dispose and blend operations) and its `fdAT` data.
/// Each frame is decoded by the still ``PNGDecoder`` from a PNG rebuilt in memory, then
/// composited: blend SOURCE replaces the frame's rectangle, OVER lays it on with straight
/// alpha; after the frame is shown, dispose NONE keeps the canvas, BACKGROUND clears the
/// rectangle to transparent, PREVIOUS puts back what the rectangle held before.
///
/// The default image (the IDAT) is frame 0 when an `fcTL` comes before it; otherwise it is
/// what viewers without APNG show, and browsers skip it, as this does. A PNG without `acTL`
/// is not an animation: `init` refuses it (`.unsupported`), so callers decode it as a still.
///
/// Refused before the canvas is allocated: a canvas over `maxPixels`, more than `maxFrames`
/// declared frames. Refused while reading, as a thrown `ImageError` naming the frame:
/// sequence numbers out of order, a frame outside the canvas, more or fewer frames than
/// declared, a damaged or truncated chunk, any error libpng finds in a frame's pixels.
///
/// ```swift
/// let frames = try APNGFrames(file: fp, signatureBytes: 0, maxPixels: 1 << 24, maxFrames: 1000)
/// while let frame = try frames.nextFrame() { encoder.add(frame) }
/// ```
///
/// - Complexity: memory O(canvas): the canvas, one copy for PREVIOUS, and one frame's
///   compressed data (at most about twice its pixels' size, checked while reading).
package final class APNGFrames: FrameSource {
  package let canvasWidth: Int
  package let canvasHeight: Int
  /// acTL's `num_plays` as it is: 0 forever, N plays N times in all.
  package let loopCount: Int
  package var declaredFrameCount: Int? { control.frameCount }
  package private(set) var metadata = ImageMetadata()
  package private(set) var warnings: [Warning] = []

  private let reader: PNGChunkReader
  private let header: PNGImageHeader
  private let control: APNGAnimationControl
  /// PLTE and tRNS, which every frame's PNG needs.
  private let paletteChunks: [(type: String, data: [UInt8])]
  /// The fcTL before the IDAT when the default image is frame 0.
  private var defaultImageControl: APNGFrameControl?
  /// A chunk whose header was read but not its data: the first IDAT, or the fcTL that
  /// ended the previous frame's data.
  private var lookahead: PNGChunkHeader?
  private var nextSequence = 0
  private var framesRead = 0
  private var ended = false
  private let canvas: FrameCanvas
  /// The last frame shown, whose dispose operation runs before the next is drawn.
  private var shown: APNGFrameControl?
  /// The budget's share of the canvas, its copy and one frame's decoding.
  private let reservation: MemoryReservation?

  /// Reads the header chunks from `file`, whose first `signatureBytes` (0 or 8) bytes the
  /// caller already consumed and checked, up to the first IDAT.
  package init(
    file: CFile, signatureBytes: Int, replay: [UInt8] = [], maxPixels: Int, maxFrames: Int,
    maxTotalPixels: Int = .max, readsAtMost: Int = .max, memory: MemoryBudget?
  ) throws(ImageError) {
    reader = PNGChunkReader(file: file, replay: replay)
    if signatureBytes < 8 {
      var signature = [UInt8](repeating: 0, count: 8 - signatureBytes)
      let got = signature.withUnsafeMutableBufferPointer {
        fread($0.baseAddress, 1, $0.count, file)
      }
      guard got == signature.count, signature[...] == PNGChunkWriter.signature[signatureBytes...]
      else { throw ImageError(.unreadable, "not a PNG file") }
    }
    guard let first = try reader.header(), first.type == "IHDR" else {
      throw ImageError(.corrupt, "PNG does not start with IHDR")
    }
    header = try PNGImageHeader(reader.data(of: first))
    (canvasWidth, canvasHeight) = (header.width, header.height)
    // The canvas's bytes must fit an Int whatever limit the caller gives.
    if canvasWidth > min(maxPixels, Int.max / 4) / canvasHeight {
      throw .tooManyPixels(width: canvasWidth, height: canvasHeight, maxPixels: maxPixels)
    }
    var animation: APNGAnimationControl?
    var palette: [(type: String, data: [UInt8])] = []
    var profiles: [(type: String, data: [UInt8])] = []
    while true {
      guard let chunk = try reader.header() else {
        throw ImageError(.corrupt, "the file ends before the image data")
      }
      if chunk.type == "IDAT" {
        lookahead = chunk
        break
      }
      switch chunk.type {
      case "acTL":
        guard animation == nil else { throw ImageError(.corrupt, "APNG has two acTL chunks") }
        animation = try APNGAnimationControl(reader.data(of: chunk))
      case "fcTL":
        guard defaultImageControl == nil else {
          throw ImageError(.corrupt, "APNG has two fcTL chunks before the image data")
        }
        let frame = try APNGFrameControl(
          reader.data(of: chunk), canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        // Chromium ignores the animation when this frame is not the whole default image.
        guard frame.x == 0, frame.y == 0, frame.width == canvasWidth, frame.height == canvasHeight
        else {
          throw ImageError(
            .corrupt,
            "APNG frame 0 is \(frame.width)×\(frame.height) at \(frame.x),\(frame.y), "
              + "not the whole \(canvasWidth)×\(canvasHeight) default image")
        }
        defaultImageControl = frame
      case "PLTE", "tRNS": palette.append((chunk.type, try reader.data(of: chunk)))
      case "iCCP", "eXIf": profiles.append((chunk.type, try reader.data(of: chunk)))
      case "fdAT", "IEND": throw ImageError(.corrupt, "\(chunk.type) before the image data")
      default: try reader.skip(chunk)
      }
    }
    guard let animation else {
      throw ImageError(.unsupported, "not an animated PNG (no acTL chunk)")
    }
    // The frames the render reads: those declared, or fewer (``FrameChoice/readsAtMost``).
    try checkFrameLimits(
      counted: min(animation.frameCount, readsAtMost), width: canvasWidth,
      height: canvasHeight, maxFrames: maxFrames, maxTotalPixels: maxTotalPixels)
    control = animation
    loopCount = animation.plays
    paletteChunks = palette
    if let frame = defaultImageControl {
      guard frame.sequence == 0 else {
        throw ImageError(.corrupt, "APNG sequence number \(frame.sequence) where 0 was expected")
      }
      nextSequence = 1
    }
    metadata = try Self.readMetadata(header, ancillaries: profiles + palette)
    // The canvas, its copy for PREVIOUS, and the most one frame holds while it is decoded:
    // its compressed data and, interlaced, libpng's whole RGBA frame and row pointers.
    let frameData = Self.compressedLimit(header, width: canvasWidth, height: canvasHeight)
    let interlaced =
      header.interlace == 1
      ? min(Int.max / 2, wholeBytes(canvasWidth, canvasHeight, 4)) + canvasHeight
        * MemoryLayout<UnsafeRawPointer>.size
      : 0
    let (working, workingOverflow) = frameData.addingReportingOverflow(max(0, interlaced))
    reservation = try reserveFrameReading(
      width: canvasWidth, height: canvasHeight, canvases: 2,
      working: workingOverflow ? Int.max : working,
      memory: memory)
    canvas = FrameCanvas(width: canvasWidth, height: canvasHeight)
  }

  package func nextFrame() throws(ImageError) -> ComposedFrame? {
    guard !ended else { return nil }
    do throws(ImageError) {
      return try composeNext()
    } catch {
      ended = true
      var named = error
      named.reason = "frame \(framesRead): \(error.reason)"
      throw named
    }
  }

  private func composeNext() throws(ImageError) -> ComposedFrame? {
    if let shown { canvas.dispose(shown.dispose.onCanvas, shown.rectangle(on: canvas)) }
    var frame: APNGFrameControl?
    var png = InMemoryPNG()
    var dataChunks = 0
    var limit = 0
    // The default image is frame 0: its data is the IDAT, never fdAT.
    let fromDefaultImage = framesRead == 0 && defaultImageControl != nil
    if fromDefaultImage, let first = defaultImageControl {
      frame = first
      limit = compressedLimit(first)
    }
    // Reads chunks until the frame's data ends: at the next fcTL or at IEND.
    while true {
      var next = lookahead
      if next == nil { next = try reader.header() }
      guard let chunk = next else {
        throw ImageError(.corrupt, "the file ends before IEND")
      }
      lookahead = nil
      switch chunk.type {
      case "IDAT":
        guard framesRead == 0, fromDefaultImage || frame == nil else {
          throw ImageError(.corrupt, "IDAT after the default image")
        }
        if let frame {
          if dataChunks == 0 { startPNG(&png, frame) }
          try png.appendData(of: chunk, from: reader, limit: limit - png.bytes.count)
          dataChunks += 1
        } else {
          // The default image is not part of the animation: browsers never show it.
          try reader.skip(chunk)
        }
      case "fdAT":
        guard let frame, !fromDefaultImage else {
          throw ImageError(.corrupt, "fdAT without an fcTL before it")
        }
        if dataChunks == 0 { startPNG(&png, frame) }
        let sequence = try png.appendData(of: chunk, from: reader, limit: limit - png.bytes.count)
        try checkSequence(sequence ?? -1)
        dataChunks += 1
      case "fcTL":
        if frame != nil {
          guard dataChunks > 0 else { throw ImageError(.corrupt, "fcTL without frame data") }
          lookahead = chunk
          return try finish(png, frame)
        }
        guard framesRead < control.frameCount else {
          throw ImageError(
            .corrupt, "APNG has more frames than the \(control.frameCount) its acTL declares")
        }
        let parsed = try APNGFrameControl(
          reader.data(of: chunk), canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        try checkSequence(parsed.sequence)
        frame = parsed
        limit = compressedLimit(parsed)
      case "IEND":
        ended = true
        if frame != nil {
          guard dataChunks > 0 else { throw ImageError(.corrupt, "fcTL without frame data") }
          guard framesRead + 1 == control.frameCount else {
            throw ImageError(
              .corrupt,
              "APNG holds \(framesRead + 1) frame\(framesRead == 0 ? "" : "s"), not the "
                + "\(control.frameCount) its acTL declares"
            )
          }
          return try finish(png, frame)
        }
        guard framesRead == control.frameCount else {
          throw ImageError(
            .corrupt,
            "APNG holds \(framesRead) frame\(framesRead == 1 ? "" : "s"), not the "
              + "\(control.frameCount) its acTL declares")
        }
        return nil
      case "acTL": throw ImageError(.corrupt, "acTL after the image data")
      default: try reader.skip(chunk)
      }
    }
  }

  /// Every fcTL and fdAT carries the next number of one sequence starting at 0.
  private func checkSequence(_ sequence: Int) throws(ImageError) {
    guard sequence == nextSequence else {
      throw ImageError(
        .corrupt, "APNG sequence number \(sequence) where \(nextSequence) was expected")
    }
    nextSequence += 1
  }

  /// The most compressed data a frame may carry, chunk headers included: deflate never
  /// grows data by more than a few bytes per 16 KB block, and encoders write chunks of
  /// kilobytes, so a quarter more than the inflated size plus 64 KiB is generous; it
  /// bounds what a lying file makes us hold, and is what the budget is charged.
  private func compressedLimit(_ frame: APNGFrameControl) -> Int {
    Self.compressedLimit(header, width: frame.width, height: frame.height)
  }

  private static func compressedLimit(_ header: PNGImageHeader, width: Int, height: Int) -> Int {
    let inflated = header.inflatedBytes(width: width, height: height)
    return inflated > Int.max / 4 ? Int.max / 2 : inflated + inflated / 4 + (1 << 16)
  }

  private func startPNG(_ png: inout InMemoryPNG, _ frame: APNGFrameControl) {
    png.append("IHDR", header.data(width: frame.width, height: frame.height, interlaced: true))
    for chunk in paletteChunks { png.append(chunk.type, chunk.data) }
  }

  /// Decodes the frame's rebuilt PNG and composites it onto the canvas.
  private func finish(_ png: InMemoryPNG, _ control: APNGFrameControl?) throws(ImageError)
    -> ComposedFrame?
  {
    guard let control else { return nil }
    var png = png
    png.append("IEND", [])
    if control.dispose == .previous { canvas.save(control.rectangle(on: canvas)) }
    canvas.draw(control.rectangle(on: canvas))
    try withMemoryFile(png.bytes) { (file) throws(ImageError) in
      let decoder = try PNGDecoder(
        file: file, signatureBytes: 0, maxPixels: control.width * control.height)
      let row = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: control.width * 4)
      defer { row.deallocate() }
      for y in 0..<control.height {
        try decoder.readRow(into: row)
        let start = ((control.y + y) * canvasWidth + control.x) * 4
        let target = UnsafeMutableBufferPointer(rebasing: canvas.pixels[start..<start + row.count])
        composite(UnsafeBufferPointer(row), onto: target, blend: control.blend)
      }
      warnings += decoder.warnings.map {
        Warning($0.kind, "frame \(framesRead): \($0.description)")
      }
    }
    shown = control
    framesRead += 1
    let shown = canvas.handOut()
    return ComposedFrame(
      canvas: shown.pixels, delayMilliseconds: control.playedMilliseconds,
      index: framesRead - 1, changed: shown.changed)
  }

  private static func readMetadata(
    _ header: PNGImageHeader, ancillaries: [(type: String, data: [UInt8])]
  ) throws(ImageError) -> ImageMetadata {
    // iCCP must come before PLTE; the probe keeps the order it is given.
    let probe = try metadataProbe(header, ancillaries: ancillaries)
    var metadata = ImageMetadata()
    try withMemoryFile(probe) { (file) throws(ImageError) in
      metadata = try PNGDecoder(file: file, signatureBytes: 0, maxPixels: 1).metadata
    }
    return metadata
  }
}

/// Straight-alpha "over" (or a plain copy for SOURCE) of one frame row onto the canvas.
///
/// A fully transparent source pixel leaves the canvas exactly as it was and an opaque one
/// replaces it exactly, so APNGWriter's OVER frames round-trip byte for byte.
func composite(
  _ row: UnsafeBufferPointer<UInt8>, onto canvas: UnsafeMutableBufferPointer<UInt8>,
  blend: APNGFrameControl.Blend
) {
  guard blend == .over else {
    _ = canvas.update(fromContentsOf: row)
    return
  }
  for pixel in stride(from: 0, to: row.count, by: 4) {
    let sourceAlpha = Int(row[pixel + 3])
    let canvasAlpha = Int(canvas[pixel + 3])
    if sourceAlpha == 0 { continue }
    if sourceAlpha == 255 || canvasAlpha == 0 {
      for channel in 0..<4 { canvas[pixel + channel] = row[pixel + channel] }
      continue
    }
    // Weights in 255² units: the source's alpha, and what shows of the canvas under it.
    let below = canvasAlpha * (255 - sourceAlpha)
    let total = sourceAlpha * 255 + below
    for channel in 0..<3 {
      let mixed =
        Int(row[pixel + channel]) * sourceAlpha * 255 + Int(canvas[pixel + channel]) * below
      canvas[pixel + channel] = UInt8((mixed + total / 2) / total)
    }
    canvas[pixel + 3] = UInt8((total + 127) / 255)
  }
}

/// Runs `body` with a C stream reading `bytes`.
func withMemoryFile(_ bytes: [UInt8], _ body: (CFile) throws(ImageError) -> Void)
  throws(ImageError)
{
  var failure: ImageError?
  bytes.withUnsafeBytes { buffer in
    guard let base = buffer.baseAddress,
      let file = fmemopen(UnsafeMutableRawPointer(mutating: base), buffer.count, "rb")
    else {
      failure = ImageError(.unreadable, "cannot read from memory: \(systemError())")
      return
    }
    defer { fclose(file) }
    do throws(ImageError) { try body(file) } catch { failure = error }
  }
  if let failure { throw failure }
}
