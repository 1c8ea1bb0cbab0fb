import Foundation
import TestSupport

/// What an animated file the command wrote says about itself, read from its bytes here
/// rather than through the library that wrote them.
struct WrittenAnimation: Equatable {
  /// Frames the file holds: `acTL`'s count (and as many `fcTL`s), or its `ANMF` chunks.
  var frames: Int
  /// The frames' delays summed, in milliseconds.
  var milliseconds: Int
  /// Plays in all, 0 forever: `acTL`'s `num_plays`, or WebP's `ANIM` loop count.
  var plays: Int

  /// The animation in `bytes`: an APNG or an animated WebP; nil for anything else (a still
  /// PNG, a still WebP, a JPEG).
  init?(_ bytes: [UInt8]) {
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
      guard let apng = Self.apng(bytes) else { return nil }
      self = apng
    } else if bytes.count > 12, bytes.starts(with: Array("RIFF".utf8)),
      Array(bytes[8..<12]) == Array("WEBP".utf8)
    {
      guard let webp = Self.webp(bytes) else { return nil }
      self = webp
    } else {
      return nil
    }
  }

  init(frames: Int, milliseconds: Int, plays: Int) {
    self.frames = frames
    self.milliseconds = milliseconds
    self.plays = plays
  }

  /// The file at `url`'s animation, if it is one.
  init?(contentsOf url: URL) {
    guard let data = try? Data(contentsOf: url) else { return nil }
    self.init([UInt8](data))
  }

  private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
    bytes.reduce(0) { $0 << 8 | Int($1) }
  }

  private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> Int {
    bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
  }

  private static func apng(_ bytes: [UInt8]) -> WrittenAnimation? {
    var offset = 8
    var declared: (frames: Int, plays: Int)?
    var controls = 0
    var milliseconds = 0.0
    while offset + 12 <= bytes.count {
      let length = bigEndian(bytes[offset..<offset + 4])
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      let body = offset + 8
      guard length <= bytes.count - body - 4 else { return nil }
      switch type {
      case "acTL":
        declared = (bigEndian(bytes[body..<body + 4]), bigEndian(bytes[body + 4..<body + 8]))
      case "fcTL":
        controls += 1
        let numerator = Double(bigEndian(bytes[body + 20..<body + 22]))
        let denominator = Double(bigEndian(bytes[body + 22..<body + 24]))
        milliseconds += numerator * 1000 / (denominator == 0 ? 100 : denominator)
      default: break
      }
      offset = body + length + 4
    }
    guard let declared, declared.frames == controls else { return nil }
    return WrittenAnimation(
      frames: controls, milliseconds: Int(milliseconds.rounded()), plays: declared.plays)
  }

  private static func webp(_ bytes: [UInt8]) -> WrittenAnimation? {
    var offset = 12
    var frames = 0
    var milliseconds = 0
    var plays: Int?
    while offset + 8 <= bytes.count {
      let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let length = littleEndian(bytes[offset + 4..<offset + 8])
      let body = offset + 8
      guard length <= bytes.count - body else { return nil }
      switch type {
      case "ANIM": plays = littleEndian(bytes[body + 4..<body + 6])
      case "ANMF":
        frames += 1
        milliseconds += littleEndian(bytes[body + 12..<body + 15])
      default: break
      }
      offset = body + length + (length & 1)
    }
    guard let plays, frames > 0 else { return nil }
    return WrittenAnimation(frames: frames, milliseconds: milliseconds, plays: plays)
  }
}

/// A GIF of `frames` 1 × 1 frames on a `side` × `side` screen, 100 ms each (a delay of 0),
/// two colours, plays forever when `loops`: small to write and quick to read, for tests
/// that need many frames or a large claimed canvas.
func tinyGIF(frames: Int, side: Int = 1, loops: Bool = true) -> [UInt8] {
  let width = [UInt8(side & 0xFF), UInt8(side >> 8 & 0xFF)]
  var bytes = Array("GIF89a".utf8) + width + width + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
  if loops { bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0] }
  for index in 0..<frames {
    // Every frame a pixel of the other colour, so no two in a row are the same.
    let code: UInt8 = index % 2 == 0 ? 0x44 : 0x4C
    bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, code, 1, 0]
  }
  return bytes + [0x3B]
}
