import CHeif

/// Decodes the primary picture of a HEIC/HEIF or AVIF file held whole in `bytes`.
///
/// The picture's size is checked against `maxPixels` from the header (`ispe`, and the size
/// after the `irot`/`clap` transforms) before any pixel memory. With `targetSide`, a
/// thumbnail item whose shorter side is at least 2 × `targetSide` is decoded instead of the
/// full picture, as vipsthumbnail does; the smallest such thumbnail wins.
///
/// The HEIF transforms (`irot`, `imir`, `clap`) are applied, so the picture is upright.
/// An EXIF orientation tag in the file is never applied on top (see `metadata.exif`).
/// An ICC profile (`colr prof`/`rICC`) is kept; an nclx-only file has no profile and is
/// treated as sRGB, as browsers do.
///
/// Messages about a damaged file name the format its brand says (`corrupt AVIF: …` for
/// `avif`), since libheif reads both and a user who sent an AVIF never sent a HEIF.
/// libheif decodes whole pictures, so the memory decoding needs (`decodingBytes`) is taken
/// from `memory` before, and all but the picture's own 4 bytes a pixel given back after.
func openHEIF(
  bytes: [UInt8], maxPixels: Int, targetSide: Int?, isAVIF: Bool = false,
  memory: MemoryBudget? = nil
)
  throws(ImageError) -> any ImageDecoder
{
  let result: Result<WholePicture, ImageError> = bytes.withUnsafeBytes { buffer in
    Result(catching: { () throws(ImageError) -> WholePicture in
      try decodeHEIF(buffer, maxPixels: maxPixels, targetSide: targetSide, memory: memory)
    })
  }
  do {
    return try result.get()
  } catch {
    guard isAVIF && error.kind == .corrupt else { throw error }
    var renamed = error
    renamed.reason = error.reason.replacing("HEIF", with: "AVIF")
    throw renamed
  }
}

/// The work of `openHEIF` while `bytes` stays put: libheif reads them without a copy.
private func decodeHEIF(
  _ bytes: UnsafeRawBufferPointer, maxPixels: Int, targetSide: Int?, memory: MemoryBudget?
)
  throws(ImageError) -> WholePicture
{
  guard let context = heif_context_alloc() else {
    throw ImageError(.tooLarge, "out of memory for a HEIF context")
  }
  defer { heif_context_free(context) }
  // libheif's own limit bounds each side (it refuses a larger `ispe` while reading the
  // file). No side of a picture within `maxPixels` pixels can be longer than `maxPixels`;
  // a tighter bound such as √maxPixels would refuse panoramas that fit the limit.
  heif_context_set_maximum_image_size_limit(context, Int32(clamping: max(1, maxPixels)))
  try check(
    heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil))

  var primary: OpaquePointer?
  try check(heif_context_get_primary_image_handle(context, &primary))
  guard let primary else { throw ImageError(.corrupt, "corrupt HEIF: no primary image") }
  defer { heif_image_handle_release(primary) }

  // From the header, before any pixels: the stored size and the size after transforms.
  for (width, height) in [
    (heif_image_handle_get_ispe_width(primary), heif_image_handle_get_ispe_height(primary)),
    (heif_image_handle_get_width(primary), heif_image_handle_get_height(primary)),
  ] {
    try checkPixels(width: Int(width), height: Int(height), maxPixels: maxPixels)
  }

  var warnings: [Warning] = []
  let pictures = Int(heif_context_get_number_of_top_level_images(context))
  // An image sequence (AVIF `avis`, HEIF `msf1`/`hevs`) keeps its frames in a track, which
  // libheif does not count as pictures: its brands say it.
  let sequenceBrands = ["avis", "msf1", "hevs"]
  if pictures <= 1,
    let brands = ImageFormat.heifBrands(bytes),
    brands.contains(where: sequenceBrands.contains)
  {
    warnings.append(
      Warning(
        .otherPicturesIgnored, "the file is an image sequence; only its primary picture is used"))
  } else if pictures > 1 {
    warnings.append(
      Warning(
        .otherPicturesIgnored, "the file holds \(pictures) pictures; only the primary one is used"
      ))
  }

  // The ICC profile describes the colour of the primary picture and its thumbnails alike.
  var metadata = ImageMetadata(
    // HEIF files (iPhone ones among them) carry both the `irot`/`imir` transforms, which
    // libheif applies while decoding, and an EXIF orientation tag that describes the same
    // turn. hexmask applies EXIF orientation only from `metadata.exif`; leaving it nil
    // makes sure the picture is never turned twice.
    exif: nil,
    iccProfile: iccProfile(of: primary))
  if metadata.iccProfile == nil, let nclx = nclxColour(of: primary) {
    switch HexMask.iccProfile(for: nclx) {
    case .success(let profile): metadata.iccProfile = profile
    case .failure(let error):
      metadata.warnings.append(
        Warning(.profileUnusable, "colours not converted (\(error.reason)); colours may be off"))
    }
  }

  let thumbnail = try targetSide.flatMap { (side) throws(ImageError) in
    try smallestThumbnail(
      of: primary, atLeast: side.multipliedReportingOverflow(by: 2).partialValue)
  }
  defer { if let thumbnail { heif_image_handle_release(thumbnail) } }
  let handle = thumbnail ?? primary
  metadata.storedWidth = Int(heif_image_handle_get_width(primary))
  metadata.storedHeight = Int(heif_image_handle_get_height(primary))
  if thumbnail != nil {
    try checkPixels(
      width: Int(heif_image_handle_get_width(handle)),
      height: Int(heif_image_handle_get_height(handle)), maxPixels: maxPixels)
  }
  let reservation = try memory.reserve(
    decodingBytes(of: handle, fileBytes: bytes.count),
    for: PictureSize(width: metadata.storedWidth, height: metadata.storedHeight))
  let picture = try decodePixels(of: handle)
  let (width, height) = (picture.width, picture.height)
  reservation?.shrink(to: picture.rgba.bytes.count)
  return WholePicture(
    width: width, height: height, pixels: picture.rgba, metadata: metadata, warnings: warnings,
    isOpaque: picture.isOpaque, reservation: reservation)
}

