#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many frames a GIF holds, counted by walking its blocks without decoding any: each
/// image descriptor is a frame, and every block's data is skipped by its length. A GIF's
/// header does not say, so this is how its frame limits are checked from what the file
/// says before any frame is drawn, as an APNG's and a WebP's are from theirs (a 4.6 KB GIF
/// of 200 one-pixel frames on an 8000² screen otherwise took 26 s to reach its limit).
///
/// The walk stops once `stopAfter` says the frames so far (on a screen of so many pixels)
/// are too many: a limit is refused from that count, whatever follows.
///
/// `file` is where its first `prefixCount` bytes have been read; it is left there. Nil when
/// it cannot seek (a pipe: ``keepGIFStart(_:prefix:stopAfter:)`` keeps its bytes and
/// counts them). A file that ends early or holds junk gives the frames counted before it: the
/// decoder will say what is wrong.
///
/// ```swift
/// let frames = countGIFFrames(file, prefixCount: 8)   // 200
/// ```
func countGIFFrames(
  _ file: CFile, prefixCount: Int,
  stopAfter: (_ frames: Int, _ screenPixels: Int) -> Bool = { _, _ in false }
) -> Int? {
  let here = ftello(file)
  guard here >= off_t(prefixCount), fseeko(file, here - off_t(prefixCount), SEEK_SET) == 0
  else { return nil }
  defer { fseeko(file, here, SEEK_SET) }
  var input = SeekableGIF(file: file)
  return walkGIFFrames(&input, stop: stopAfter)
}

/// The first bytes of a GIF read from a stream that cannot seek (a pipe), kept in memory
/// while its frames are counted on the way (as ``countGIFFrames(_:prefixCount:stopAfter:)``
/// counts a file's): `bytes` holds `prefix` (what the caller read first) and every byte
/// the walk read; the stream goes on after them.
///
/// `frames` is nil when the walk passed ``keptGIFBytes`` before the GIF's trailer, its end
/// or the frame where `stopAfter` stops it: such a GIF's limits are checked as its frames
/// are read. Never more than that many bytes are kept, however long the stream.
///
/// - Throws: when reading the stream fails.
func keepGIFStart(
  _ file: CFile, prefix: [UInt8], stopAfter: (_ frames: Int, _ screenPixels: Int) -> Bool
) throws(ImageError) -> (bytes: [UInt8], frames: Int?) {
  var input = KeptGIF(file: file, kept: prefix)
  let frames = walkGIFFrames(&input, stop: stopAfter)
  if ferror(file) != 0 {
    throw ImageError(.unreadable, "cannot read: \(systemError())")
  }
  return (input.kept, input.overflowed ? nil : frames)
}

/// How much of a piped GIF is kept to count its frames first: GIFs larger than this (rare
/// for avatars) are counted as they are drawn.
let keptGIFBytes = 16 << 20

/// What the walk reads through: a file it seeks in, or a stream whose bytes it keeps.
private protocol GIFWalkInput {
  /// The next byte, or nil at the end.
  mutating func byte() -> UInt8?
  /// The next `count` bytes, or nil when the input ends first.
  mutating func bytes(_ count: Int) -> [UInt8]?
  /// Moves past `count` bytes; false when the input ends first.
  mutating func skip(_ count: Int) -> Bool
}

/// Walks the blocks from the header on, counting image descriptors, until the trailer, the
/// end, junk, or `stop` says the frames so far are too many.
private func walkGIFFrames(
  _ input: inout some GIFWalkInput, stop: (_ frames: Int, _ canvasPixels: Int) -> Bool
) -> Int {
  guard let header = input.bytes(13), header.starts(with: Array("GIF".utf8)) else { return 0 }
  func little(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
  let (screenWidth, screenHeight) = (little(header, 6), little(header, 8))
  // The canvas: the screen, grown to hold the first frame (as GIFFrames does).
  var screenPixels = screenWidth * screenHeight
  if header[10] & 0x80 != 0, !input.skip(3 << (Int(header[10] & 7) + 1)) { return 0 }
  var frames = 0
  /// Skips data blocks up to their terminator; false when the input ends first.
  func skipBlocks() -> Bool {
    while let length = input.byte() {
      if length == 0 { return true }
      guard input.skip(Int(length)) else { return false }
    }
    return false
  }
  while !stop(frames, screenPixels) {
    switch input.byte() {
    case 0x21:  // an extension: its label, then its blocks
      guard input.byte() != nil, skipBlocks() else { return frames }
    case 0x2C:  // an image: its descriptor, its colour table, the LZW code size, its blocks
      frames += 1
      guard let descriptor = input.bytes(9) else { return frames }
      if frames == 1 {
        screenPixels =
          max(screenWidth, little(descriptor, 0) + little(descriptor, 4))
          * max(screenHeight, little(descriptor, 2) + little(descriptor, 6))
      }
      if descriptor[8] & 0x80 != 0, !input.skip(3 << (Int(descriptor[8] & 7) + 1)) {
        return frames
      }
      guard input.byte() != nil, skipBlocks() else { return frames }
    default:  // the trailer, the end of the file, or junk
      return frames
    }
  }
  return frames
}

private struct SeekableGIF: GIFWalkInput {
  let file: CFile

  mutating func byte() -> UInt8? {
    let value = getc(file)
    return value == EOF ? nil : UInt8(truncatingIfNeeded: value)
  }

  mutating func bytes(_ count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    return fread(&bytes, 1, count, file) == count ? bytes : nil
  }

  mutating func skip(_ count: Int) -> Bool {
    fseeko(file, off_t(count), SEEK_CUR) == 0
  }
}

/// Reads what was kept, then the stream, keeping every byte it reads, up to
/// ``keptGIFBytes`` (then it ends, and says it overflowed).
private struct KeptGIF: GIFWalkInput {
  let file: CFile
  var kept: [UInt8]
  var position = 0
  var overflowed = false

  mutating func byte() -> UInt8? { bytes(1)?.first }

  mutating func bytes(_ count: Int) -> [UInt8]? {
    let wanted = position + count - kept.count
    if wanted > 0 {
      guard kept.count + wanted <= keptGIFBytes else {
        overflowed = true
        return nil
      }
      var more = [UInt8](repeating: 0, count: wanted)
      let read = fread(&more, 1, wanted, file)
      kept += more[..<read]
      guard read == wanted else { return nil }
    }
    defer { position += count }
    return Array(kept[position..<(position + count)])
  }

  mutating func skip(_ count: Int) -> Bool {
    bytes(count) != nil
  }
}
