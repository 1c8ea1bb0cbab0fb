#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A C stdio stream; decoders read from one, the PNG writer writes to one.
package typealias CFile = UnsafeMutablePointer<FILE>

/// A decoded image delivered one row at a time, top to bottom, as straight-alpha RGBA8.
///
/// Decoders never hold more than a few rows unless the format forces it (Adam7
/// interlaced PNG, progressive JPEG inside libjpeg).
///
/// ```swift
/// let decoder = try openDecoder(file: fp, maxPixels: 268_402_689)
/// var row = [UInt8](repeating: 0, count: decoder.width * 4)
/// try row.withUnsafeMutableBufferPointer { try decoder.readRow(into: $0) }
/// ```
package protocol ImageDecoder: AnyObject {
  /// Pixels per row as stored in the file.
  var width: Int { get }
  /// Rows as stored in the file.
  var height: Int { get }
  /// Non-fatal problems libpng/libjpeg reported so far (e.g. a truncated scan);
  /// problems with the metadata are in `metadata.warnings` instead.
  var warnings: [Warning] { get }
  /// The EXIF block and ICC profile found before the image data; complete as soon as
  /// the decoder is opened.
  var metadata: ImageMetadata { get }
  /// True when every pixel is certainly opaque (JPEG), so nobody needs to look for
  /// transparent ones. False means "maybe not".
  var isOpaque: Bool { get }
  /// The square the outputs show, in this decoder's pixels, when the decoder chose it
  /// itself while decoding only a window around it (`PictureNeed`); nil otherwise.
  var chosenSquare: CropSquare? { get }
  /// Decodes the next row into `row`, which holds exactly `width * 4` bytes.
  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError)
  /// Moves past the next `count` rows, which nobody will look at: a picture held in memory
  /// does so without reading them; any other decodes and drops them.
  func skipRows(_ count: Int) throws(ImageError)
}

extension ImageDecoder {
  package var isOpaque: Bool { false }
  package var chosenSquare: CropSquare? { nil }

  package func skipRows(_ count: Int) throws(ImageError) {
    guard count > 0 else { return }
    var row = [UInt8](repeating: 0, count: width * 4)
    for _ in 0..<count { try readRow(into: &row) }
  }

  /// Decodes the next row into the array `row` of exactly `width * 4` bytes: `readRow`
  /// for callers that keep their row in an array.
  func readRow(into row: inout [UInt8]) throws(ImageError) {
    var failure: ImageError?
    row.withUnsafeMutableBufferPointer { buffer in
      do throws(ImageError) { try readRow(into: buffer) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// What every `readRow` checks first, in the same words for every decoder: `row` holds
  /// exactly `width * 4` bytes (a programming error otherwise) and row `index` exists.
  func checkRead(of row: UnsafeMutableBufferPointer<UInt8>, index: Int) throws(ImageError) {
    guard row.count == width * 4 else {
      throw ImageError(
        .unreadable, "a row of \(width) RGBA8 pixels holds \(width * 4) bytes, not \(row.count)")
    }
    guard index < height else {
      throw ImageError(.unreadable, "read past the last row (the image has \(height) rows)")
    }
  }
}

extension ImageDecoder {
  /// The picture's size as stored (before shrink-on-load, a thumbnail or a window), turned
  /// as `orientation` turns it: the pixels crops and faces are reported in.
  func uprightStoredSize(_ orientation: Orientation) -> (width: Int, height: Int) {
    let (width, height) =
      metadata.storedWidth > 0
      ? (metadata.storedWidth, metadata.storedHeight) : (self.width, self.height)
    return orientation.swapsAxes ? (height, width) : (width, height)
  }
}