/// About the most memory decoding `handle` takes at once, an upper bound from its header:
/// 4 bytes a pixel for hexmask's copy and 14 a pixel per byte of sample (1 to 8 bits, 2
/// above) for the decoder's planes, libheif's copy of them and its interleaved RGB(A). The
/// header does not say the chroma sampling, so this is 4:4:4's need, the largest.
///
/// Measured (a process's peak RSS over its pixels, decoding to a 256 px PNG; AVIFs made
/// by avifenc and hexmask): 4:4:4 8-bit 15.7 bytes a pixel at 8000² and 17.0 at 4000² (a
/// fixed ~26 MB of the process included), with alpha the same, lossless 16.5 at
/// 6000 × 3000, 4:2:0 9.6–10.6, 4:0:0 7.4; 10- and 12-bit 4:4:4 28.2 at 8000² and 29.7 at
/// 4000², 4:2:0 18.3–18.9. This gives 18 and 32: at least 1.06 × every peak measured.
/// (The estimate was 13 and 22 before, below 4:4:4's peak: an 8000² AVIF admitted under
/// 800 MiB peaked at 960 MiB.) HEIC, decoded by libde265, stays lower (7 bytes a pixel).
///
/// A picture stored as GBR (the identity matrix of a lossless AVIF) takes 6 more a pixel per
/// byte of sample for the planes turned back into RGB, and the file, held whole, is copied
/// by libheif: `fileBytes` twice. (A tryout: 2000² lossless noise, a 17 MB file, peaked at
/// 27 bytes a pixel; a 12-bit lossless photo at 41.)
private func decodingBytes(of handle: OpaquePointer, fileBytes: Int) -> Int {
  let stored = Int(heif_image_handle_get_ispe_width(handle))
    .multipliedReportingOverflow(by: Int(heif_image_handle_get_ispe_height(handle)))
  let shown = Int(heif_image_handle_get_width(handle))
    .multipliedReportingOverflow(by: Int(heif_image_handle_get_height(handle)))
  let pixels = max(
    stored.overflow ? 0 : stored.partialValue, shown.overflow ? 0 : shown.partialValue)
  let sample = heif_image_handle_get_luma_bits_per_pixel(handle) > 8 ? 2 : 1
  let planes = isStoredAsGBR(handle) ? 20 : 14
  let (bytes, tooMany) = pixels.multipliedReportingOverflow(by: 4 + planes * sample)
  return tooMany ? Int.max : bytes.addingSaturated(fileBytes).addingSaturated(fileBytes)
}

