import Foundation
import TestSupport

/// Ways of damaging a file the way disks, networks and attackers do.
enum Mutation: CaseIterable {
  /// Up to eight random bytes replaced.
  case flipBytes
  /// Cut short at a random length.
  case truncate
  /// A length field rewritten (0, ±1, huge, random): a PNG chunk's, a JPEG segment's, a GIF
  /// sub-block's or a WebP (RIFF) chunk's.
  case editLength

  /// `data` damaged this way; the same generator state gives the same result.
  func apply(to data: [UInt8], using random: inout SplitMix64) -> [UInt8] {
    var bytes = data
    switch self {
    case .flipBytes:
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        let index = Int.random(in: 0..<bytes.count, using: &random)
        bytes[index] = UInt8.random(in: 0...255, using: &random)
      }
    case .truncate:
      bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
    case .editLength:
      let fields = lengthFields(in: bytes)
      guard let field = fields.randomElement(using: &random) else { return bytes }
      let stored = bytes[field.offset..<(field.offset + field.width)]
      let original =
        field.littleEndian
        ? stored.reversed().reduce(0) { $0 << 8 | Int($1) } : stored.reduce(0) { $0 << 8 | Int($1) }
      let choices = [
        0, original + 1, max(0, original - 1), (1 << (8 * field.width)) - 1,
        Int.random(in: 0..<(1 << (8 * field.width)), using: &random),
      ]
      let value = choices.randomElement(using: &random) ?? 0
      for k in 0..<field.width {
        let shift = field.littleEndian ? 8 * k : 8 * (field.width - 1 - k)
        bytes[field.offset + k] = UInt8(truncatingIfNeeded: value >> shift)
      }
    }
    return bytes
  }
}

/// Offsets, widths (bytes) and byte order of the length fields of PNG chunks, JPEG marker
/// segments, GIF sub-blocks or WebP's RIFF chunks (those inside an animation frame too).
func lengthFields(in bytes: [UInt8]) -> [(offset: Int, width: Int, littleEndian: Bool)] {
  if bytes.starts(with: Array("GIF".utf8)) {
    return gifLengthFields(in: bytes).map { ($0, 1, false) }
  }
  if bytes.starts(with: Array("RIFF".utf8)) {
    return riffLengthFields(in: bytes, from: 12).map { ($0, 4, true) } + [(4, 4, true)]
  }
  var fields: [(offset: Int, width: Int, littleEndian: Bool)] = []
  if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
    var offset = 8
    while offset + 8 <= bytes.count {
      fields.append((offset, 4, false))
      let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
      offset += 12 + length
    }
  } else if bytes.starts(with: [0xFF, 0xD8]) {
    var offset = 2
    while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
      let marker = bytes[offset + 1]
      if marker == 0xDA {
        fields.append((offset + 2, 2, false))
        break
      }  // entropy-coded data follows
      fields.append((offset + 2, 2, false))
      offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
    }
  }
  return fields
}

/// The offsets of a GIF's sub-block length bytes: of its extensions and its frames' LZW data.
private func gifLengthFields(in bytes: [UInt8]) -> [Int] {
  guard bytes.count >= 13 else { return [] }
  var fields: [Int] = []
  // The global colour table follows the screen descriptor when its flag is set.
  var offset = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
  // Sub-blocks from `offset` to their zero-length end.
  func subBlocks() {
    while offset < bytes.count {
      fields.append(offset)
      let length = Int(bytes[offset])
      offset += 1 + length
      if length == 0 { return }
    }
  }
  while offset < bytes.count {
    switch bytes[offset] {
    case 0x21:  // extension: introducer, label, sub-blocks
      offset += 2
      subBlocks()
    case 0x2C:  // frame: descriptor, local colour table, LZW code size, sub-blocks
      guard offset + 10 <= bytes.count else { return fields }
      let packed = bytes[offset + 9]
      offset += 10 + (packed & 0x80 != 0 ? 3 << (Int(packed & 7) + 1) : 0) + 1
      subBlocks()
    default:  // the trailer, or bytes this walk does not understand
      return fields
    }
  }
  return fields
}

/// The offsets of the size fields of RIFF chunks from `start`, and of the chunks inside each
/// ANMF (animation frame) chunk, whose payload starts with 16 bytes of frame header.
private func riffLengthFields(in bytes: [UInt8], from start: Int) -> [Int] {
  var fields: [Int] = []
  var offset = start
  while offset + 8 <= bytes.count {
    fields.append(offset + 4)
    let length = bytes[(offset + 4)..<(offset + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
    if bytes[offset..<(offset + 4)].elementsEqual("ANMF".utf8) {
      fields += riffLengthFields(
        in: Array(bytes.prefix(min(bytes.count, offset + 8 + length))), from: offset + 24)
    }
    offset += 8 + length + (length & 1)
  }
  return fields
}
