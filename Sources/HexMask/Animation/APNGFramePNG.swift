import CZlib

// libpng reads only an APNG's default image. Each frame is therefore rebuilt as a PNG of its
// own in memory (the file's IHDR with the frame's size, its PLTE and tRNS, the frame's data
// as IDAT) and handed to the still decoder, which already knows every bit depth, colour type
// and interlacing. Chromium does the same: it feeds libpng a rewritten IHDR and fdAT as IDAT.

/// The IHDR fields an APNG's frames share: everything but the size.
struct PNGImageHeader {
  var width: Int
  var height: Int
  var bitDepth: UInt8
  var colourType: UInt8
  var interlace: UInt8

  init(_ data: [UInt8]) throws(ImageError) {
    guard data.count == 13 else {
      throw ImageError(.corrupt, "IHDR holds \(data.count) bytes, not 13")
    }
    width = Int(bigEndianUInt32(data, at: 0))
    height = Int(bigEndianUInt32(data, at: 4))
    bitDepth = data[8]
    colourType = data[9]
    interlace = data[12]
    guard (1...0x7fff_ffff).contains(width), (1...0x7fff_ffff).contains(height) else {
      throw ImageError(.corrupt, "PNG image is \(width)×\(height)")
    }
    // Compression and filter method 0 are the only ones; libpng checks depth and type.
    guard data[10] == 0, data[11] == 0, interlace <= 1 else {
      throw ImageError(.corrupt, "IHDR has an unknown compression, filter or interlace method")
    }
  }

  /// Bits per pixel as stored (before libpng expands it): depth × samples.
  var bitsPerPixel: Int {
    let samples: Int
    switch colourType {
    case 2: samples = 3
    case 4: samples = 2
    case 6: samples = 4
    default: samples = 1
    }
    return Int(bitDepth) * samples
  }

  /// The bytes a `width`×`height` picture of this kind has once inflated, filter bytes
  /// and Adam7's extra rows included (at most 7 passes of one more row each).
  func inflatedBytes(width: Int, height: Int) -> Int {
    // Sides are below 2³¹ and pixels at most 64 bits: only the product can overflow.
    let rowBytes = 1 + (width * bitsPerPixel + 7) / 8
    let (bytes, overflow) = rowBytes.multipliedReportingOverflow(
      by: height + (interlace == 1 ? 7 : 0))
    return overflow ? Int.max : bytes
  }

  /// IHDR's data for a picture of this kind sized `width`×`height`.
  func data(width: Int, height: Int, interlaced: Bool) -> [UInt8] {
    bigEndianBytes(UInt32(width)) + bigEndianBytes(UInt32(height)) + [
      bitDepth, colourType, 0, 0, interlaced ? interlace : 0,
    ]
  }
}

/// A PNG being assembled in memory, chunk by chunk.
struct InMemoryPNG {
  private(set) var bytes: [UInt8] = PNGChunkWriter.signature

  mutating func append(_ type: String, _ data: [UInt8]) {
    let head = Array(type.utf8)
    bytes += bigEndianBytes(UInt32(data.count)) + head + data
    var crc = head.withUnsafeBufferPointer { crc32(crc32(0, nil, 0), $0.baseAddress, 4) }
    crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
    bytes += bigEndianBytes(UInt32(truncatingIfNeeded: crc))
  }

  /// Reads `chunk` (an IDAT, or an fdAT whose sequence number comes first) from `reader`
  /// straight into an IDAT chunk of this PNG; returns the fdAT's sequence number.
  ///
  /// The fdAT's sequence number sits where the IDAT's type goes, so it is overwritten in
  /// place rather than moving the data.
  @discardableResult
  mutating func appendData(of chunk: PNGChunkHeader, from reader: PNGChunkReader, limit: Int)
    throws(ImageError) -> Int?
  {
    let isFrameData = chunk.type == "fdAT"
    guard !isFrameData || chunk.length >= 4 else {
      throw ImageError(.corrupt, "fdAT holds \(chunk.length) bytes, too few for a sequence number")
    }
    let start = bytes.count
    bytes += bigEndianBytes(UInt32(chunk.length - (isFrameData ? 4 : 0)))
    if !isFrameData { bytes += chunk.typeBytes }
    try reader.data(of: chunk, appendingTo: &bytes, limit: limit)
    var sequence: Int?
    if isFrameData {
      sequence = Int(bigEndianUInt32(bytes, at: start + 4))
      bytes.replaceSubrange(start + 4..<start + 8, with: Array("IDAT".utf8))
    }
    let crc = bytes[(start + 4)...].withUnsafeBufferPointer {
      crc32(crc32(0, nil, 0), $0.baseAddress, uInt($0.count))
    }
    bytes += bigEndianBytes(UInt32(truncatingIfNeeded: crc))
    return sequence
  }
}

/// A 1×1 PNG of the file's kind carrying its colour profile and EXIF, read by the still
/// decoder only for its metadata (and libpng's checks of the header).
func metadataProbe(
  _ header: PNGImageHeader, ancillaries: [(type: String, data: [UInt8])]
) throws(ImageError) -> [UInt8] {
  var png = InMemoryPNG()
  png.append("IHDR", header.data(width: 1, height: 1, interlaced: false))
  for chunk in ancillaries { png.append(chunk.type, chunk.data) }
  let row = [UInt8](repeating: 0, count: 1 + (header.bitsPerPixel + 7) / 8)
  var size = compressBound(uLong(row.count))
  var compressed = [UInt8](repeating: 0, count: Int(size))
  let status = compressed.withUnsafeMutableBufferPointer { out in
    compress2(out.baseAddress, &size, row, uLong(row.count), 1)
  }
  guard status == Z_OK else { throw ImageError(.corrupt, "zlib error \(status)") }
  png.append("IDAT", Array(compressed[..<Int(size)]))
  png.append("IEND", [])
  return png.bytes
}
