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
/// `file` is where its first `prefixCount` bytes have been read; it is left there. Nil when
/// it cannot seek (a pipe: the limits are then checked as each frame is read). A file that
/// ends early or holds junk gives the frames counted before it: the decoder will say what
/// is wrong.
///
/// ```swift
/// let frames = countGIFFrames(file, prefixCount: 8)   // 200
/// ```
func countGIFFrames(_ file: CFile, prefixCount: Int) -> Int? {
  let here = ftello(file)
  guard here >= off_t(prefixCount), fseeko(file, here - off_t(prefixCount), SEEK_SET) == 0
  else { return nil }
  defer { fseeko(file, here, SEEK_SET) }
  var header = [UInt8](repeating: 0, count: 13)
  guard fread(&header, 1, 13, file) == 13, header.starts(with: Array("GIF".utf8)) else {
    return nil
  }
  if header[10] & 0x80 != 0 { _ = skip(3 << (Int(header[10] & 7) + 1), in: file) }
  var frames = 0
  while true {
    switch getc(file) {
    case 0x21:  // an extension: its label, then its blocks
      guard getc(file) != EOF, skipBlocks(file) else { return frames }
    case 0x2C:  // an image: its descriptor, its colour table, the LZW code size, its blocks
      frames += 1
      var descriptor = [UInt8](repeating: 0, count: 9)
      guard fread(&descriptor, 1, 9, file) == 9 else { return frames }
      if descriptor[8] & 0x80 != 0, !skip(3 << (Int(descriptor[8] & 7) + 1), in: file) {
        return frames
      }
      guard getc(file) != EOF, skipBlocks(file) else { return frames }
    default:  // the trailer, the end of the file, or junk
      return frames
    }
  }
}

/// Skips data blocks up to their terminator; false when the file ends first.
private func skipBlocks(_ file: CFile) -> Bool {
  while true {
    let length = getc(file)
    if length == EOF { return false }
    if length == 0 { return true }
    guard skip(Int(length), in: file) else { return false }
  }
}

private func skip(_ bytes: Int, in file: CFile) -> Bool {
  fseeko(file, off_t(bytes), SEEK_CUR) == 0
}
