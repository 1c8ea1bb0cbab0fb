import CGIF
import Foundation
import TestSupport

/// Writes animated GIFs with giflib (the library hexmask reads them with), so that a test
/// can make a large animation when it runs instead of keeping megabytes in Fixtures.
/// Every frame covers the whole canvas, left in place (disposal 1), with the global
/// palette; the animation loops forever.
struct GIFWriting {
  /// Why giflib refused, with its own message.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Writes `frames` frames of `width`×`height` to `path`, each shown for `delayCentiseconds`;
  /// `pixel(frame, x, y)` is the palette index of a pixel. `palette` holds 256 RGB triples.
  static func write(
    to path: String, width: Int, height: Int, frames: Int, delayCentiseconds: Int = 4,
    palette: [(UInt8, UInt8, UInt8)], pixel: (Int, Int, Int) -> UInt8
  ) throws {
    var error: Int32 = 0
    guard let gif = EGifOpenFileName(path, false, &error) else {
      throw Failure(description: "cannot create \(path): \(reason(error))")
    }
    var closed = false
    defer { if !closed { EGifCloseFile(gif, &error) } }
    let colours = palette.map { GifColorType(Red: $0.0, Green: $0.1, Blue: $0.2) }
    guard let map = GifMakeMapObject(Int32(colours.count), colours) else {
      throw Failure(description: "cannot make a palette of \(colours.count) colours")
    }
    defer { GifFreeMapObject(map) }
    EGifSetGifVersion(gif, true)
    try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map), gif)
    // NETSCAPE2.0, loop count 0: forever.
    try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), gif)
    try check(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)), gif)
    try check(EGifPutExtensionBlock(gif, 3, [UInt8(1), 0, 0]), gif)
    try check(EGifPutExtensionTrailer(gif), gif)
    var row = [GifPixelType](repeating: 0, count: width)
    for frame in 0..<frames {
      // Graphic control: disposal 1 (leave in place), no transparency.
      let control: [UInt8] = [
        1 << 2, UInt8(delayCentiseconds & 0xFF), UInt8(delayCentiseconds >> 8), 0,
      ]
      try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, control), gif)
      try check(EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, nil), gif)
      for y in 0..<height {
        for x in 0..<width { row[x] = pixel(frame, x, y) }
        try check(EGifPutLine(gif, &row, Int32(width)), gif)
      }
    }
    closed = true
    guard EGifCloseFile(gif, &error) == GIF_OK else {
      throw Failure(description: "cannot finish \(path): \(reason(error))")
    }
  }

  private static func check(_ result: Int32, _ gif: UnsafeMutablePointer<GifFileType>) throws {
    guard result == GIF_OK else { throw Failure(description: reason(gif.pointee.Error)) }
  }

  private static func reason(_ code: Int32) -> String {
    GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
  }
}
