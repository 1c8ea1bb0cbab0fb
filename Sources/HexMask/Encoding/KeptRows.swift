/// The rows of a picture kept until it is complete, for the encoders that take whole
/// pictures (libwebp for ``WebPWriter``, libheif for ``AVIFWriter``): straight RGBA8 rows,
/// each checked for its length, never more than the picture has, and encoded only when
/// every row is there.
///
/// The encoders' own memory comes on top of the kept rows, so a picture whose whole need
/// (`cost`, measured) is over the memory limit is refused before any row, as
/// decoding refuses a picture that does not fit: a 16383² AVIF once took 7.8 GB.
///
/// ```swift
/// var kept = try KeptRows(width: 2, height: 1, format: "AVIF", cost: .streamed, memory: nil)
/// try kept.append(row)   // 8 bytes
/// try kept.close()       // now kept.pixels is the whole picture
/// ```
struct KeptRows {
  let width: Int
  let height: Int
  /// The rows so far, one after another, `width * 4` bytes each.
  var pixels: [UInt8] = []
  private var closed = false

  /// Rows for a `width`×`height` picture (sides already checked by the writer) of `format`
  /// (its name, for the message), whose encoding needs `cost` in all.
  init(width: Int, height: Int, format: String, cost: EncodingCost, memory: MemoryBudget?)
    throws(ImageError)
  {
    try checkEncodingMemory(
      cost.bytes(width: width, height: height), for: "a \(width)×\(height) \(format)",
      purpose: "to encode",
      memory: memory)
    self.width = width
    self.height = height
    pixels.reserveCapacity(width * height * 4)
  }

  /// Keeps the next row: exactly `width * 4` bytes of straight RGBA.
  mutating func append(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {
    guard row.count == width * 4 else {
      throw ImageError(
        .writeFailed, "a row of \(width) RGBA8 pixels holds \(width * 4) bytes, not \(row.count)")
    }
    guard !closed && pixels.count < width * height * 4 else {
      throw ImageError(.writeFailed, "more rows written than the image has")
    }
    pixels.append(contentsOf: row)
  }

  /// Ends the picture before it is encoded: an error unless every row is there, or when it
  /// was closed before (a writer finishes once).
  mutating func close() throws(ImageError) {
    let rows = pixels.count / (width * 4)
    guard !closed && rows == height else {
      throw ImageError(.writeFailed, "only \(rows) of \(height) rows were written")
    }
    closed = true
  }

  /// Lets the pixels go, once they are encoded (or could not be).
  mutating func release() { pixels = [] }
}
