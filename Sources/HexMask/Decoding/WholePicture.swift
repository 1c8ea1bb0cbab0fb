#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    self.init(
      width: width, height: height, pixels: PixelBuffer(copying: rgba), metadata: metadata,
      warnings: warnings, isOpaque: isOpaque, reservation: reservation)
  }

  init(
    width: Int, height: Int, pixels: PixelBuffer, metadata: ImageMetadata, warnings: [Warning],
    isOpaque: Bool, chosenSquare: CropSquare? = nil, reservation: MemoryReservation? = nil
  ) {
    // Decoders pass the buffer they sized from these dimensions; were one ever short, the
    // picture would end with its last whole row rather than read past it.
    self.width = max(width, 0)
    self.height = width > 0 ? min(max(height, 0), pixels.bytes.count / (width * 4)) : 0
    self.pixels = pixels
    self.metadata = metadata
    self.warnings = warnings
    self.isOpaque = isOpaque
    self.chosenSquare = chosenSquare
    self.reservation = reservation
  }

  /// The same picture from its first row again, sharing the pixels (and their share of the
  /// memory budget): a picture decoded whole serves a second reader without a second decode.
  func rewound() -> WholePicture {
    WholePicture(
      width: width, height: height, pixels: pixels, metadata: metadata, warnings: warnings,
      isOpaque: isOpaque, chosenSquare: chosenSquare, reservation: reservation)
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
  /// How the memory was had, and so how it goes back.
  private let origin: Origin

  private enum Origin {
    case mapped, calloc, swift
  }

  /// Pictures this large are pages of their own, from `mmap`.
  static let mappedFrom = 1 << 20

  /// `count` bytes, zero until the caller fills them; nil when the memory cannot be had.
  /// A large picture is fresh anonymous pages the system provides only as they are written,
  /// whatever the allocator's settings, so a file claiming a huge size costs nothing until
  /// decoded; and a decoder that leaves part of it unwritten leaves zeros, not a previous
  /// picture's bytes.
  init?(zeroedCount count: Int) {
    guard count > 0 else { return nil }
    if count >= Self.mappedFrom {
      let start = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
      guard let start, start != MAP_FAILED else { return nil }
      bytes = UnsafeMutableBufferPointer(
        start: start.assumingMemoryBound(to: UInt8.self), count: count)
      origin = .mapped
    } else {
      guard let start = calloc(count, 1) else { return nil }
      bytes = UnsafeMutableBufferPointer(
        start: start.assumingMemoryBound(to: UInt8.self), count: count)
      origin = .calloc
    }
  }

  init(copying array: [UInt8]) {
    bytes = .allocate(capacity: array.count)
    _ = bytes.initialize(from: array)
    origin = .swift
  }

  deinit {
    switch origin {
    case .mapped: munmap(bytes.baseAddress, bytes.count)
    case .calloc: free(bytes.baseAddress)
    case .swift: bytes.deallocate()
    }
  }
}
