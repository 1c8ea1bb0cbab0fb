#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens a decoder for `file` (JPEG, PNG, HEIC or AVIF, WebP), chosen by the file's first
/// bytes, not its name: `ImageFormat(sniffing:)` decides, as it does for folder discovery.
///
/// Works on pipes: the sniffed bytes are handed to the decoder, never re-read. The
/// decoder reads from `file` but does not close it. Images with more than `maxPixels`
/// pixels are refused from their header, before pixel memory is allocated.
///
/// `targetSide` allows shrink-on-load: a JPEG whose short side is at least 4 ×
/// `targetSide` is decoded at 1/2, 1/4 or 1/8 of its size (see `shrinkFactor`), and
/// the decoder's `width` and `height` are then that smaller size. `maxPixels` still
/// counts the stored size. PNG files are always decoded at full size.
///
/// ```swift
/// guard let fp = fopen("in.jpg", "rb") else { … }
/// defer { fclose(fp) }
/// let decoder = try openDecoder(file: fp, maxPixels: 268_402_689)
/// let forAvatar = try openDecoder(file: fp2, maxPixels: 268_402_689, targetSide: 256)
/// ```
package func openDecoder(file: CFile, maxPixels: Int, targetSide: Int? = nil) throws(ImageError)
  -> any ImageDecoder
{
  try openDecoder(
    file: file, maxPixels: maxPixels,
    need: targetSide.map { PictureNeed(largestSide: $0, smallestSide: $0) })
}

/// `openDecoder(file:maxPixels:targetSide:)` for what the outputs `need`: the largest
/// output side allows shrink-on-load (`need.wholeTargetSide` is the target side: the
/// largest side, more for a framed face's smaller square), and a WebP
/// is cropped and scaled to `need.square` while decoding (the decoder's `chosenSquare`
/// then says where the square is). Every decode that holds more than a few rows (HEIF,
/// AVIF, WebP, Adam7 PNG, progressive JPEG, and a PNG or JPEG an EXIF turn will copy
/// whole when `autoOrient`) takes its memory from `memory` first, waiting while it is in
/// use by others, and is refused when it needs more than the whole limit.
///
/// An animation (GIF, APNG, animated WebP) opens as the frame `frames` chooses, as a still
/// picture (``AnimationPicture``); a still picture is frame 0, and any other frame asked of
/// it is an error.
package func openDecoder(
  file: CFile, maxPixels: Int, need: PictureNeed?, memory: MemoryBudget? = nil,
  autoOrient: Bool = false, frames: FrameChoice = FrameChoice()
) throws(ImageError) -> any ImageDecoder {
  let decoder = try openAny(
    file: file, maxPixels: maxPixels, need: need, memory: memory, autoOrient: autoOrient,
    frames: frames)
  if let frame = frames.frame, frame > 0, !(decoder is AnimationPicture) {
    throw noFrame(frame)
  }
  return decoder
}

private func openAny(
  file: CFile, maxPixels: Int, need: PictureNeed?, memory: MemoryBudget?, autoOrient: Bool,
  frames: FrameChoice
) throws(ImageError) -> any ImageDecoder {
  let targetSide = need?.wholeTargetSide
  var head = [UInt8](repeating: 0, count: pngSignature.count)
  let count = fread(&head, 1, head.count, file)
  if count < head.count && ferror(file) != 0 {
    throw ImageError(.unreadable, "read error: \(userMessage(String(cString: strerror(errno))))")
  }
  if count == 0 { throw ImageError(.unreadable, "empty file") }
  let prefix = Array(head[..<count])

  // The same decision as folder discovery's (`ImageFormat(sniffing:)`).
  switch ImageFormat(sniffing: prefix) {
  case .png:
    // An animation control chunk comes before the image data, if at all.
    let (replay, animated) = pngChunksBeforeImageData(file)
    if animated {
      return try AnimationPicture(
        APNGFrames(
          file: file, signatureBytes: count, replay: replay, maxPixels: maxPixels,
          maxFrames: frames.maxFrames, maxTotalPixels: frames.maxTotalPixels,
          readsAtMost: frames.readsAtMost, memory: memory),
        choice: frames, formatName: "animated PNG")
    }
    return try PNGDecoder(
      file: file, signatureBytes: count, replay: replay, maxPixels: maxPixels, memory: memory,
      autoOrient: autoOrient)
  case .gif:
    return try AnimationPicture(
      GIFFrames(
        file: file, prefix: prefix, maxPixels: maxPixels, maxFrames: frames.maxFrames,
        maxTotalPixels: frames.maxTotalPixels, readsAtMost: frames.readsAtMost, memory: memory),
      choice: frames, formatName: "GIF")
  case .jxl:
    // A still is the one-frame case of an animation: one reader for both.
    let jxl = try JXLFrames(
      file: file, prefix: prefix, maxPixels: maxPixels, maxFrames: frames.maxFrames,
      maxTotalPixels: frames.maxTotalPixels, readsAtMost: frames.readsAtMost, memory: memory)
    if let frame = frames.frame, frame > 0, !jxl.isAnimation { throw noFrame(frame) }
    return try AnimationPicture(
      jxl, choice: frames, formatName: jxl.isAnimation ? "animated JPEG XL" : "JPEG XL")
  case .jpeg:
    return try JPEGDecoder(
      file: file, prefix: prefix, maxPixels: maxPixels, targetSide: targetSide, memory: memory,
      autoOrient: autoOrient)
  default:
    break
  }
  // The containers' signatures need more than eight bytes; their decoders take whole files.
  var longer = prefix
  if count == pngSignature.count {
    var more = [UInt8](repeating: 0, count: ImageFormat.sniffLength - count)
    let extra = fread(&more, 1, more.count, file)
    longer += more[..<extra]
  }
  let format = ImageFormat(sniffing: longer)
  switch format {
  case .heif?, .avif?:
    return try openHEIF(
      bytes: try readWhole(file, after: longer, maxPixels: maxPixels), maxPixels: maxPixels,
      targetSide: targetSide, isAVIF: format == .avif, memory: memory)
  case .webp? where isAnimatedWebP(longer):
    return try AnimationPicture(
      WebPFrames(
        file: file, prefix: longer, maxPixels: maxPixels, maxFrames: frames.maxFrames,
        maxTotalPixels: frames.maxTotalPixels, readsAtMost: frames.readsAtMost, memory: memory),
      choice: frames, formatName: "animated WebP")
  case .webp?:
    return try openWebP(
      bytes: try readWhole(file, after: longer, maxPixels: maxPixels), maxPixels: maxPixels,
      need: need, memory: memory)
  default:
    break
  }
  // None; say more when the file looks like a damaged one, or is one hexmask can name.
  if pngSignature.starts(with: prefix) {
    throw ImageError(.corrupt, "truncated PNG: unexpected end of file")
  }
  if prefix.starts(with: pngSignature.prefix(4)) {
    // libpng's "corrupted by ASCII conversion": line ends or bytes changed in transit.
    throw ImageError(.corrupt, "damaged PNG signature (was the file transferred as text?)")
  }
  if prefix == [0xFF, 0xD8] {
    throw ImageError(.corrupt, "truncated JPEG: unexpected end of file")
  }
  if prefix.starts(with: [0xFF, 0xD8]) {
    throw ImageError(.corrupt, "corrupt JPEG: no marker after the start of image")
  }
  if ImageFormat.heifBrands(longer)?.first == ImageFormat.compactHEIFBrand {
    // HEIF's 2024 amendment: a `mini` box instead of `meta`, which libheif reads from 1.20
    // on. Naming it says the file is fine and the library is old, not that it is no image.
    throw ImageError(
      .unsupported,
      "a compact AVIF or HEIF (brand 'mif3', a 'mini' header), which this build's libheif "
        + "cannot read; AVIF and HEIC with a full header (brands avif, heic, mif1) are read")
  }
  if let name = ImageFormat.otherFormatName(longer) {
    throw ImageError(.unsupported, "a \(name) file: \(readableFormats)")
  }
  throw ImageError(.unsupported, "not an image file: \(readableFormats)")
}

