import CZlib
import TestSupport
import Testing

@testable import HexMask

/// A PNG read by hand, independently of libpng: chunk framing and CRCs, zlib inflate
/// (which checks the Adler-32), and reference unfiltering.

struct PNGChunk {
  var type: String
  var data: [UInt8]
}

struct ParseError: Error, CustomStringConvertible {
  var description: String
}

/// The chunks of `png`, checking the signature, each length and each CRC.
func pngChunks(_ png: [UInt8]) throws -> [PNGChunk] {
  guard png.starts(with: PNGChunkWriter.signature) else {
    throw ParseError(description: "signature")
  }
  var chunks: [PNGChunk] = []
  var offset = 8
  while offset < png.count {
    guard offset + 12 <= png.count else { throw ParseError(description: "truncated chunk") }
    let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    guard offset + 12 + length <= png.count else { throw ParseError(description: "length") }
    let typeAndData = Array(png[offset + 4..<offset + 8 + length])
    let stored = png[offset + 8 + length..<offset + 12 + length].reduce(0) { $0 << 8 | UInt($1) }
    let crc = typeAndData.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
    guard stored == crc else { throw ParseError(description: "CRC") }
    chunks.append(
      PNGChunk(
        type: String(decoding: typeAndData[..<4], as: UTF8.self),
        data: Array(typeAndData[4...])))
    offset += 12 + length
  }
  return chunks
}

/// The pixels (1 or 4 bytes each, as written) and each row's filter type.
func parsedStream(_ png: [UInt8]) throws -> (pixels: [UInt8], filterTypes: [UInt8]) {
  let chunks = try pngChunks(png)
  let header = chunks[0].data
  let width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
  let height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
  let channels = header[9] == 0 ? 1 : 4
  let rowBytes = width * channels
  let filtered = try inflate(
    chunks.filter { $0.type == "IDAT" }.flatMap(\.data), size: height * (rowBytes + 1))
  var pixels = [UInt8](repeating: 0, count: height * rowBytes)
  var types: [UInt8] = []
  for y in 0..<height {
    let type = filtered[y * (rowBytes + 1)]
    types.append(type)
    for i in 0..<rowBytes {
      let raw = Int(filtered[y * (rowBytes + 1) + 1 + i])
      let a = i >= channels ? Int(pixels[y * rowBytes + i - channels]) : 0
      let b = y > 0 ? Int(pixels[(y - 1) * rowBytes + i]) : 0
      let c = i >= channels && y > 0 ? Int(pixels[(y - 1) * rowBytes + i - channels]) : 0
      let prediction: Int
      switch type {
      case 0: prediction = 0
      case 1: prediction = a
      case 2: prediction = b
      case 3: prediction = (a + b) / 2
      case 4:
        let (pa, pb, pc) = (abs(b - c), abs(a - c), abs(a + b - 2 * c))
        prediction = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      default: throw ParseError(description: "filter type \(type)")
      }
      pixels[y * rowBytes + i] = UInt8((raw + prediction) & 0xff)
    }
  }
  return (pixels, types)
}

/// zlib-inflates `data`, which must hold exactly `size` bytes and end the stream.
func inflate(_ data: [UInt8], size: Int) throws -> [UInt8] {
  var output = [UInt8](repeating: 0, count: size + 1)
  var stream = z_stream()
  let status = data.withUnsafeBufferPointer { input in
    output.withUnsafeMutableBufferPointer { out in
      withUnsafeMutablePointer(to: &stream) { stream in
        guard inflateInit_(stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return Z_MEM_ERROR }
        defer { inflateEnd(stream) }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.pointee.avail_in = uInt(input.count)
        stream.pointee.next_out = out.baseAddress
        stream.pointee.avail_out = uInt(out.count)
        let result = CZlib.inflate(stream, Z_FINISH)
        let exact = stream.pointee.avail_in == 0 && stream.pointee.total_out == uLong(size)
        return result == Z_STREAM_END && exact ? Z_OK : result
      }
    }
  }
  guard status == Z_OK else { throw ParseError(description: "inflate: \(status)") }
  return Array(output[..<size])
}

