import TestSupport
import Testing

@testable import HexMask

// MARK: Hand-built TIFF blocks

/// One IFD entry: tag, type (3 = SHORT, 4 = LONG), count, and the 4-byte value field
/// (a SHORT sits in its first two bytes).
struct IFDEntry {
  var tag: Int
  var type = 3
  var count = 1
  var value: Int
}

/// A TIFF block as EXIF stores it: header, IFD0 at `ifdOffset` (right after the header
/// unless given), `entryCount` (the real count unless given), the entries, and a next-IFD
/// link.
func tiffBlock(
  bigEndian: Bool, entries: [IFDEntry], ifdOffset: Int = 8, entryCount: Int? = nil,
  nextIFD: Int = 0
) -> [UInt8] {
  func integer(_ value: Int, _ size: Int) -> [UInt8] {
    let big = (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    return bigEndian ? big : big.reversed()
  }
  var block: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
  block += integer(42, 2) + integer(ifdOffset, 4)
  block += integer(entryCount ?? entries.count, 2)
  for entry in entries {
    block += integer(entry.tag, 2) + integer(entry.type, 2) + integer(entry.count, 4)
    // A SHORT is left-justified in the 4-byte field whatever the byte order.
    block += entry.type == 3 ? integer(entry.value, 2) + [0, 0] : integer(entry.value, 4)
  }
  return block + integer(nextIFD, 4)
}

/// The entries of a typical camera IFD0, with Orientation in the middle.
func cameraEntries(orientation: Int) -> [IFDEntry] {
  [
    IFDEntry(tag: 0x010F, type: 2, count: 4, value: 0x4361_6E00),  // Make "Can"
    IFDEntry(tag: 0x0112, value: orientation),
    IFDEntry(tag: 0x011A, type: 5, count: 1, value: 200),  // XResolution, an offset
    IFDEntry(tag: 0x8769, type: 4, count: 1, value: 400),  // Exif IFD pointer
  ]
}

// MARK: Values

@Test(arguments: [false, true], 0...9)
func orientationValueIsReadInEitherByteOrder(bigEndian: Bool, value: Int) {
  let expected = Orientation(rawValue: value) ?? .up
  let alone = tiffBlock(bigEndian: bigEndian, entries: [IFDEntry(tag: 0x0112, value: value)])
  let amongOthers = tiffBlock(bigEndian: bigEndian, entries: cameraEntries(orientation: value))
  #expect(Orientation.fromExif(alone) == expected)
  #expect(Orientation.fromExif(amongOthers) == expected)
  #expect(Orientation.fromExif(Array("Exif\0\0".utf8) + amongOthers) == expected)
}

@Test func valuesZeroAndAboveEightAreUp() {
  for value in [0, 9, 0x0100, 0x0600, 0xFFFF] {
    #expect(
      Orientation.fromExif(tiffBlock(bigEndian: true, entries: cameraEntries(orientation: value)))
        == .up)
  }
}

@Test func docExampleParses() {
  let tiff: [UInt8] = [
    0x4D, 0x4D, 0, 42, 0, 0, 0, 8,
    0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0,
  ]
  #expect(Orientation.fromExif(tiff) == .right)
}

// MARK: Malformed blocks

@Test(
  arguments: [
    ("empty", []),
    ("byte order only", [0x49, 0x49]),
    ("mixed byte order", [0x49, 0x4D, 42, 0, 8, 0, 0, 0]),
    ("big-endian magic read little-endian", [0x49, 0x49, 0, 42, 8, 0, 0, 0]),
    ("magic 43", [0x4D, 0x4D, 0, 43, 0, 0, 0, 8, 0, 0]),
    ("Exif header only", Array("Exif\0\0".utf8)),
  ] as [(String, [UInt8])])
func malformedHeaderIsUp(label: String, block: [UInt8]) {
  #expect(Orientation.fromExif(block) == .up, "\(label)")
}

@Test(arguments: [false, true])
func wrongTypeOrCountIsUp(bigEndian: Bool) {
  let asLong = IFDEntry(tag: 0x0112, type: 4, count: 1, value: 6)
  let twoShorts = IFDEntry(tag: 0x0112, count: 2, value: 6)
  let noShorts = IFDEntry(tag: 0x0112, count: 0, value: 6)
  for entry in [asLong, twoShorts, noShorts] {
    #expect(Orientation.fromExif(tiffBlock(bigEndian: bigEndian, entries: [entry])) == .up)
  }
}

