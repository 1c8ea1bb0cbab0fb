import Foundation
import HexMask
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Decodes a PNG or JPEG with hexmask's own decoders (tested on their own elsewhere).
func decodeImage(at path: String) throws -> DecodedImage {
  guard let stream = fopen(path, "rb") else {
    throw ProcessRunError(description: "cannot open \(path)")
  }
  defer { fclose(stream) }
  let decoder = try openDecoder(file: stream, maxPixels: 1 << 30)
  var pixels = [UInt8](repeating: 0, count: decoder.width * decoder.height * 4)
  var row = [UInt8](repeating: 0, count: decoder.width * 4)
  for y in 0..<decoder.height {
    try row.withUnsafeMutableBufferPointer { try decoder.readRow(into: $0) }
    pixels.replaceSubrange((y * decoder.width * 4)..<((y + 1) * decoder.width * 4), with: row)
  }
  return DecodedImage(width: decoder.width, height: decoder.height, pixels: pixels)
}

/// The names in `directory`, hidden temporary files included.
func filesIn(_ directory: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}
