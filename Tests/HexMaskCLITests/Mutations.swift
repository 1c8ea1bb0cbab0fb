import Foundation
import TestSupport

/// Ways of damaging a file the way disks, networks and attackers do.
enum Mutation: CaseIterable {
  /// Up to eight random bytes replaced.
  case flipBytes
  /// Cut short at a random length.
  case truncate
  /// A PNG chunk's or JPEG segment's length field rewritten (0, ±1, huge, random).
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
      let original = bytes[field.offset..<(field.offset + field.width)].reduce(0) {
        $0 << 8 | Int($1)
      }
      let choices = [
        0, original + 1, max(0, original - 1), (1 << (8 * field.width)) - 1,
        Int.random(in: 0..<(1 << (8 * field.width)), using: &random),
      ]
      let value = choices.randomElement(using: &random) ?? 0
      for k in 0..<field.width {
        bytes[field.offset + k] = UInt8(truncatingIfNeeded: value >> (8 * (field.width - 1 - k)))
      }
    }
    return bytes
  }
}

/// Offsets and widths (bytes) of the length fields of PNG chunks or JPEG marker segments.
func lengthFields(in bytes: [UInt8]) -> [(offset: Int, width: Int)] {
  var fields: [(offset: Int, width: Int)] = []
  if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
    var offset = 8
    while offset + 8 <= bytes.count {
      fields.append((offset, 4))
      let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
      offset += 12 + length
    }
  } else if bytes.starts(with: [0xFF, 0xD8]) {
    var offset = 2
    while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
      let marker = bytes[offset + 1]
      if marker == 0xDA {
        fields.append((offset + 2, 2))
        break
      }  // entropy-coded data follows
      fields.append((offset + 2, 2))
      offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
    }
  }
  return fields
}
