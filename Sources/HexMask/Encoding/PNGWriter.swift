/// Writes an 8-bit RGBA PNG one row at a time, with no timestamp or other varying chunk,
/// so the same pixels always give the same bytes. (Stub: implemented by the codec work.)
public final class PNGWriter {
  public init(file: CFile, width: Int, height: Int) throws(ImageError) {
    throw ImageError(.writeFailed, "PNG writing is not implemented yet")
  }
  /// Writes the next row: exactly `width * 4` bytes of straight RGBA.
  public func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {}
  /// Writes the end of the stream; call once after the last row.
  public func finish() throws(ImageError) {}
}
