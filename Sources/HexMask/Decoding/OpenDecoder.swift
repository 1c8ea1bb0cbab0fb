/// Opens a PNG or JPEG decoder for `file`, chosen by the file's first bytes, not its name.
/// (Stub: implemented by the codec work.)
public func openDecoder(file: CFile, maxPixels: Int) throws(ImageError) -> any ImageDecoder {
  throw ImageError(.unsupported, "decoding is not implemented yet")
}
