extension ImageFormat {
  /// The picture's width and height as the header in a file's first bytes `head` states
  /// them, unchecked (for naming a file, not decoding it): a PNG's `IHDR`, a JPEG's
  /// start-of-frame segment, a WebP's first chunk, a GIF's logical screen. Nil for HEIF and
  /// AVIF (whose size is deep in their boxes), JPEG XL (whose size is packed in bits) and when `head` is too short to hold it.
  package func statedSize(in head: [UInt8]) -> (width: Int, height: Int)? {
    switch self {
    case .png:
      guard head.count >= 24, head[12..<16].elementsEqual("IHDR".utf8) else { return nil }
      return (bigEndian(head, 16, 4), bigEndian(head, 20, 4))
    case .jpeg:
      // SOF0…SOF15, which are not DHT (C4), JPG (C8) or DAC (CC).
      let frames: Set<UInt8> = Set(0xC0...0xCF).subtracting([0xC4, 0xC8, 0xCC])
      let file = FileBytes(head)
      guard let frame = file.jpegSegments().first(where: { frames.contains($0.type[0]) }),
        frame.length >= 5
      else { return nil }
      let body = file.body(of: frame)
      return (bigEndian(body, 3, 2), bigEndian(body, 1, 2))
    case .webp:
      guard head.count >= 30 else { return nil }
      switch String(decoding: head[12..<16], as: UTF8.self) {
      case "VP8X": return (littleEndian(head, 24, 3) + 1, littleEndian(head, 27, 3) + 1)
      case "VP8L":
        let bits = littleEndian(head, 21, 4)
        return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
      case "VP8 ": return (littleEndian(head, 26, 2) & 0x3FFF, littleEndian(head, 28, 2) & 0x3FFF)
      default: return nil
      }
    case .gif:
      guard head.count >= 10 else { return nil }
      return (littleEndian(head, 6, 2), littleEndian(head, 8, 2))
    case .heif, .avif, .jxl: return nil
    }
  }
}

/// The unsigned number in `count` (at most 4) bytes of `bytes` from `at`, first byte highest.
private func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
  bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
}

/// The unsigned number in `count` (at most 4) bytes of `bytes` from `at`, first byte lowest.
private func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
  bytes[at..<at + count].reversed().reduce(0) { $0 << 8 | Int($1) }
}
