/// A file's bytes by position, read only where a walk looks: the mark of an animated WebP
/// sits after its frames, so a walk that read whole files would cost their size.
///
/// The walks over containers (``jpegSegments()``, ``riffChunks(from:)``, ``isoBoxes()``;
/// PNG chunks are ``PNGChunkReader``'s) are the library's only ones: each reads a header at
/// a time, ends at a length that runs past the file, and reads at most ``partsWalked``
/// headers, so hostile bytes cost little and never trap.
///
/// ```swift
/// let file = FileBytes(bytes)
/// let comments = file.jpegSegments().filter { $0.type == [0xFE] }
/// ```
package struct FileBytes {
  /// Its size in bytes, as it was when the file was opened.
  package let size: Int
  private let reader: (_ offset: Int, _ count: Int) -> [UInt8]

  /// A file of `size` bytes that `read` reads: up to `count` bytes from `offset` (it is
  /// asked only within `size`), fewer at the end of the file or on an error.
  package init(size: Int, read: @escaping (_ offset: Int, _ count: Int) -> [UInt8]) {
    self.size = max(0, size)
    reader = read
  }

  /// The file these bytes are.
  package init(_ bytes: [UInt8]) {
    self.init(size: bytes.count) { offset, count in
      Array(bytes[offset..<offset + min(count, bytes.count - offset)])
    }
  }

  /// Up to `count` bytes from `offset`: fewer at the end of the file or on a read error,
  /// none outside it.
  package func bytes(at offset: Int, count: Int) -> [UInt8] {
    guard offset >= 0, offset < size, count > 0 else { return [] }
    return Array(reader(offset, min(count, size - offset)).prefix(count))
  }

  /// The body of `part`, one of this file's.
  package func body(of part: FilePart) -> [UInt8] { bytes(at: part.offset, count: part.length) }

  /// The file's first `count` bytes, as a file of their own.
  package func prefix(_ count: Int) -> FileBytes {
    FileBytes(size: min(size, count), read: reader)
  }

  /// The most parts one walk reads the headers of: libwebpmux writes hexmask's mark after
  /// an animation's frames, one chunk each, so it is found after many more than
  /// ``HexMask/Input/defaultMaxFrames``; a damaged or hostile file costs at most this many
  /// reads of a few bytes (a few milliseconds).
  package static let partsWalked = 1 << 16
}

/// One part of a container: a PNG chunk, a JPEG segment, a RIFF chunk or an ISO BMFF box,
/// which lies wholly within its file.
package struct FilePart: Equatable, Sendable {
  /// Its type: four letters ("tEXt", "HXMK", "free"), or a JPEG segment's marker byte.
  package var type: [UInt8]
  /// Where its body starts in the file.
  package var offset: Int
  /// How many bytes its body holds.
  package var length: Int
}

extension FileBytes {
  /// The segments of a JPEG before its scan, in order, from its start-of-image marker on
  /// (ITU-T T.81 B.1.1.4: a marker, then a 16-bit length that counts itself). Fill bytes
  /// (`FF`) before a marker are skipped; anything but a marker where one belongs, a length
  /// under 2 or one past the end ends the walk.
  package func jpegSegments() -> some Sequence<FilePart> {
    AnySequence { () -> AnyIterator<FilePart> in
      // Each walk its own: a sequence walked twice starts over.
      var offset = 2
      var steps = 0
      return AnyIterator { () -> FilePart? in
        while steps < Self.partsWalked {
          steps += 1
          let header = bytes(at: offset, count: 4)
          guard header.count == 4, header[0] == 0xFF else { return nil }
          if header[1] == 0xFF {  // a fill byte
            offset += 1
            continue
          }
          if header[1] == 0xDA || header[1] == 0xD9 { return nil }  // start of scan, end
          let length = Int(header[2]) << 8 | Int(header[3])
          guard length >= 2, length - 2 <= size - (offset + 4) else { return nil }
          let part = FilePart(type: [header[1]], offset: offset + 4, length: length - 2)
          offset += 2 + length
          return part
        }
        return nil
      }
    }
  }

  /// The top-level chunks of a RIFF file from `start` (12 in a WebP, after `RIFF`, the
  /// size and `WEBP`), in order: a type, a little-endian 32-bit length, the body and a pad
  /// byte when the length is odd. A length past the end ends the walk.
  package func riffChunks(from start: Int) -> some Sequence<FilePart> {
    AnySequence { () -> AnyIterator<FilePart> in
      // Each walk its own: a sequence walked twice starts over.
      var offset = start
      var steps = 0
      return AnyIterator { () -> FilePart? in
        guard steps < Self.partsWalked else { return nil }
        steps += 1
        let header = bytes(at: offset, count: 8)
        guard header.count == 8 else { return nil }
        let length = header[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard length <= size - (offset + 8) else { return nil }
        let part = FilePart(type: Array(header[0..<4]), offset: offset + 8, length: length)
        offset += 8 + length + length & 1
        return part
      }
    }
  }

  /// The top-level boxes of an ISO BMFF file (AVIF, HEIF), in order (ISO/IEC 14496-12
  /// 4.2): a big-endian 32-bit size that counts the header, the type, and when the size is
  /// 1 a 64-bit size after it; size 0 runs to the end of the file. A size too small for
  /// its header, or past the end, ends the walk.
  package func isoBoxes() -> some Sequence<FilePart> {
    AnySequence { () -> AnyIterator<FilePart> in
      // Each walk its own: a sequence walked twice starts over.
      var offset = 0
      var steps = 0
      return AnyIterator { () -> FilePart? in
        guard steps < Self.partsWalked else { return nil }
        steps += 1
        let header = bytes(at: offset, count: 16)
        guard header.count >= 8 else { return nil }
        let declared = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        var (headerSize, boxSize) = (8, declared == 0 ? size - offset : declared)
        if declared == 1 {
          guard header.count == 16 else { return nil }
          // Eight bytes fill an Int; a size past Int.max turns negative and is refused.
          (headerSize, boxSize) = (16, header[8..<16].reduce(0) { $0 << 8 | Int($1) })
        }
        guard boxSize >= headerSize, boxSize <= size - offset else { return nil }
        let part = FilePart(
          type: Array(header[4..<8]), offset: offset + headerSize, length: boxSize - headerSize)
        offset += boxSize
        return part
      }
    }
  }
}