/// Throws `tooManyPixels` when `width` × `height` is over `maxPixels`.
private func checkPixels(width: Int, height: Int, maxPixels: Int) throws(ImageError) {
  guard width > 0, height > 0 else { return }  // no `ispe`: libheif checks while decoding
  let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
  if overflow || pixels > maxPixels {
    throw ImageError.tooManyPixels(width: width, height: height, maxPixels: maxPixels)
  }
}

/// The raw ICC profile of `handle`, or nil for none or an nclx description.
private func iccProfile(of handle: OpaquePointer) -> [UInt8]? {
  let type = heif_image_handle_get_color_profile_type(handle)
  guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else {
    return nil
  }
  let size = heif_image_handle_get_raw_color_profile_size(handle)
  guard size > 0 else { return nil }
  var profile = [UInt8](repeating: 0, count: size)
  let error = profile.withUnsafeMutableBytes {
    heif_image_handle_get_raw_color_profile(handle, $0.baseAddress)
  }
  return error.code == heif_error_Ok ? profile : nil
}

/// True when `handle`'s `nclx` box says its planes are G, B and R (matrix 0, as a lossless
/// AVIF's are).
private func isStoredAsGBR(_ handle: OpaquePointer) -> Bool {
  var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
  guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok,
    let box = nclx?.pointee
  else { return false }
  defer { heif_nclx_color_profile_free(nclx) }
  return box.matrix_coefficients == heif_matrix_coefficients_RGB_GBR
}

/// What the `nclx` box of `handle` says about colour; nil when it has none.
private func nclxColour(of handle: OpaquePointer) -> HexMask.NCLXColour? {
  var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
  guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok,
    let box = nclx?.pointee
  else { return nil }
  defer { heif_nclx_color_profile_free(nclx) }
  let point = { (x: Float, y: Float) in (x: Double(x), y: Double(y)) }
  return HexMask.NCLXColour(
    primaries: Int(box.color_primaries.rawValue),
    transfer: Int(box.transfer_characteristics.rawValue),
    red: point(box.color_primary_red_x, box.color_primary_red_y),
    green: point(box.color_primary_green_x, box.color_primary_green_y),
    blue: point(box.color_primary_blue_x, box.color_primary_blue_y),
    white: point(box.color_primary_white_x, box.color_primary_white_y))
}

/// The smallest thumbnail of `primary` whose shorter side is at least `minSide`, retained
/// (the caller releases it); nil when there is none.
private func smallestThumbnail(of primary: OpaquePointer, atLeast minSide: Int)
  throws(ImageError) -> OpaquePointer?
{
  let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
  guard count > 0 else { return nil }
  var ids = [heif_item_id](repeating: 0, count: count)
  let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
  var best: OpaquePointer?
  var bestPixels = Int.max
  for id in ids.prefix(listed) {
    var thumbnail: OpaquePointer?
    // A broken thumbnail is no reason to refuse the file: the primary is decoded instead.
    guard heif_image_handle_get_thumbnail(primary, id, &thumbnail).code == heif_error_Ok,
      let thumbnail
    else { continue }
    let width = Int(heif_image_handle_get_width(thumbnail))
    let height = Int(heif_image_handle_get_height(thumbnail))
    if min(width, height) >= minSide && width * height < bestPixels {
      if let best { heif_image_handle_release(best) }
      best = thumbnail
      bestPixels = width * height
    } else {
      heif_image_handle_release(thumbnail)
    }
  }
  return best
}

