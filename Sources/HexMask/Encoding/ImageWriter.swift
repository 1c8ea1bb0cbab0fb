/// An encoder that takes an image one row at a time, top to bottom, and writes it to a file.
///
/// Rows are straight (non-premultiplied) RGBA8, `width * 4` bytes, except for a PNG writer
/// made with `channels: 1`, which takes one gray byte per pixel (a mask). Writers never
/// close the file they are given; after `finish()` everything has been handed to it.
///
/// ```swift
/// let writer: any ImageWriter = try JPEGWriter(file: fp, width: 256, height: 256)
/// for row in rows { try row.withUnsafeBufferPointer { try writer.writeRow($0) } }
/// try writer.finish()
/// ```
package protocol ImageWriter: AnyObject {
  /// Writes the next row.
  func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError)
  /// Writes the end of the image and flushes the file; call once after the last row.
  /// An error here means the file is incomplete.
  func finish() throws(ImageError)
  /// Problems that did not stop the image, such as a colour profile left out.
  var warnings: [Warning] { get }
}

/// Why `profile` cannot be attached to RGB pixels by its header, or nil when it can: the
/// check of JPEG, WebP and AVIF output (PNG asks libpng, in ``pngProfileRefusal(_:gray:)``).
///
/// ICC profiles state the colour space of the data they describe at bytes 16…19; a
/// CMYK or gray profile on RGB pixels would make viewers show wrong colours, so JPEG and
/// WebP output leave it out, as libpng does for PNG.
func rgbProfileRefusal(_ profile: [UInt8]) -> String? {
  guard profile.count >= 128 else {
    return "ICC profile not written: \(profile.count) bytes is too short for a profile header"
  }
  let space = String(decoding: profile[16..<20], as: UTF8.self)
  guard space == "RGB " else {
    let name = String(space.reversed().drop(while: { $0 == " " }).reversed())
    return "ICC profile not written: a '\(name)' profile cannot describe RGB pixels"
  }
  return nil
}
