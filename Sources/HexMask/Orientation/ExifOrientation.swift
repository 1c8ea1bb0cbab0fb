/// How the stored pixels relate to the upright picture: the EXIF/TIFF Orientation tag
/// (0x0112), values 1–8.
///
/// Each case says where the stored image's first row and first column belong in the
/// upright picture, and what a viewer does to show it upright.
///
/// ```swift
/// let orientation = Orientation.fromExif(exifBlock)  // .right for a phone held upright
/// let size = orientation.uprightSize(width: 4032, height: 3024)  // (3024, 4032)
/// ```
package enum Orientation: Int, Sendable, CaseIterable {
  /// 1: stored row 0 is the top, column 0 the left; the pixels are already upright.
  case up = 1
  /// 2: row 0 is the top, column 0 the right; mirror each row to show it.
  case upMirrored
  /// 3: row 0 is the bottom, column 0 the right; rotate 180° to show it.
  case down
  /// 4: row 0 is the bottom, column 0 the left; flip top to bottom to show it.
  case downMirrored
  /// 5: row 0 is the left edge, column 0 the top; transpose (mirror across the main
  /// diagonal) to show it.
  case leftMirrored
  /// 6: row 0 is the right edge, column 0 the top; rotate 90° clockwise to show it.
  /// What most phones write for a photo taken holding the phone upright.
  case right
  /// 7: row 0 is the right edge, column 0 the bottom; mirror across the other
  /// diagonal to show it.
  case rightMirrored
  /// 8: row 0 is the left edge, column 0 the bottom; rotate 90° counter-clockwise to
  /// show it.
  case left

  /// True for 5–8, whose upright picture is as wide as the stored image is tall.
  ///
  /// ```swift
  /// Orientation.right.swapsAxes  // true
  /// ```
  package var swapsAxes: Bool { rawValue >= 5 }

  /// The size of the upright picture for a stored image of `width` × `height`.
  ///
  /// ```swift
  /// Orientation.left.uprightSize(width: 3, height: 2)  // (width: 2, height: 3)
  /// ```
  package func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
    swapsAxes ? (height, width) : (width, height)
  }

  /// The stored pixel shown at column `x`, row `y` of the upright picture, for a
  /// stored image of `width` × `height` (the stored size, not the upright one).
  ///
  /// ```swift
  /// // Orientation 6: the upright top-left pixel is the stored bottom-left one.
  /// Orientation.right.storedPixel(x: 0, y: 0, width: 3, height: 2)  // (x: 0, y: 1)
  /// ```
  package func storedPixel(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
    switch self {
    case .up: (x, y)
    case .upMirrored: (width - 1 - x, y)
    case .down: (width - 1 - x, height - 1 - y)
    case .downMirrored: (x, height - 1 - y)
    case .leftMirrored: (y, x)
    case .right: (y, height - 1 - x)
    case .rightMirrored: (width - 1 - y, height - 1 - x)
    case .left: (width - 1 - y, x)
    }
  }
}

extension Orientation {
  /// The upright rows and columns that show the stored `rows` × `columns` of a stored
  /// image of `width` × `height`: where a change to those stored pixels shows.
  ///
  /// ```swift
  /// // Orientation 6: stored columns become upright rows.
  /// Orientation.right.upright(rows: 0..<1, columns: 2..<3, width: 3, height: 2)
  /// // (rows: 2..<3, columns: 1..<2)
  /// ```
  package func upright(rows: Range<Int>, columns: Range<Int>, width: Int, height: Int)
    -> (rows: Range<Int>, columns: Range<Int>)
  {
    func flipped(_ range: Range<Int>, in length: Int) -> Range<Int> {
      (length - range.upperBound)..<(length - range.lowerBound)
    }
    return switch self {
    case .up: (rows, columns)
    case .upMirrored: (rows, flipped(columns, in: width))
    case .down: (flipped(rows, in: height), flipped(columns, in: width))
    case .downMirrored: (flipped(rows, in: height), columns)
    case .leftMirrored: (columns, rows)
    case .right: (columns, flipped(rows, in: height))
    case .rightMirrored: (flipped(columns, in: width), flipped(rows, in: height))
    case .left: (flipped(columns, in: width), rows)
    }
  }
}

extension Orientation {
  /// The orientation an EXIF block declares, or `.up` when it declares none.
  ///
  /// `tiff` is the TIFF structure of EXIF: the bytes after `"Exif\0\0"` in a JPEG APP1
  /// segment, or the contents of a PNG `eXIf` chunk (some writers keep the
  /// `"Exif\0\0"` there too; it is skipped). Only IFD0 is read, and its next-IFD link
  /// is never followed, so no offset can make the parser loop. A missing tag, a
  /// malformed or truncated block, an offset out of bounds, a tag that is not one
  /// SHORT, or a value outside 1–8 (including the common 0) all give `.up`, as
  /// vipsthumbnail and browsers do.
  ///
  /// ```swift
  /// let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8,  // big-endian, IFD0 at 8
  ///   0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]     // one entry: Orientation = 6
  /// Orientation.fromExif(tiff)  // .right
  /// ```
  ///
  /// - Complexity: O(number of IFD0 entries), at most 65 535.
  package static func fromExif(_ tiff: [UInt8]) -> Orientation {
    let body = tiff.starts(with: exifHeader) ? Array(tiff.dropFirst(exifHeader.count)) : tiff
    guard let reader = TIFFReader(body), reader.uint16(at: 2) == 42,
      let ifd = reader.uint32(at: 4), let entryCount = reader.uint16(at: ifd)
    else { return .up }
    for index in 0..<entryCount {
      let entry = ifd + 2 + index * 12
      guard let tag = reader.uint16(at: entry) else { return .up }
      guard tag == 0x0112 else { continue }
      // Type 3 is SHORT; a count of 1 keeps the value inline in the entry's last 4 bytes.
      guard reader.uint16(at: entry + 2) == 3, reader.uint32(at: entry + 4) == 1,
        let value = reader.uint16(at: entry + 8)
      else { return .up }
      return Orientation(rawValue: value) ?? .up
    }
    return .up
  }
}

/// The six bytes that introduce EXIF in a JPEG APP1 segment.
private let exifHeader: [UInt8] = Array("Exif\0\0".utf8)

/// Bounds-checked reads of TIFF integers in the block's own byte order.
private struct TIFFReader {
  let bytes: [UInt8]
  let bigEndian: Bool

  /// Nil unless `bytes` starts with a TIFF byte-order mark, `II` or `MM`.
  init?(_ bytes: [UInt8]) {
    switch bytes.prefix(2) {
    case [0x49, 0x49]: bigEndian = false
    case [0x4D, 0x4D]: bigEndian = true
    default: return nil
    }
    self.bytes = bytes
  }

  func uint16(at offset: Int) -> Int? { integer(at: offset, size: 2) }
  func uint32(at offset: Int) -> Int? { integer(at: offset, size: 4) }

  /// The unsigned `size`-byte integer at `offset`, or nil if any byte lies outside.
  private func integer(at offset: Int, size: Int) -> Int? {
    guard offset >= 0, offset <= bytes.count - size else { return nil }
    let field = bytes[offset..<offset + size]
    let ordered = bigEndian ? Array(field) : field.reversed()
    return ordered.reduce(0) { $0 << 8 | Int($1) }
  }
}
