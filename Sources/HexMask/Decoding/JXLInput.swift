import CJXL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// What JXLFrames reads besides frames: the file's bytes as libjxl asks for them, and the
// colour the pixels come in.

/// A JPEG XL file's bytes, read as far as they are asked for, into memory of their own that
/// libjxl reads from while the frames are decoded.
final class JXLBytes {
  private let file: CFile
  /// The most bytes a file within the pixel limits can take.
  private let limit: Int
  /// The memory budget's whole limit: bytes past it are refused as they come.
  private let memoryLimit: Int?
  private var start: UnsafeMutablePointer<UInt8>?
  private var capacity = 0
  private var count = 0

  /// The bytes read so far (`prefix`, the sniffed ones, first).
  var read: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

  init(file: CFile, prefix: [UInt8], limit: Int, memoryLimit: Int?) throws(ImageError) {
    self.file = file
    self.limit = limit
    self.memoryLimit = memoryLimit
    try append(prefix)
  }

  deinit { free(start) }

  /// Reads the next bytes of the file (at most 256 KiB); false at its end.
  func readMore() throws(ImageError) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 1 << 18)
    let got = fread(&chunk, 1, chunk.count, file)
    if got == 0 {
      if ferror(file) != 0 {
        throw ImageError(
          .unreadable, "read error: \(userMessage(String(cString: strerror(errno))))")
      }
      return false
    }
    try append(chunk[..<got])
    return true
  }

  private func append(_ bytes: some Collection<UInt8>) throws(ImageError) {
    let total = count + bytes.count
    guard total <= limit else {
      throw ImageError(.tooLarge, "the file is larger than any picture within the pixel limit")
    }
    if let memoryLimit, total > memoryLimit {
      throw ImageError.memory(needed: total, limit: memoryLimit)
    }
    if total > capacity {
      let grown = max(total, capacity * 2, 1 << 16)
      guard let moved = realloc(start, grown) else {
        throw ImageError(.tooLarge, "not enough memory to read a JPEG XL of \(total) bytes")
      }
      start = moved.assumingMemoryBound(to: UInt8.self)
      capacity = grown
    }
    guard let start else { return }
    _ = UnsafeMutableBufferPointer(start: start + count, count: bytes.count).initialize(
      from: bytes)
    count = total
  }
}

/// Settles the colour of the pixels `decoder` will deliver, at its colour event: a lossy
/// (`xyb`) picture in sRGB (gray for gray), converted by libjxl in floating point, anything
/// else in its own space. Returns the ICC profile of that space (nil for sRGB) and whether
/// the pixels were converted to sRGB from it.
func readColour(_ decoder: OpaquePointer, gray: Bool, xyb: Bool) throws(ImageError)
  -> (profile: [UInt8]?, converted: Bool)
{
  while true {
    switch JxlDecoderProcessInput(decoder) {
    case JXL_DEC_COLOR_ENCODING:
      if xyb {
        var srgb = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&srgb, gray ? 1 : 0)
        guard JxlDecoderSetPreferredColorProfile(decoder, &srgb) == JXL_DEC_SUCCESS else {
          throw ImageError(.unsupported, "the JPEG XL library cannot deliver sRGB")
        }
        let original = profile(decoder, JXL_COLOR_PROFILE_TARGET_ORIGINAL)
        return (original, original != nil)
      }
      return (profile(decoder, JXL_COLOR_PROFILE_TARGET_DATA), false)
    case JXL_DEC_NEED_MORE_INPUT:
      throw ImageError(.corrupt, "truncated JPEG XL: unexpected end of file")
    case JXL_DEC_ERROR, JXL_DEC_SUCCESS:
      throw ImageError(.corrupt, "corrupt JPEG XL: the colour header cannot be read")
    default:
      continue
    }
  }
}

/// The ICC profile of `target` (the file's own colour, or the delivered pixels'): nil for
/// sRGB, which needs none, and when libjxl has none to give.
private func profile(_ decoder: OpaquePointer, _ target: JxlColorProfileTarget) -> [UInt8]? {
  var encoding = JxlColorEncoding()
  if JxlDecoderGetColorAsEncodedProfile(decoder, nil, target, &encoding) == JXL_DEC_SUCCESS,
    isSRGB(encoding)
  {
    return nil
  }
  var size = 0
  guard JxlDecoderGetICCProfileSize(decoder, nil, target, &size) == JXL_DEC_SUCCESS, size > 0,
    size <= 1 << 26
  else { return nil }
  var bytes = [UInt8](repeating: 0, count: size)
  guard JxlDecoderGetColorAsICCProfile(decoder, nil, target, &bytes, size) == JXL_DEC_SUCCESS
  else { return nil }
  return bytes
}

/// True for sRGB itself (gray or colour): sRGB primaries and transfer, D65 white,
/// perceptual or relative intent alike (the pixels are the same).
private func isSRGB(_ encoding: JxlColorEncoding) -> Bool {
  encoding.white_point == JXL_WHITE_POINT_D65
    && encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
    && (encoding.color_space == JXL_COLOR_SPACE_GRAY
      || (encoding.color_space == JXL_COLOR_SPACE_RGB && encoding.primaries == JXL_PRIMARIES_SRGB))
}

/// The libjxl the reader and writer are built with, as `0.7.0`.
package let jxlVersion: String = {
  let version = Int(JxlDecoderVersion())
  return "\(version / 1_000_000).\(version / 1000 % 1000).\(version % 1000)"
}()
