import Foundation
import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Test files in `Fixtures/` at the package root, found from this file's path so that
/// nothing is copied into a bundle.
enum Fixtures {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // HexMaskTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .appendingPathComponent("Fixtures")

  /// The path of `name` inside `Fixtures/`, e.g. `"pngsuite/basn0g08.png"`.
  static func path(_ name: String) -> String {
    root.appendingPathComponent(name).path
  }

  /// The file names in a fixture folder, sorted, filtered by `include`.
  static func names(in folder: String, where include: (String) -> Bool) -> [String] {
    let all = (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
    return all.filter(include).sorted()
  }

  /// The PngSuite test images, without the suite's logo.
  static func pngSuite(corrupt: Bool) -> [String] {
    names(in: "pngsuite") {
      $0.hasSuffix(".png") && $0 != "PngSuite.png" && $0.hasPrefix("x") == corrupt
    }
  }
}

/// A whole decoded image, for comparing pixels in tests.
struct DecodedImage: Equatable {
  var width: Int
  var height: Int
  /// RGBA8, rows top to bottom.
  var pixels: [UInt8]
  var warnings: [String]

  /// The RGBA value at column `x`, row `y`.
  func pixel(_ x: Int, _ y: Int) -> [UInt8] {
    let start = (y * width + x) * 4
    return Array(pixels[start..<start + 4])
  }
}

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

/// A fresh directory for one test; `body` gets its path, and it is removed afterwards.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("hexmask-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: url) }
  return try body(url.path)
}