/// The error for frame `frame` (> 0) of a still picture.
private func noFrame(_ frame: Int) -> ImageError {
  ImageError(.unsupported, "no frame \(frame): the picture is a still (frame 0)")
}

/// What hexmask reads, for messages about files it does not.
package let readableFormats = "hexmask reads PNG, JPEG, GIF, HEIC, AVIF, WebP and JPEG XL"

/// The chunks after a PNG's signature up to its image data, read to find an animation
/// control chunk (`acTL`, which must come before `IDAT`), and whether one came. The bytes
/// read are handed on to the decoder, so a pipe works. Anything odd (a short file, a
/// damaged chunk header, a chunk past the look's limit) ends the look: the still decoder
/// then reads on and says what is wrong, as it always has.
private func pngChunksBeforeImageData(_ file: CFile) -> (bytes: [UInt8], animated: Bool) {
  // Profiles and text before the image data rarely reach a megabyte; past 16 MB a PNG
  // is read as a still.
  let limit = 1 << 24
  let reader = PNGChunkReader(file: file, keepingBytes: true)
  do {
    while let chunk = try reader.header() {
      switch chunk.type {
      case "acTL": return (reader.kept, true)
      case "IDAT", "IEND": return (reader.kept, false)
      default: break
      }
      guard chunk.length + 4 <= limit - reader.kept.count else { break }  // data and CRC
      try reader.skip(chunk)
    }
  } catch {
    // The look ends; the decoder reports the damage.
  }
  return (reader.kept, false)
}

/// True when `head`, the first bytes of a WebP, says its file is an animation: a `VP8X`
/// chunk first, with its animation flag.
private func isAnimatedWebP(_ head: [UInt8]) -> Bool {
  head.count >= 21 && Array(head[12..<16]) == Array("VP8X".utf8) && head[20] & 0x02 != 0
}

/// The rest of `file` after `head`, whole: the HEIF and WebP libraries decode whole files,
/// and a pipe is kept whole when a smart crop must read the picture twice.
/// A compressed picture is smaller than its pixels, so a file larger than `maxPixels` × 4
/// bytes (plus room for metadata) is refused before it is all read.
func readWhole(_ file: CFile, after head: [UInt8], maxPixels: Int) throws(ImageError)
  -> [UInt8]
{
  let limit =
    maxPixels.multipliedReportingOverflow(by: 4).overflow
    ? Int.max : maxPixels * 4 + (64 << 20)
  var bytes = head
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = fread(&chunk, 1, chunk.count, file)
    if count == 0 {
      if ferror(file) != 0 {
        throw ImageError(
          .unreadable, "read error: \(userMessage(String(cString: strerror(errno))))")
      }
      return bytes
    }
    bytes += chunk[..<count]
    if bytes.count > limit {
      throw ImageError(.tooLarge, "the file is larger than any picture within the pixel limit")
    }
  }
}

private let pngSignature = ImageFormat.pngSignature
