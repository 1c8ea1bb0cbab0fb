import CZlib
import Foundation
import HexMask
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct TestFileError: Error, CustomStringConvertible {
  var description: String
}

/// Opens `path` with stdio, runs `body`, and closes the file.
func withFile<R>(_ path: String, mode: String = "rb", _ body: (CFile) throws -> R) throws -> R {
  guard let file = fopen(path, mode) else {
    throw TestFileError(description: "cannot open \(path)")
  }
  defer { fclose(file) }
  return try body(file)
}

/// Runs `body` with a C stream reading `bytes` from memory.
func withBytesFile<R>(_ bytes: [UInt8], _ body: (CFile) throws -> R) throws -> R {
  var copy = bytes
  return try copy.withUnsafeMutableBytes { buffer in
    guard let file = fmemopen(buffer.baseAddress, buffer.count, "rb") else {
      throw TestFileError(description: "fmemopen failed")
    }
    defer { fclose(file) }
    return try body(file)
  }
}

/// Decodes every row of the image in `file`.
func decode(file: CFile, maxPixels: Int = 1 << 28) throws(ImageError) -> DecodedImage {
  let decoder = try openDecoder(file: file, maxPixels: maxPixels)
  let rowBytes = decoder.width * 4
  var pixels = [UInt8](repeating: 0, count: rowBytes * decoder.height)
  var row = [UInt8](repeating: 0, count: rowBytes)
  for y in 0..<decoder.height {
    try row.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
      try decoder.readRow(into: buffer)
    }
    pixels.replaceSubrange(y * rowBytes..<(y + 1) * rowBytes, with: row)
  }
  return DecodedImage(
    width: decoder.width, height: decoder.height, pixels: pixels,
    warnings: decoder.warnings.map(\.description))
}

/// Decodes the fixture `name` (a path inside `Fixtures/`).
func decodeFixture(_ name: String, maxPixels: Int = 1 << 28) throws -> DecodedImage {
  try withFile(Fixtures.path(name)) { file in try decode(file: file, maxPixels: maxPixels) }
}

/// The error decoding the fixture `name` throws, or nil when it decodes.
func decodingError(_ name: String, maxPixels: Int = 1 << 28) throws -> ImageError? {
  try withFile(Fixtures.path(name)) { file in
    thrownError { () throws(ImageError) in _ = try decode(file: file, maxPixels: maxPixels) }
  }
}

/// The error `body` throws, or nil.
func thrownError(_ body: () throws(ImageError) -> Void) -> ImageError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}

/// The bytes of an APNG of `frames` (`width × height` straight RGBA each), 100 ms a frame,
/// playing forever, as hexmask's APNG writer stores them.
func apngBytes(_ frames: [[UInt8]], width: Int, height: Int) throws -> [UInt8] {
  var buffer: UnsafeMutablePointer<CChar>?
  var size = 0
  guard let file = open_memstream(&buffer, &size) else {
    throw TestFileError(description: "open_memstream failed")
  }
  do {
    let writer = try APNGWriter(
      file: file, width: width, height: height, frameCount: frames.count, loopCount: 0)
    for frame in frames {
      try frame.withUnsafeBufferPointer { try writer.addFrame($0, delayMilliseconds: 100) }
    }
    try writer.finish()
  } catch {
    fclose(file)
    free(buffer)
    throw error
  }
  fclose(file)
  defer { free(buffer) }
  guard let buffer else { return [] }
  return Array(UnsafeRawBufferPointer(start: buffer, count: size))
}

/// The CRC-32 of `bytes` as PNG chunks carry it (zlib's).
func crc32(_ bytes: [UInt8]) -> UInt32 {
  UInt32(bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) })
}

/// The Adler-32 of `bytes` as a zlib stream ends with it (zlib's).
func adler32(_ bytes: [UInt8]) -> UInt32 {
  UInt32(bytes.withUnsafeBufferPointer { CZlib.adler32(1, $0.baseAddress, uInt($0.count)) })
}