@Suite struct FastPNGStructureTests {
  // MARK: Row filters

  /// The filters written out plainly, to check the zero-run shortcut against.
  func referenceFilter(_ type: Int, row: [UInt8], previous: [UInt8], pixelBytes: Int) -> [UInt8] {
    [UInt8(type)]
      + row.indices.map { i in
        let (x, b) = (Int(row[i]), Int(previous[i]))
        let a = i >= pixelBytes ? Int(row[i - pixelBytes]) : 0
        let c = i >= pixelBytes ? Int(previous[i - pixelBytes]) : 0
        let prediction: Int
        switch type {
        case 0: prediction = 0
        case 1: prediction = a
        case 2: prediction = b
        case 3: prediction = (a + b) / 2
        default:
          let (pa, pb, pc) = (abs(b - c), abs(a - c), abs(a + b - 2 * c))
          prediction = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
        }
        return UInt8((x - prediction) & 0xff)
      }
  }

  /// A row that is zero except for `count` random bytes from `start`.
  func rowWithZeroEnds(_ length: Int, start: Int, count: Int, generator: inout SplitMix64)
    -> [UInt8]
  {
    (0..<length).map { i in
      (start..<start + count).contains(i) ? UInt8.random(in: 0...255, using: &generator) : 0
    }
  }

  @Test(arguments: [1, 4])
  func zeroRunShortcutMatchesThePlainFilters(pixelBytes: Int) {
    var generator = SplitMix64(state: 21)
    let filterTypes: [PNGRowFilter] = [.none, .sub, .up, .average, .paeth]
    for trial in 0..<300 {
      let length = pixelBytes * Int.random(in: 1...40, using: &generator)
      func random() -> [UInt8] {
        let start = Int.random(in: 0...length, using: &generator)
        let count = Int.random(in: 0...(length - start), using: &generator)
        return rowWithZeroEnds(length, start: start, count: count, generator: &generator)
      }
      let (row, previous) = (random(), random())
      var best: (line: [UInt8], sum: Int)?
      for (type, filter) in filterTypes.enumerated() {
        let expected = referenceFilter(type, row: row, previous: previous, pixelBytes: pixelBytes)
        #expect(filtered(filter, row, previous, pixelBytes) == expected, "trial \(trial) \(filter)")
        let sum = expected.dropFirst().reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) }
        if sum < best?.sum ?? .max { best = (expected, sum) }
      }
      #expect(filtered(.adaptive, row, previous, pixelBytes) == best?.line, "trial \(trial)")
    }
  }

  func filtered(_ filter: PNGRowFilter, _ row: [UInt8], _ previous: [UInt8], _ pixelBytes: Int)
    -> [UInt8]
  {
    let rowFilter = RowFilter(filter: filter, rowBytes: row.count, pixelBytes: pixelBytes)
    return row.withUnsafeBufferPointer { row in
      previous.withUnsafeBufferPointer { previous in
        Array(rowFilter.apply(row: row.baseAddress!, previous: previous.baseAddress!))
      }
    }
  }

  @Test func zeroRunsAreCountedFromBothEnds() {
    let a: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    let b: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0]
    #expect(zeroPrefix(a, b, count: a.count) == 10)
    #expect(zeroSuffix(a, b, count: a.count) == 8)
    let zeros = [UInt8](repeating: 0, count: 19)
    #expect(zeroPrefix(zeros, zeros, count: 19) == 19)
    #expect(zeroSuffix(zeros, zeros, count: 19) == 19)
  }

  @Test(arguments: [
    (PNGCompression.level(1), [UInt8]([0x78, 0x01])), (.level(3), [0x78, 0x5E]),
    (.level(6), [0x78, 0x9C]), (.level(9), [0x78, 0xDA]),
    (PNGCompression(filter: .up, level: 6, strategy: .rle), [0x78, 0x01]),
  ])
  func zlibHeaderMatchesZlib(compression: PNGCompression, header: [UInt8]) {
    #expect(zlibHeader(for: compression) == header)
  }
}
