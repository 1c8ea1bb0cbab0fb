import CZlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes the PNG container to a stdio stream: the signature, then chunks of length,
/// type, data and CRC-32 (PNG specification §5).
///
/// Writes go straight to the stream; a failure is `.writeFailed` with the system's
/// reason, e.g. "cannot write PNG: no space left on device".
struct PNGChunkWriter {
  let file: CFile

  /// The eight bytes every PNG file starts with.
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  func writeSignature() throws(ImageError) {
    try write(Self.signature)
  }

  /// Writes one chunk of type `type` (four letters) holding `data`.
  func writeChunk(_ type: String, _ data: [UInt8] = []) throws(ImageError) {
    // A chunk's length is 31 bits (an ICC profile comes from the input); the type is ours.
    guard data.count <= 0x7fff_ffff && type.utf8.count == 4 else {
      throw ImageError(.writeFailed, "a PNG \(type) chunk cannot hold \(data.count) bytes")
    }
    let head = bigEndianBytes(UInt32(data.count)) + Array(type.utf8)
    try write(head)
    try write(data)
    var crc = crc32(0, nil, 0)
    crc = head[4...].withUnsafeBytes { checksum(crc, $0) }
    crc = data.withUnsafeBytes { checksum(crc, $0) }
    try write(bigEndianBytes(UInt32(crc)))
  }

  /// Pushes stdio's buffer to the file; a full disk often shows only here.
  func flush() throws(ImageError) {
    if fflush(file) != 0 || ferror(file) != 0 { throw systemWriteError() }
  }

  private func write(_ bytes: [UInt8]) throws(ImageError) {
    let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    if written != bytes.count { throw systemWriteError() }
  }
}

/// Collects the zlib stream into IDAT chunks of `chunkSize` bytes, so the chunk layout
/// depends only on the stream, never on how it was produced.
struct IDATStream {
  /// Large enough that chunk overhead is negligible, small enough for any decoder.
  static let chunkSize = 1 << 18

  private var buffer: [UInt8] = []

  init() { buffer.reserveCapacity(Self.chunkSize) }

  mutating func append(_ bytes: [UInt8], to writer: PNGChunkWriter) throws(ImageError) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(ImageError) in
      try append(UnsafeRawBufferPointer(buffer), to: writer)
    }
  }

  mutating func append(_ bytes: UnsafeRawBufferPointer, to writer: PNGChunkWriter)
    throws(ImageError)
  {
    var rest = bytes[...]
    while !rest.isEmpty {
      let taken = rest.prefix(Self.chunkSize - buffer.count)
      buffer.append(contentsOf: taken)
      rest = rest[taken.endIndex...]
      if buffer.count == Self.chunkSize { try flush(to: writer) }
    }
  }

  /// Writes what is buffered as a (shorter) final chunk.
  mutating func flush(to writer: PNGChunkWriter) throws(ImageError) {
    guard !buffer.isEmpty else { return }
    try writer.writeChunk("IDAT", buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}

/// IHDR for an 8-bit, non-interlaced image: colour type 0 (gray) or 6 (RGBA).
func headerChunkData(width: Int, height: Int, channels: Int) -> [UInt8] {
  bigEndianBytes(UInt32(width)) + bigEndianBytes(UInt32(height)) + [
    8, channels == 1 ? 0 : 6, 0, 0, 0,
  ]
}

/// The iCCP chunk's data: name, NUL, compression method 0, the zlib-compressed profile.
func iccProfileChunkData(_ profile: [UInt8]) throws(ImageError) -> [UInt8] {
  var size = compressBound(uLong(profile.count))
  var compressed = [UInt8](repeating: 0, count: Int(size))
  let status = compressed.withUnsafeMutableBufferPointer { out in
    profile.withUnsafeBufferPointer { input in
      compress2(out.baseAddress, &size, input.baseAddress, uLong(input.count), Z_BEST_COMPRESSION)
    }
  }
  guard status == Z_OK else {
    throw ImageError(.writeFailed, "cannot compress the ICC profile (zlib error \(status))")
  }
  return Array(iccProfileName.utf8) + [0, 0] + compressed[..<Int(size)]
}

/// The iCCP profile name; any Latin-1 name of 1…79 characters would do.
let iccProfileName = "ICC profile"

/// The `sRGB` chunk's one byte, the rendering intent: 0, perceptual (what libpng and
/// libvips write; a viewer converting an sRGB picture for its display picks the intent).
let srgbChunkData: [UInt8] = [0]

func bigEndianBytes(_ value: UInt32) -> [UInt8] {
  [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
}

/// zlib's CRC-32 over any number of bytes (its length parameter is 32-bit).
private func checksum(_ crc: uLong, _ bytes: UnsafeRawBufferPointer) -> uLong {
  guard var base = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return crc }
  var (crc, rest) = (crc, bytes.count)
  while rest > 0 {
    let step = min(rest, 1 << 30)
    crc = crc32(crc, base, uInt(step))
    base += step
    rest -= step
  }
  return crc
}

/// The error for a failed stdio call, worded with the system's reason.
func systemWriteError() -> ImageError {
  ImageError(.writeFailed, "cannot write PNG: \(userMessage(String(cString: strerror(errno))))")
}
