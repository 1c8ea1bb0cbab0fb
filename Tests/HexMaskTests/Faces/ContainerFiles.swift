import Foundation

/// Small writers of the containers hexmask itself does not write, for tests that need the
/// same pixels in every container: an Adam7 PNG and a GIF, both stored uncompressed (the
/// deflate stream in stored blocks; GIF codes that never build a dictionary), which every
/// decoder must read exactly as the compressed ones.
enum ContainerFiles {
  /// An 8-bit RGBA PNG, Adam7-interlaced, of `rgba` (`width × height`).
  static func interlacedPNG(_ rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
    let passes = [
      (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4),
      (1, 0, 2, 2), (0, 1, 1, 2),
    ]
    var raw: [UInt8] = []
    for (x0, y0, dx, dy) in passes where x0 < width && y0 < height {
      for y in stride(from: y0, to: height, by: dy) {
        raw.append(0)  // filter: none
        for x in stride(from: x0, to: width, by: dx) {
          raw.append(contentsOf: rgba[((y * width + x) * 4)..<((y * width + x) * 4 + 4)])
        }
      }
    }
    var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    header += [8, 6, 0, 0, 1]  // 8-bit RGBA, Adam7
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
      + chunk("IDAT", storedZlib(raw)) + chunk("IEND", [])
  }

  /// A GIF of `indices` (`width × height`) into `palette` (256 RGB entries).
  static func gif(indices: [UInt8], palette: [UInt8], width: Int, height: Int) -> [UInt8] {
    var bytes = Array("GIF89a".utf8) + littleEndian(UInt16(width)) + littleEndian(UInt16(height))
    bytes += [0xF7, 0, 0] + palette  // global table of 256 colours
    bytes += [0x2C, 0, 0, 0, 0] + littleEndian(UInt16(width)) + littleEndian(UInt16(height)) + [0]
    // 9-bit codes, a clear code before each 250 pixels so the table never grows a bit.
    var codes: [Int] = []
    for (index, pixel) in indices.enumerated() {
      if index % 250 == 0 { codes.append(256) }
      codes.append(Int(pixel))
    }
    codes.append(257)
    let packed = nineBitCodes(codes)
    bytes.append(8)  // minimum code size
    var start = 0
    while start < packed.count {
      let end = min(start + 255, packed.count)
      bytes.append(UInt8(end - start))
      bytes += packed[start..<end]
      start = end
    }
    return bytes + [0, 0x3B]
  }

  /// GIF's LZW codes of 9 bits, packed least significant bit first.
  static func nineBitCodes(_ codes: [Int]) -> [UInt8] {
    var packed: [UInt8] = []
    var accumulator = 0
    var bits = 0
    for code in codes {
      accumulator |= code << bits
      bits += 9
      while bits >= 8 {
        packed.append(UInt8(accumulator & 0xFF))
        accumulator >>= 8
        bits -= 8
      }
    }
    if bits > 0 { packed.append(UInt8(accumulator & 0xFF)) }
    return packed
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
  }

  private static func storedZlib(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var start = 0
    repeat {
      let end = min(start + 65535, data.count)
      let length = UInt16(end - start)
      out.append(end == data.count ? 1 : 0)
      out += littleEndian(length) + littleEndian(~length)
      out += data[start..<end]
      start = end
    } while start < data.count
    return out + bigEndian(adler32(data))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
  }

  private static func littleEndian(_ value: UInt16) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
  }
}
