#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `decoder` presented upright, or `decoder` itself when `orientation` is `.up`.
///
/// The cheap way to apply an orientation that is usually 1: nothing is wrapped then. A
/// frame of an animation, held whole already, is read in the turned order
/// (``TurnedCanvas``): the still and every frame after it are turned the same way.
///
/// ```swift
/// let upright = openOriented(try openDecoder(file: fp, maxPixels: limit), orientation: .right)
/// ```
package func openOriented(_ decoder: any ImageDecoder, orientation: Orientation)
  -> any ImageDecoder
{
  if orientation == .up { return decoder }
  if let animation = decoder as? AnimationPicture {
    return TurnedCanvas(
      animation.shownCanvas, storedWidth: animation.width, orientation: orientation,
      metadata: animation.metadata, isOpaque: animation.isOpaque, source: animation)
  }
  return OrientedDecoder(decoder, orientation: orientation)
}

extension Orientation {
  /// True for orientations 3–8, whose first upright row needs the whole stored picture.
  package var needsWholePicture: Bool { self != .up && self != .upMirrored }
}

/// The upright picture of another decoder's stored pixels, one row at a time, top to
/// bottom, as straight-alpha RGBA8.
///
/// `width` and `height` are the upright size; `warnings`, `metadata` and `isOpaque` are
/// the source's (a `WrappingDecoder`; the EXIF block still says the stored orientation).
/// Orientations 1 and 2 stream: each stored row becomes one upright row (mirrored for 2).
/// Orientations 3–8 cannot: the first upright row needs the last stored row (3, 4) or
/// one pixel of every stored row (5–8), so the first `readRow` reads the whole stored
/// image into one buffer of `width * height * 4` bytes, and later calls copy out of it.
/// An error from the source is thrown by the call that hit it and by every later call.
///
/// ```swift
/// let upright = OrientedDecoder(try openDecoder(file: fp, maxPixels: limit), orientation: .right)
/// var row = [UInt8](repeating: 0, count: upright.width * 4)
/// try row.withUnsafeMutableBufferPointer { try upright.readRow(into: $0) }
/// ```
///
/// - Complexity: memory O(width) for orientations 1 and 2, O(width × height) for 3–8.
package final class OrientedDecoder: WrappingDecoder {
  /// The decoder of the stored pixels.
  package let source: any ImageDecoder
  /// How the source's pixels are stored.
  package let orientation: Orientation
  /// Pixels per upright row.
  package let width: Int
  /// Upright rows.
  package let height: Int

  /// The whole stored image, for orientations 3–8, from the first `readRow` until the last.
  private var pixels: UnsafeMutablePointer<UInt8>?
  private var reads = WrappedReads()

  /// Wraps `decoder`, whose pixels are stored as `orientation` says. Reads nothing yet.
  package init(_ decoder: any ImageDecoder, orientation: Orientation) {
    self.source = decoder
    self.orientation = orientation
    (width, height) = orientation.uprightSize(width: decoder.width, height: decoder.height)
  }

  deinit { free(pixels) }

  /// Writes the next upright row into `row`, which holds exactly `width * 4` bytes.
  package func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try reads.nextRow(of: self, into: row) { (y) throws(ImageError) in
      switch orientation {
      case .up: try source.readRow(into: row)
      case .upMirrored:
        try source.readRow(into: row)
        mirror(row)
      default: try copyRow(y, into: row)
      }
    }
    if reads.rowsRead == height {
      free(pixels)
      pixels = nil
    }
  }

  /// Reverses the order of the pixels in `row`, keeping each pixel's four bytes in order.
  private func mirror(_ row: UnsafeMutableBufferPointer<UInt8>) {
    var left = 0
    var right = width - 1
    while left < right {
      for channel in 0..<4 { row.swapAt(left * 4 + channel, right * 4 + channel) }
      left += 1
      right -= 1
    }
  }

  /// Copies upright row `y` out of the whole stored image, reading it first if needed.
  private func copyRow(_ y: Int, into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    let image: UnsafeMutablePointer<UInt8>
    if let pixels { image = pixels } else { image = try readStoredImage() }
    let (storedWidth, storedHeight) = (source.width, source.height)
    // The mapping is affine in x, so one upright row walks the stored image with a fixed step.
    let first = orientation.storedPixel(x: 0, y: y, width: storedWidth, height: storedHeight)
    let next = orientation.storedPixel(x: 1, y: y, width: storedWidth, height: storedHeight)
    let step = ((next.y - first.y) * storedWidth + next.x - first.x) * 4
    var from = (first.y * storedWidth + first.x) * 4
    for to in stride(from: 0, to: row.count, by: 4) {
      for channel in 0..<4 { row[to + channel] = image[from + channel] }
      from += step
    }
  }

  /// Reads every stored row into one newly allocated buffer and keeps it in `pixels`.
  private func readStoredImage() throws(ImageError) -> UnsafeMutablePointer<UInt8> {
    let rowBytes = source.width * 4
    let (total, overflow) = rowBytes.multipliedReportingOverflow(by: source.height)
    guard !overflow, let raw = malloc(max(1, total)) else {
      throw ImageError(.tooLarge, "out of memory")
    }
    let image = raw.bindMemory(to: UInt8.self, capacity: total)
    pixels = image
    for y in 0..<source.height {
      let storedRow = UnsafeMutableBufferPointer(start: image + y * rowBytes, count: rowBytes)
      try source.readRow(into: storedRow)
    }
    return image
  }
}
