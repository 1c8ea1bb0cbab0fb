import CJXL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a JPEG XL, still or animated, lossy or lossless, always with alpha, through
/// libjxl's encoder. A still is the one-frame case: ``writeRow(_:)`` keeps the rows and
/// ``finish()`` adds them as the only frame; an animation adds each frame as it comes.
///
/// The file is a JPEG XL container written here, not by libjxl, so that hexmask's mark
/// (``HexMaskMark``) has a box of its own and the codestream can stream: the signature
/// box, `ftyp`, the mark's `free` box, then the codestream in `jxlp` boxes (ISO/IEC
/// 18181-2's boxes for a codestream in parts), each written as libjxl hands out bytes and
/// the last one flagged when the file ends. An animation's frames are encoded and written
/// one by one, so memory follows a frame, not the animation. Without the mark the
/// codestream is written bare.
///
/// - **Lossy** by ``distance(quality:)``, libjxl's butteraugli distance for hexmask's
///   quality; **lossless** keeps every byte of every pixel (modular, no XYB).
/// - **Effort** 0…9 is libjxl's effort 1…9 (0 is 1), as libvips' `jxlsave` effort.
/// - **Colour**: the ICC profile when given (an RGB one), else sRGB named in the header.
/// - **Deterministic**: libjxl runs on the calling thread (no parallel runner), and nothing
///   that varies between runs is written, so the same pixels, settings and library
///   (``jxlVersion``) give the same bytes.
///
/// ```swift
/// let writer = try JXLWriter(file: fp, width: 256, height: 256, quality: .lossy(85))
/// for row in rows { try row.withUnsafeBufferPointer { try writer.writeRow($0) } }
/// try writer.finish()
/// ```
package final class JXLWriter: ImageWriter, AnimationWriter {
  package private(set) var warnings: [Warning] = []

  /// The largest side hexmask writes: JPEG XL's own limit is 2^30, but libjxl 0.7's
  /// level 5 (what every decoder must read) stops at 2^18 = 262144.
  package static let maximumSide = 262_144

  /// What encoding a frame holds, per pixel: the frame given (4, RGBA8) and libjxl 0.7's
  /// own, its float copies and per-block state, which depend on the effort and the
  /// picture. Measured peak RSS (whole renders): at effort 7, a 2000² plasma 520 MiB (130 a
  /// pixel), a 1500² flat picture 509 MiB (226), a 3000² photo 1.91 GiB (228), lossless
  /// alike; at effort 3 or 6, the flat picture 216 MiB (96); at effort 9, a 3000² photo
  /// 2.45 GiB (292).
  static func cost(effort: Int?) -> EncodingCost {
    let effort = effort ?? defaultEffort
    return EncodingCost(fixed: 32 << 20, perPixel: effort >= 8 ? 320 : effort == 7 ? 256 : 160)
  }

  private let file: CFile
  private let width: Int
  private let height: Int
  private let mark: Bool
  private let encoder: OpaquePointer
  private let settings: OpaquePointer
  /// The rows of a still, until ``finish()``; nil for an animation.
  private var kept: KeptRows?
  /// An animation's latest frame and its delay, encoded when the next comes or the file
  /// ends: libjxl encodes a frame when its output is asked for, and marks it as the last
  /// only when the input was closed by then.
  private var held: (pixels: [UInt8], delay: Int)?
  /// The bytes libjxl handed out last, held back so that the box holding the file's last
  /// bytes can say it is the last.
  private var pending: [UInt8] = []
  private var parts: UInt32 = 0
  private var finished = false

  /// Prepares a `width`×`height` JPEG XL. Lossy at `quality` (``HexMask/Output/qualityRange``)
  /// or lossless; `effort` (``HexMask/Output/effortRange``, nil for libjxl's default, 7).
  /// An animation (`loopCount` plays in all, 0 forever) takes ``addFrame(_:delayMilliseconds:)``;
  /// a still takes rows. Nothing is written before the first frame is encoded.
  package init(
    file: CFile, width: Int, height: Int, quality: HexMask.Output.Quality = .lossy(85),
    effort: Int? = nil, iccProfile: [UInt8]? = nil, animation loopCount: Int? = nil,
    memory: MemoryBudget? = nil, mark: Bool = true
  ) throws(ImageError) {
    let sides = 1...Self.maximumSide
    guard sides.contains(width), sides.contains(height) else {
      throw ImageError(
        .writeFailed,
        "cannot write a \(width)×\(height) JPEG XL (at most \(Self.maximumSide) a side)")
    }
    if case .lossy(let value) = quality, !HexMask.Output.qualityRange.contains(value) {
      throw ImageError(.writeFailed, "JPEG XL quality must be 1…100, not \(value)")
    }
    let effort = effort ?? Self.defaultEffort
    guard HexMask.Output.effortRange.contains(effort) else {
      throw ImageError(.writeFailed, "JPEG XL effort must be 0…9, not \(effort)")
    }
    // Quality 100 is lossless, as cjxl's `-q 100` is.
    let lossless = quality == .lossless || quality == .lossy(100)
    if loopCount == nil {
      kept = try KeptRows(
        width: width, height: height, format: "JPEG XL", cost: Self.cost(effort: effort),
        memory: memory)
    }
    guard let encoder = JxlEncoderCreate(nil) else {
      throw ImageError(.writeFailed, "cannot write JPEG XL: out of memory")
    }
    guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
      JxlEncoderDestroy(encoder)
      throw ImageError(.writeFailed, "cannot write JPEG XL: out of memory")
    }
    self.file = file
    self.width = width
    self.height = height
    self.mark = mark
    self.encoder = encoder
    self.settings = settings
    var profile = iccProfile
    if let given = iccProfile, let refusal = rgbProfileRefusal(given) {
      warnings.append(Warning(.profileNotWritten, refusal))
      profile = nil
    }
    try configure(
      lossless: lossless, quality: quality, effort: effort, profile: profile,
      loopCount: loopCount)
  }

  deinit { JxlEncoderDestroy(encoder) }

  /// libjxl's own default effort ("squirrel").
  package static let defaultEffort = 7

  /// libjxl's distance for hexmask's `quality`: cjxl 0.7's mapping of its `-q` (libjxl
  /// 0.9's `JxlEncoderDistanceFromQuality`), so that a quality means what it means to
  /// cjxl and libvips: 100 is distance 0, lossless (as cjxl's `-q 100`), 99 is 0.19, 90 is
  /// 1.0 (visually lossless), 30 and below climb steeply to 25 at quality 1.
  package static func distance(quality: Int) -> Float {
    let q = Float(min(max(quality, 1), 100))
    if q >= 100 { return 0 }
    if q >= 30 { return 0.1 + (100 - q) * 0.09 }
    return min(25, 6.4 + Float(pow(2.5, Double(30 - q) / 5)) / 6.25)
  }

  private func configure(
    lossless: Bool, quality: HexMask.Output.Quality, effort: Int, profile: [UInt8]?,
    loopCount: Int?
  ) throws(ImageError) {
    var info = JxlBasicInfo()
    JxlEncoderInitBasicInfo(&info)
    info.xsize = UInt32(width)
    info.ysize = UInt32(height)
    info.bits_per_sample = 8
    info.num_color_channels = 3
    info.num_extra_channels = 1
    info.alpha_bits = 8
    // Lossless keeps the picture's own numbers; lossy lets libjxl code in XYB.
    info.uses_original_profile = lossless ? 1 : 0
    if let loopCount {
      info.have_animation = 1
      info.animation.tps_numerator = 1000  // a tick is a millisecond
      info.animation.tps_denominator = 1
      info.animation.num_loops = UInt32(clamping: loopCount)
    }
    try check(JxlEncoderSetBasicInfo(encoder, &info), "its header")
    if let profile {
      try check(JxlEncoderSetICCProfile(encoder, profile, profile.count), "its colour profile")
    } else {
      var srgb = JxlColorEncoding()
      JxlColorEncodingSetToSRGB(&srgb, 0)
      try check(JxlEncoderSetColorEncoding(encoder, &srgb), "its colour")
    }
    try check(
      JxlEncoderFrameSettingsSetOption(
        settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(max(1, effort))), "its effort")
    if lossless {
      try check(JxlEncoderSetFrameDistance(settings, 0), "lossless")
      try check(JxlEncoderSetFrameLossless(settings, 1), "lossless")
    } else if case .lossy(let value) = quality {
      try check(JxlEncoderSetFrameDistance(settings, Self.distance(quality: value)), "quality")
    }
  }

  /// Keeps the next row of a still: exactly `width * 4` bytes of straight RGBA.
  package func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {
    guard kept != nil else {
      throw ImageError(.writeFailed, "an animated JPEG XL takes frames, not rows")
    }
    try kept?.append(row)
  }

  /// Encodes the still's rows as its one frame and ends the file.
  package func finish() throws(ImageError) {
    guard var rows = kept else {
      throw ImageError(.writeFailed, "an animated JPEG XL is finished with its loop count")
    }
    try rows.close()
    kept = nil
    try encode(rows.pixels, delayMilliseconds: nil, last: true)
  }

  /// Encodes the next frame of an animation (`width × height × 4` bytes) and writes what
  /// libjxl hands out.
  package func addFrame(_ pixels: UnsafeBufferPointer<UInt8>, delayMilliseconds: Int)
    throws(ImageError)
  {
    guard kept == nil else {
      throw ImageError(.writeFailed, "a still JPEG XL takes rows, not frames")
    }
    guard pixels.count == width * height * 4 else {
      throw ImageError(
        .writeFailed,
        "a \(width)×\(height) frame holds \(width * height * 4) bytes, not \(pixels.count)")
    }
    if let (previous, delay) = held {
      try encode(previous, delayMilliseconds: delay, last: false)
    }
    held = (Array(pixels), delayMilliseconds)
  }

  /// Ends the animation; its plays were set when it was made.
  package func finish(loopCount: Int) throws(ImageError) {
    guard kept == nil, let (last, delay) = held else {
      throw ImageError(.writeFailed, "cannot write JPEG XL: an animation without frames")
    }
    held = nil
    try encode(last, delayMilliseconds: delay, last: true)
  }

  /// Encodes one frame (the last closes the file) and writes what libjxl hands out.
  private func encode(_ pixels: [UInt8], delayMilliseconds: Int?, last: Bool)
    throws(ImageError)
  {
    guard !finished else { throw ImageError(.writeFailed, "the JPEG XL is finished") }
    if let delayMilliseconds {
      var header = JxlFrameHeader()
      JxlEncoderInitFrameHeader(&header)
      header.duration = UInt32(clamping: delayMilliseconds)
      try check(JxlEncoderSetFrameHeader(settings, &header), "a frame's duration")
    }
    var format = JxlPixelFormat(
      num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    try check(JxlEncoderAddImageFrame(settings, &format, pixels, pixels.count), "a frame")
    guard last else { return try drain() }
    // Before libjxl encodes it (in `drain`), so that it marks it as the last.
    finished = true
    JxlEncoderCloseInput(encoder)
    try drain()
    try write(part(pending, last: true))
    pending = []
    if fflush(file) != 0 || ferror(file) != 0 {
      throw ImageError(
        .writeFailed, "cannot write JPEG XL: \(userMessage(String(cString: strerror(errno))))")
    }
  }

  /// Takes every byte libjxl has ready and writes all but the last batch (held back for
  /// the last box's flag).
  private func drain() throws(ImageError) {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      var status = JXL_ENC_NEED_MORE_OUTPUT
      var produced = 0
      chunk.withUnsafeMutableBufferPointer { buffer in
        var next = buffer.baseAddress
        var room = buffer.count
        status = JxlEncoderProcessOutput(encoder, &next, &room)
        produced = buffer.count - room
      }
      if produced > 0 {
        if !pending.isEmpty { try write(part(pending, last: false)) }
        pending = Array(chunk[..<produced])
      }
      switch status {
      case JXL_ENC_NEED_MORE_OUTPUT: continue
      case JXL_ENC_SUCCESS: return
      default:
        throw ImageError(
          .writeFailed,
          "cannot write JPEG XL: libjxl failed (error \(JxlEncoderGetError(encoder).rawValue))")
      }
    }
  }

  /// `bytes` of the codestream as the file holds them: in a `jxlp` box after the
  /// container's first boxes (before the first part), or bare without the mark.
  private func part(_ bytes: [UInt8], last: Bool) -> [UInt8] {
    guard mark else { return bytes }
    var out: [UInt8] = []
    if parts == 0 {
      out += [0, 0, 0, 12] + Array("JXL ".utf8) + [0x0D, 0x0A, 0x87, 0x0A]
      out += [0, 0, 0, 20] + Array("ftypjxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8)
      let text = HexMaskMark.text
      out += bigEndianBytes(UInt32(8 + text.count)) + Array(HexMaskMark.avifBox.utf8) + text
    }
    // The box's index counts the parts; its top bit marks the last.
    let index = parts | (last ? 0x8000_0000 : 0)
    parts += 1
    out += bigEndianBytes(UInt32(clamping: 12 + bytes.count)) + Array("jxlp".utf8)
    out += bigEndianBytes(index) + bytes
    return out
  }

  private func write(_ bytes: [UInt8]) throws(ImageError) {
    let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    if written != bytes.count || ferror(file) != 0 {
      throw ImageError(
        .writeFailed, "cannot write JPEG XL: \(userMessage(String(cString: strerror(errno))))")
    }
  }

  private func check(_ status: JxlEncoderStatus, _ what: String) throws(ImageError) {
    guard status == JXL_ENC_SUCCESS else {
      throw ImageError(.writeFailed, "cannot write JPEG XL: libjxl refused \(what)")
    }
  }
}
