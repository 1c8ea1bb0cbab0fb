import CWebP

/// Decodes a WebP file held whole in `bytes` (the first frame of an animation).
func openWebP(bytes: [UInt8], maxPixels: Int) throws(ImageError) -> any ImageDecoder {
  throw ImageError(.unsupported, "WebP decoding is not built yet")
}
