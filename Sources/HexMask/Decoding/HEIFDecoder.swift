import CHeif

/// Decodes the primary picture of a HEIC/HEIF or AVIF file held whole in `bytes`.
func openHEIF(bytes: [UInt8], maxPixels: Int, targetSide: Int?) throws(ImageError)
  -> any ImageDecoder
{
  throw ImageError(.unsupported, "HEIF decoding is not built yet")
}
