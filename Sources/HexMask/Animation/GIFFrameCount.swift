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
/// it cannot seek (a pipe: ``spoolGIF(_:prefix:stopAfter:)`` keeps its bytes and counts
/// them). A file that ends early or holds junk gives the frames counted before it: the
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

/// A GIF read from a stream that cannot seek (a pipe), kept in a temporary file that can,
/// and its frames counted on the way (as ``countGIFFrames(_:prefixCount:)`` does).
///
/// `prefix` is what the caller read first; the spool holds it and the rest of the GIF, up
/// to its trailer or wherever it stops being one, or to where `stopAfter` stops the walk
/// (so an endless stream never fills the disk). Nil when no
/// temporary file can be made (the frames are then counted as they are read).
///
/// - Throws: when reading the stream or writing the spool fails.
func spoolGIF(
  _ file: CFile, prefix: [UInt8], stopAfter: (_ frames: Int, _ screenPixels: Int) -> Bool
) throws(ImageError) -> (spool: SpoolFile, frames: Int)? {
  guard let spool = SpoolFile() else { return nil }
  var input = SpoolingGIF(file: file, prefix: prefix, spool: spool.file)
  let frames = walkGIFFrames(&input, stop: stopAfter)
  if ferror(file) != 0 {
    throw ImageError(.unreadable, "cannot read: \(systemError())")
  }
  guard fflush(spool.file) == 0, ferror(spool.file) == 0, fseeko(spool.file, 0, SEEK_SET) == 0
  else {
    throw ImageError(.unreadable, "cannot keep the GIF in a temporary file: \(systemError())")
  }
  return (spool, frames)
}

/// A temporary file without a name (`tmpfile`), closed when it is let go.
final class SpoolFile {
  let file: CFile

  init?() {
    guard let file = tmpfile() else { return nil }
    self.file = file
  }

  deinit { fclose(file) }
}

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
  _ input: inout some GIFWalkInput, stop: (_ frames: Int, _ screenPixels: Int) -> Bool
) -> Int {
  guard let header = input.bytes(13), header.starts(with: Array("GIF".utf8)) else { return 0 }
  let screenPixels = (Int(header[6]) | Int(header[7]) << 8) * (Int(header[8]) | Int(header[9]) << 8)
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

/// Reads the caller's prefix, then the stream, writing every byte it reads to the spool.
private struct SpoolingGIF: GIFWalkInput {
  let file: CFile
  let prefix: [UInt8]
  let spool: CFile
  var prefixUsed = 0

  mutating func byte() -> UInt8? { bytes(1)?.first }

  mutating func bytes(_ count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    let fromPrefix = min(count, prefix.count - prefixUsed)
    bytes.replaceSubrange(0..<fromPrefix, with: prefix[prefixUsed..<(prefixUsed + fromPrefix)])
    prefixUsed += fromPrefix
    let read =
      fromPrefix
      + bytes.withUnsafeMutableBufferPointer { buffer in
        fread(buffer.baseAddress.map { $0 + fromPrefix }, 1, count - fromPrefix, file)
      }
    guard read > 0, fwrite(bytes, 1, read, spool) == read else { return nil }
    return read == count ? bytes : nil
  }

  mutating func skip(_ count: Int) -> Bool {
    bytes(count) != nil
  }
}
