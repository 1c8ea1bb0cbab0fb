import CImageShims

/// Decodes a PNG of any bit depth, colour type and interlacing to straight RGBA8.
///
/// Palettes and tRNS become alpha, 16-bit samples are scaled with rounding, gray
/// becomes RGB. Sample values pass through unchanged: gAMA, sRGB and cHRM are ignored,
/// as most web tools do. The eXIf chunk and the iCCP profile, when libpng accepts them,
/// are in `metadata`, with libpng's reason when it dropped one. The decoder reads from the
/// FILE it is given and never closes it.
///
/// ```swift
/// let decoder = try PNGDecoder(file: fp, signatureBytes: 8, maxPixels: 1 << 28)
/// ```
///
/// - Complexity: memory O(width), or O(width × height) for Adam7-interlaced files,
///   which the format forces to be decoded whole (taken from the memory budget first).
final class PNGDecoder: ImageDecoder {
  private(set) var width = 0
  private(set) var height = 0
  var warnings: [Warning] {
    let all = shimWarnings(.damagedInput, count: hm_png_reader_warning_count(reader)) {
      hm_png_reader_warning(reader, $0)
    }
    return all.filter { !isAboutMetadata($0.description) }
  }
  private(set) var metadata = ImageMetadata()

  private let reader: OpaquePointer
  private var rowsRead = 0
  /// The memory budget's share an interlaced picture (and an EXIF turn's copy) holds.
  private var reservation: MemoryReservation?

  /// Reads the header from `file`, whose first `signatureBytes` bytes the caller
  /// already consumed and checked, and refuses images of more than `maxPixels`
  /// before any pixel memory is allocated. An Adam7 picture, held whole, takes its
  /// memory from `memory` first (with the upright copy an EXIF turn needs, `autoOrient`),
  /// and is refused there when it can never fit.
  ///
  /// `replay` holds bytes after the signature that the caller also took (looking for an
  /// animation control chunk); they are read before the rest of `file`.
  init(
    file: CFile, signatureBytes: Int, replay: [UInt8] = [], maxPixels: Int,
    memory: MemoryBudget? = nil, autoOrient: Bool = false
  ) throws(ImageError) {
    guard let reader = hm_png_reader_create() else {
      throw ImageError(.tooLarge, "out of memory")
    }
    self.reader = reader
    guard hm_png_reader_replay(reader, replay, replay.count) != 0 else {
      width = 0
      height = 0
      throw ImageError(.tooLarge, "out of memory")
    }
    // From here on deinit frees the reader, whatever throws.
    let maxSide = UInt32(clamping: min(max(maxPixels, 1), 0x7fff_ffff))
    do {
      try callShim(format: "PNG") {
        hm_png_reader_open(reader, file, Int32(signatureBytes), maxSide, $0, $1)
      }
    } catch {
      width = Int(hm_png_reader_width(reader))
      height = Int(hm_png_reader_height(reader))
      if error.kind == .tooLarge && width > 0 && height > 0 {
        throw .tooManyPixels(width: width, height: height, maxPixels: maxPixels)
      }
      throw error
    }
    width = Int(hm_png_reader_width(reader))
    height = Int(hm_png_reader_height(reader))
    var size = 0
    metadata.exif = copyBytes(hm_png_reader_exif(reader, &size), size)
    metadata.iccProfile = copyBytes(hm_png_reader_icc(reader, &size), size)
    metadata.isGray = hm_png_reader_gray(reader) != 0
    // libpng also complains about profiles it keeps ("PCS illuminant is not D50");
    // only a chunk that was dropped is worth a warning.
    let dropped =
      (metadata.exif == nil ? ["eXIf"] : []) + (metadata.iccProfile == nil ? ["iCCP"] : [])
    metadata.warnings = shimWarnings(.metadataDropped, count: hm_png_reader_warning_count(reader)) {
      hm_png_reader_warning(reader, $0)
    }.filter { warning in dropped.contains { warning.description.hasPrefix($0) } }
    if width * height > maxPixels {
      throw .tooManyPixels(width: width, height: height, maxPixels: maxPixels)
    }
    // libpng's Adam7 spreads each row over seven passes: the shim keeps the RGBA8 image
    // and a pointer per row.
    let image = wholeBytes(width, height, 4)
    let pointers = height * MemoryLayout<UnsafeMutableRawPointer>.size
    let whole =
      hm_png_reader_interlaced(reader) == 0
      ? 0
      : image > Int.max - pointers ? Int.max : image + pointers
    reservation = try reserveWholeDecode(
      whole: whole, width: width, height: height, metadata: metadata, autoOrient: autoOrient,
      memory: memory)
    try callShim(format: "PNG") { hm_png_reader_start(reader, $0, $1) }
  }

  deinit { hm_png_reader_destroy(reader) }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try checkRead(of: row, index: rowsRead)
    try callShim(format: "PNG") { hm_png_reader_read_row(reader, row.baseAddress, $0, $1) }
    rowsRead += 1
  }
}

/// libpng names the chunk its complaint is about ("iCCP: …"); those about the
/// metadata chunks belong in `ImageMetadata.warnings`.
private func isAboutMetadata(_ warning: String) -> Bool {
  warning.hasPrefix("iCCP") || warning.hasPrefix("eXIf")
}