/// Every prefix of a camera block: the tag is found exactly when its value bytes are in.
@Test(arguments: [false, true])
func truncatedBlockAtEveryLength(bigEndian: Bool) {
  let full = tiffBlock(bigEndian: bigEndian, entries: cameraEntries(orientation: 6))
  // Header 8, count 2, one entry before Orientation 12, then tag 2 + type 2 + count 4 + value 2.
  let valueEnd = 8 + 2 + 12 + 10
  for length in 0...full.count {
    let expected: Orientation = length >= valueEnd ? .right : .up
    #expect(Orientation.fromExif(Array(full.prefix(length))) == expected, "length \(length)")
  }
}

@Test(arguments: [false, true], [0x7FFF_FFFF, 0xFFFF_FFFF, 40, 39, 38, 37])
func ifdOffsetOutOfBoundsIsUp(bigEndian: Bool, offset: Int) {
  // The block is 38 bytes: no entry count fits at or after byte 37.
  let entry = IFDEntry(tag: 0x0112, value: 6)
  let block = tiffBlock(bigEndian: bigEndian, entries: [entry, entry], ifdOffset: offset)
  #expect(block.count == 38)
  #expect(Orientation.fromExif(block) == .up)
}

@Test(arguments: [false, true])
func offsetsThatLoopDoNotHang(bigEndian: Bool) {
  let other = IFDEntry(tag: 0x0100, value: 3)
  // IFD0 whose next-IFD link points at itself, and one whose link points at the header.
  #expect(
    Orientation.fromExif(tiffBlock(bigEndian: bigEndian, entries: [other], nextIFD: 8)) == .up)
  #expect(
    Orientation.fromExif(tiffBlock(bigEndian: bigEndian, entries: [other], nextIFD: 0)) == .up)
  // IFD0 at offset 0: its entry count is the byte-order mark, its entries the header.
  #expect(
    Orientation.fromExif(tiffBlock(bigEndian: bigEndian, entries: [other], ifdOffset: 0)) == .up)
}

@Test(arguments: [false, true])
func hugeEntryCountStopsAtTheEnd(bigEndian: Bool) {
  let other = IFDEntry(tag: 0x0100, value: 3)
  let orientation = IFDEntry(tag: 0x0112, value: 8)
  let missing = tiffBlock(bigEndian: bigEndian, entries: [other], entryCount: 0xFFFF)
  let first = tiffBlock(bigEndian: bigEndian, entries: [orientation, other], entryCount: 0xFFFF)
  #expect(Orientation.fromExif(missing) == .up)
  #expect(Orientation.fromExif(first) == .left)
  // A count the block really holds, all filler: 65 535 entries are walked to the end.
  let filler = tiffBlock(bigEndian: bigEndian, entries: Array(repeating: other, count: 0xFFFF))
  #expect(Orientation.fromExif(filler) == .up)
}

/// Seeded random byte edits of a camera block: any answer is fine, a crash is not.
@Test func mutatedBlocksNeverCrash() {
  var random = SplitMix64(state: 0x0112)
  let original = tiffBlock(bigEndian: true, entries: cameraEntries(orientation: 6))
  var answers = Set<Orientation>()
  for _ in 0..<5_000 {
    var block = original
    for _ in 0...Int(random.next() % 4) {
      block[Int(random.next() % UInt64(block.count))] = UInt8(truncatingIfNeeded: random.next())
    }
    block = Array(block.prefix(Int(random.next() % UInt64(block.count + 1))))
    answers.insert(Orientation.fromExif(block))
  }
  #expect(answers.contains(.up) && answers.contains(.right))
}

// MARK: Geometry

@Test(arguments: Orientation.allCases)
func geometryOfEachOrientation(orientation: Orientation) {
  let (width, height) = (3, 2)
  let upright = orientation.uprightSize(width: width, height: height)
  #expect(orientation.swapsAxes == [5, 6, 7, 8].contains(orientation.rawValue))
  #expect(upright == (orientation.swapsAxes ? (2, 3) : (3, 2)))
  // Every stored pixel is shown exactly once.
  var seen = Set<[Int]>()
  for y in 0..<upright.height {
    for x in 0..<upright.width {
      let stored = orientation.storedPixel(x: x, y: y, width: width, height: height)
      #expect((0..<width).contains(stored.x) && (0..<height).contains(stored.y))
      seen.insert([stored.x, stored.y])
    }
  }
  #expect(seen.count == width * height)
}
