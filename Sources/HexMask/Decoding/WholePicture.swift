/// A picture decoded whole into memory, handed out row by row: what the HEIF and WebP
/// decoders make, since their libraries decode whole pictures.
final class WholePicture: ImageDecoder {
  let width: Int
  let height: Int
  let warnings: [Warning]
  let metadata: ImageMetadata
  let isOpaque: Bool
  /// The square the outputs show, when the decoder delivered only a window around it.
  let chosenSquare: CropSquare?
  /// Straight RGBA8, `width × 4` bytes a row.
  private let pixels: PixelBuffer
  /// The memory budget's share these pixels hold until the picture is released.
  private let reservation: MemoryReservation?
  private var rowsRead = 0

  convenience init(
    width: Int, height: Int, rgba: [UInt8], metadata: ImageMetadata, warnings: [Warning],
    isOpaque: Bool, reservation: MemoryReservation? = nil
  ) {
    precondition(rgba.count == width * height * 4, "a whole picture holds width × height pixels")
    self.init(
      width: width, height: height, pixels: PixelBuffer(copying: rgba), metadata: metadata,
      warnings: warnings, isOpaque: isOpaque, reservation: reservation)
  }

  init(
    width: Int, height: Int, pixels: PixelBuffer, metadata: ImageMetadata, warnings: [Warning],
    isOpaque: Bool, chosenSquare: CropSquare? = nil, reservation: MemoryReservation? = nil
  ) {
    precondition(
      pixels.bytes.count == width * height * 4, "a whole picture holds width × height pixels")
    self.width = width
    self.height = height
    self.pixels = pixels
    self.metadata = metadata
    self.warnings = warnings
    self.isOpaque = isOpaque
    self.chosenSquare = chosenSquare
    self.reservation = reservation
  }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try checkRead(of: row, index: rowsRead)
    let start = rowsRead * width * 4
    _ = row.update(fromContentsOf: pixels.bytes[start..<(start + width * 4)])
    rowsRead += 1
  }
}

/// Pixel memory a C decoder writes into. Allocated without being touched, so a decoder
/// that fails early (a truncated file claiming a huge size) costs address space, not
/// memory.
final class PixelBuffer {
  let bytes: UnsafeMutableBufferPointer<UInt8>

  /// `count` bytes the caller fills before reading any.
  init(uninitializedCount count: Int) {
    bytes = .allocate(capacity: count)
  }

  init(copying array: [UInt8]) {
    bytes = .allocate(capacity: array.count)
    _ = bytes.initialize(from: array)
  }

  deinit { bytes.deallocate() }
}
