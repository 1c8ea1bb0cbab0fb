/// A picture decoded whole into memory, handed out row by row: what the HEIF and WebP
/// decoders make, since their libraries decode whole pictures.
final class WholePicture: ImageDecoder {
  let width: Int
  let height: Int
  let warnings: [String]
  let metadata: ImageMetadata
  let isOpaque: Bool
  /// Straight RGBA8, `width × 4` bytes a row.
  private let pixels: [UInt8]
  private var rowsRead = 0

  init(
    width: Int, height: Int, rgba: [UInt8], metadata: ImageMetadata, warnings: [String],
    isOpaque: Bool
  ) {
    precondition(rgba.count == width * height * 4, "a whole picture holds width × height pixels")
    self.width = width
    self.height = height
    pixels = rgba
    self.metadata = metadata
    self.warnings = warnings
    self.isOpaque = isOpaque
  }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try checkRead(of: row, index: rowsRead)
    let start = rowsRead * width * 4
    pixels.withUnsafeBufferPointer { all in
      _ = row.update(fromContentsOf: all[start..<(start + width * 4)])
    }
    rowsRead += 1
  }
}