/// Decodes `handle` with its transforms into straight RGBA8; libheif's copy is released
/// before this returns.
private func decodePixels(of handle: OpaquePointer)
  throws(ImageError) -> (width: Int, height: Int, rgba: PixelBuffer, isOpaque: Bool)
{
  let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
  let deep = heif_image_handle_get_luma_bits_per_pixel(handle) > 8
  let chroma: heif_chroma =
    switch (deep, hasAlpha) {
    case (false, false): heif_chroma_interleaved_RGB
    case (false, true): heif_chroma_interleaved_RGBA
    case (true, false): heif_chroma_interleaved_RRGGBB_LE
    case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
    }
  // Default options: the transforms are applied (ignore_transformations stays 0).
  guard let options = heif_decoding_options_alloc() else {
    throw ImageError(.tooLarge, "out of memory for HEIF decoding options")
  }
  defer { heif_decoding_options_free(options) }
  var decoded: OpaquePointer?
  try check(heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, options))
  guard let image = decoded else { throw ImageError(.corrupt, "corrupt HEIF: no image decoded") }
  defer { heif_image_release(image) }

  let width = Int(heif_image_get_width(image, heif_channel_interleaved))
  let height = Int(heif_image_get_height(image, heif_channel_interleaved))
  var rowStride: Int32 = 0
  guard width > 0, height > 0,
    let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &rowStride)
  else { throw ImageError(.corrupt, "corrupt HEIF: the decoded picture has no pixels") }
  let channels = hasAlpha ? 4 : 3
  let bits = deep ? Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved)) : 8
  guard (1...16).contains(bits), Int(rowStride) >= width * channels * (deep ? 2 : 1) else {
    throw ImageError(.unsupported, "HEIF pictures with \(bits)-bit samples")
  }

  guard let rgba = PixelBuffer(zeroedCount: width * height * 4) else {
    throw ImageError(.tooLarge, "not enough memory for a \(width) × \(height) picture")
  }
  let out = rgba.bytes
  out.initialize(repeating: 255)
  let maxValue = (1 << bits) - 1
  do {
    for y in 0..<height {
      let row = plane + y * Int(rowStride)
      for x in 0..<width {
        let target = (y * width + x) * 4
        for c in 0..<channels {
          if deep {
            let at = (x * channels + c) * 2
            // Little-endian 16-bit containers holding `bits`-bit values.
            let value = min(Int(row[at]) | Int(row[at + 1]) << 8, maxValue)
            out[target + c] = eightBits(value, maxValue: maxValue)
          } else {
            out[target + c] = row[x * channels + c]
          }
        }
      }
    }
  }
  // libheif hands premultiplied pictures out as stored; hexmask works in straight alpha.
  if hasAlpha
    && (heif_image_is_premultiplied_alpha(image) != 0
      || heif_image_handle_is_premultiplied_alpha(handle) != 0)
  {
    unpremultiply(out)
  }
  let opaque = !hasAlpha || stride(from: 3, to: out.count, by: 4).allSatisfy { out[$0] == 255 }
  return (width, height, rgba, opaque)
}

/// `value` (0...`maxValue`, e.g. 1023 for 10 bits) rounded to the nearest 8-bit value.
/// `maxValue` is odd, so there are no ties.
func eightBits(_ value: Int, maxValue: Int) -> UInt8 {
  UInt8((value * 255 + maxValue / 2) / maxValue)
}

/// Turns premultiplied RGBA8 into straight alpha, rounding to nearest.
func unpremultiply(_ rgba: UnsafeMutableBufferPointer<UInt8>) {
  for pixel in stride(from: 0, to: rgba.count, by: 4) {
    let alpha = Int(rgba[pixel + 3])
    guard alpha != 0, alpha != 255 else { continue }
    for c in 0..<3 {
      rgba[pixel + c] = UInt8(min(255, (Int(rgba[pixel + c]) * 255 + alpha / 2) / alpha))
    }
  }
}

/// Throws the `ImageError` for a failed libheif call, with libheif's message as the reason.
private func check(_ error: heif_error) throws(ImageError) {
  guard error.code != heif_error_Ok else { return }
  let message = error.message.map { String(cString: $0) } ?? ""
  // One line: libheif's messages may hold newlines (the size-limit one ends with one).
  let text = userMessage(
    message.split(whereSeparator: \.isNewline).joined(separator: " "))
  let kind: ImageError.Kind
  switch error.code {
  case heif_error_Memory_allocation_error:
    kind = .tooLarge
  case heif_error_Unsupported_feature, heif_error_Unsupported_filetype,
    heif_error_Plugin_loading_error:
    kind = .unsupported
  default:
    kind =
      error.subcode == heif_suberror_Security_limit_exceeded
      ? .tooLarge : error.subcode == heif_suberror_Unsupported_codec ? .unsupported : .corrupt
  }
  let reason =
    kind == .corrupt && !text.lowercased().contains("heif") ? "corrupt HEIF: \(text)" : text
  throw ImageError(kind, reason.isEmpty ? "corrupt HEIF file" : reason)
}

/// `unpremultiply` for pixels in an array.
func unpremultiply(_ rgba: inout [UInt8]) {
  rgba.withUnsafeMutableBufferPointer { unpremultiply($0) }
}
