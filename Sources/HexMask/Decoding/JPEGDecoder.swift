import CImageShims

/// Decodes a baseline, progressive or arithmetic-coded 8-bit JPEG (YCbCr, RGB,
/// grayscale, CMYK or YCCK) to RGBA8 with opaque alpha, one scanline at a time.
///
/// CMYK and YCCK become sRGB through the file's ICC profile when it has one lcms2 can use
/// (`metadata.convertedToSRGB` then says so), otherwise by the naive conversion of
/// `convertCMYKToRGBA`; both honour Adobe's inverted CMYK. The EXIF block (APP1) and the ICC profile (APP2 segments,
/// reassembled) are in `metadata`. 12-bit and lossless files are refused as
/// `.unsupported`. Data errors
/// libjpeg can work around (a truncated scan) become `warnings`; the missing part of
/// the image decodes as gray. The decoder never closes the FILE it is given.
///
/// Given a `targetSide`, the decoder shrinks on load: libjpeg decodes at 1/2, 1/4 or
/// 1/8 of the stored size (as `shrinkFactor` chooses), and `width` and `height` are that
/// smaller size, rounded up.
///
/// ```swift
/// let decoder = try JPEGDecoder(file: fp, prefix: [0xFF, 0xD8, 0xFF], maxPixels: 1 << 28)
/// let small = try JPEGDecoder(file: fp2, prefix: [0xFF, 0xD8, 0xFF], maxPixels: 1 << 28, targetSide: 256)
/// ```
///
/// - Complexity: memory O(width), except progressive files, for which libjpeg keeps
///   the coefficients of the whole image (taken from the memory budget first).
final class JPEGDecoder: ImageDecoder {
  /// JPEG has no alpha channel.
  let isOpaque = true
  private(set) var width = 0
  private(set) var height = 0
  var warnings: [Warning] {
    shimWarnings(.damagedInput, count: hm_jpeg_reader_warning_count(reader)) {
      hm_jpeg_reader_warning(reader, $0)
    }
  }

  private(set) var metadata = ImageMetadata()

  private let reader: OpaquePointer
  private var rowsRead = 0
  /// How the rows libjpeg delivers are laid out.
  private var color = HM_JPEG_RGBA
  /// Converts CMYK rows through the file's profile; nil: by the formula (or RGB rows).
  private var cmykProfile: HexMask.ColourTransform?
  /// The memory budget's share a progressive picture's coefficients (and an EXIF turn's
  /// copy) hold.
  private var reservation: MemoryReservation?

  /// Reads the headers from `file`, after the bytes in `prefix` that the caller
  /// already consumed from it, and refuses images of more than `maxPixels` (counted at
  /// the stored size) before decompression starts. With a `targetSide`, decodes at the
  /// smaller size `shrinkFactor` allows for it. A file libjpeg decodes whole (progressive,
  /// or components in separate scans) takes the coefficients' memory from `memory` before
  /// decompression starts (with the upright copy an EXIF turn needs, `autoOrient`), and is
  /// refused there when it can never fit.
  init(
    file: CFile, prefix: [UInt8], maxPixels: Int, targetSide: Int? = nil,
    memory: MemoryBudget? = nil, autoOrient: Bool = false
  ) throws(ImageError) {
    guard let reader = hm_jpeg_reader_create() else {
      throw ImageError(.tooLarge, "out of memory")
    }
    self.reader = reader
    // From here on deinit frees the reader, whatever throws.
    try prefix.withUnsafeBufferPointer { (bytes) throws(ImageError) in
      try callShim(format: "JPEG") {
        hm_jpeg_reader_open(reader, file, bytes.baseAddress, bytes.count, $0, $1)
      }
    }
    width = Int(hm_jpeg_reader_width(reader))
    height = Int(hm_jpeg_reader_height(reader))
    color = hm_jpeg_reader_color(reader)
    metadata = Self.metadata(of: reader)
    metadata.isGray = color == HM_JPEG_RGBA ? hm_jpeg_reader_gray(reader) != 0 : nil
    if color != HM_JPEG_RGBA, let profile = metadata.iccProfile { useCMYKProfile(profile) }
    if width * height > maxPixels {
      throw .tooManyPixels(width: width, height: height, maxPixels: maxPixels)
    }
    (metadata.storedWidth, metadata.storedHeight) = (width, height)
    // The denominator libjpeg decodes at: 1 (full size), 2, 4 or 8.
    let shrink =
      targetSide.map { shrinkFactor(sourceShortSide: min(width, height), targetSide: $0) } ?? 1
    // The coefficients are kept at the stored size, whatever the shrink.
    let whole = Int(clamping: hm_jpeg_reader_whole_bytes(reader))
    reservation = try reserveWholeDecode(
      whole: whole, width: (width + shrink - 1) / shrink, height: (height + shrink - 1) / shrink,
      metadata: metadata, autoOrient: autoOrient, memory: memory)
    // Behind the reservation, libjpeg's own limit, with room for its row buffers.
    if whole > 0 {
      let (limit, overflow) = whole.addingReportingOverflow(64 << 20)
      hm_jpeg_reader_limit_memory(reader, overflow ? Int.max : limit)
    }
    try callShim(format: "JPEG") { hm_jpeg_reader_start(reader, UInt32(shrink), $0, $1) }
    width = Int(hm_jpeg_reader_output_width(reader))
    height = Int(hm_jpeg_reader_output_height(reader))
  }

  deinit { hm_jpeg_reader_destroy(reader) }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try checkRead(of: row, index: rowsRead)
    try callShim(format: "JPEG") { hm_jpeg_reader_read_row(reader, row.baseAddress, $0, $1) }
    rowsRead += 1
    if let cmykProfile {
      cmykProfile.convert(row)
    } else if color != HM_JPEG_RGBA {
      convertCMYKToRGBA(row, inverted: color == HM_JPEG_CMYK_INVERTED)
    }
  }

  /// A CMYK profile can never describe the RGB pixels hexmask writes, so it is used here,
  /// once, rather than dropped. One lcms2 cannot use, or that is not CMYK, cannot describe
  /// these rows either: the formula converts them, and the profile is left out with a
  /// warning (no later stage may take it for the RGB rows' profile).
  private func useCMYKProfile(_ profile: [UInt8]) {
    do throws(HexMask.ColourProfileError) {
      let transform = try HexMask.ColourTransform.shared(
        iccProfile: profile, invertedCMYK: color == HM_JPEG_CMYK_INVERTED)
      guard transform.input == .cmyk else {
        throw HexMask.ColourProfileError(
          kind: .unsupportedColourSpace, reason: "not a CMYK ICC profile, on CMYK pixels")
      }
      cmykProfile = transform
      metadata.convertedToSRGB = true
    } catch {
      metadata.iccProfile = nil
      metadata.warnings.append(
        Warning(.profileUnusable, "ICC profile not used (\(error.reason)); colours may be off"))
    }
  }

  /// Copies what the APP1 and APP2 markers held out of the reader.
  private static func metadata(of reader: OpaquePointer) -> ImageMetadata {
    var size = 0
    let exif = copyBytes(hm_jpeg_reader_exif(reader, &size), size)
    let segments = (0..<hm_jpeg_reader_icc_segment_count(reader)).map { index in
      copyBytes(hm_jpeg_reader_icc_segment(reader, index, &size), size) ?? []
    }
    let icc = reassembleICCProfile(segments, tooMany: hm_jpeg_reader_icc_overflow(reader) != 0)
    return ImageMetadata(
      exif: exif, iccProfile: icc.profile,
      warnings: icc.warning.map { [Warning(.metadataDropped, $0)] } ?? [])
  }
}
