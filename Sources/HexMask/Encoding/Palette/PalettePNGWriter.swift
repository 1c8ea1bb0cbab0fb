import CZlib

/// Writes a palette PNG (colour type 3): at most `colors` entries chosen by
/// ``PaletteQuantizer``, PLTE and a tRNS that stops after the last non-opaque entry,
/// indices at the smallest bit depth (1, 2, 4 or 8) that holds the entries.
///
/// The palette is chosen from the whole picture, so rows are kept (4 bytes a pixel) until
/// `finish()`, and counting its colours takes about as much again: ``cost`` in
/// all, a few MB for an avatar. A picture that would need more than the memory budget's
/// whole limit is refused at once (`ImageError` with `memory`). The bytes are checked
/// against the limit but not taken from the budget: a render that holds a decoder's
/// reservation and waited for a second one could wait forever behind another render's
/// request (requests are served in order). Rows are stored
/// unfiltered: an index says nothing about its neighbour's value, so the prediction
/// filters only scramble runs that deflate would find (libpng and pngquant choose none
/// for palettes too). The bytes depend only on the pixels, `colors` and the zlib level.
/// A mask's gray levels become a gray palette (entries with red = green = blue).
///
/// ```swift
/// let writer = try PalettePNGWriter(file: fp, width: 256, height: 256, colors: 64)
/// for row in rows { try row.withUnsafeBufferPointer { try writer.writeRow($0) } }
/// try writer.finish()
/// ```
final class PalettePNGWriter: ImageWriter {
  private(set) var warnings: [Warning] = []

  /// The entries a palette PNG may have.
  static let colorsRange = 2...256

  /// The most memory the writer holds a pixel: the picture (4), each pixel's colour key,
  /// its place in the radix sort (twice) and its colour's index (4 each), its palette
  /// index (1), and the packed and deflated rows (about 2).
  /// Measured peaks over an idle render: 17 MiB at 500² of noise (72 a pixel), 50 MiB at
  /// 1000² and 157 MiB at 2000² dithered (37 a pixel), 269 MiB at 3000² (30 a pixel); a
  /// photo's fewer colours take less (19 a pixel). Noise in the alpha too makes every pixel
  /// a colour of its own: 60 a pixel at 3000² (a tryout).
  static let cost = EncodingCost(fixed: 14 << 20, perPixel: 64)

  /// Most pixels a palette PNG may have: the colour count packs a pixel's number in 32
  /// bits.
  static let maxPixels = 1 << 31

  private let file: CFile
  private let width: Int
  private let height: Int
  private let channels: Int
  private let colors: Int
  private let dither: Bool
  private let level: Int
  private let iccProfile: [UInt8]?
  private let srgb: Bool
  private let mark: Bool
  private var pixels: [UInt8] = []
  private var rowsWritten = 0
  private var finished = false

  /// A writer for `width`×`height` pixels of `channels` bytes (4: straight RGBA, 1: gray),
  /// deflated at zlib `level` (0…9), `dither`ed (``OrderedDither``) when asked;
  /// `iccProfile`, `srgb` and `mark` are written as for ``PNGStreamEncoder``.
  init(
    file: CFile, width: Int, height: Int, channels: Int = 4, colors: Int,
    dither: Bool = false, level: Int = 9, iccProfile: [UInt8]? = nil, srgb: Bool = false,
    memory: MemoryBudget? = nil, mark: Bool = true
  ) throws(ImageError) {
    let sides = 1...0x7fff_ffff
    let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
    guard sides.contains(width), sides.contains(height), !overflow,
      pixelCount <= Self.maxPixels
    else {
      throw ImageError(.writeFailed, "cannot write a \(width)×\(height) palette PNG")
    }
    try checkEncodingMemory(
      Self.cost.bytes(width: width, height: height), for: "a \(width)×\(height) palette PNG",
      purpose: "to choose its colours", memory: memory)
    guard channels == 1 || channels == 4 else {
      throw ImageError(
        .writeFailed, "PNG pixels must have 1 (gray) or 4 (RGBA) bytes, not \(channels)")
    }
    guard Self.colorsRange.contains(colors) else {
      throw ImageError(.writeFailed, "a PNG palette must have 2…256 colours, not \(colors)")
    }
    guard (0...9).contains(level) else {
      throw ImageError(.writeFailed, "PNG compression level must be 0…9, not \(level)")
    }
    (self.file, self.width, self.height) = (file, width, height)
    (self.channels, self.colors, self.level) = (channels, colors, level)
    self.mark = mark
    self.srgb = srgb && iccProfile == nil
    // Refused here, not in finish(): a render reports its writers' warnings before it
    // finishes them (and strict mode fails on them).
    if let iccProfile, let refusal = pngProfileRefusal(iccProfile, gray: false) {
      warnings.append(
        Warning(.profileNotWritten, "ICC profile not written: \(userMessage(refusal))"))
      self.iccProfile = nil
    } else {
      self.iccProfile = iccProfile
    }
    self.dither = dither
    pixels.reserveCapacity(pixelCount * 4)
  }

  /// Takes the next row: exactly `width * channels` bytes.
  func writeRow(_ row: UnsafeBufferPointer<UInt8>) throws(ImageError) {
    guard row.count == width * channels else {
      throw ImageError(.writeFailed, "a row holds \(width * channels) bytes, not \(row.count)")
    }
    guard !finished, rowsWritten < height else {
      throw ImageError(.writeFailed, "more rows written than the image has")
    }
    if channels == 4 {
      pixels.append(contentsOf: row)
    } else {
      // Element by element: an array literal a pixel would allocate for every pixel.
      for gray in row {
        pixels.append(gray)
        pixels.append(gray)
        pixels.append(gray)
        pixels.append(255)
      }
    }
    rowsWritten += 1
  }

  /// Chooses the palette and writes the whole file.
  func finish() throws(ImageError) {
    guard !finished, rowsWritten == height else {
      throw ImageError(.writeFailed, "only \(rowsWritten) of \(height) rows were written")
    }
    finished = true
    let indexed = PaletteQuantizer(colors: colors).quantize(
      pixels, width: width, dither: dither)
    pixels = []
    let chunks = PNGChunkWriter(file: file)
    let depth = Self.bitDepth(entries: indexed.entries.count)
    try chunks.writeSignature()
    try chunks.writeChunk(
      "IHDR", bigEndianBytes(UInt32(width)) + bigEndianBytes(UInt32(height)) + [depth, 3, 0, 0, 0])
    if mark { try chunks.writeChunk("tEXt", HexMaskMark.pngText) }
    if srgb { try chunks.writeChunk("sRGB", srgbChunkData) }
    if let iccProfile { try chunks.writeChunk("iCCP", iccProfileChunkData(iccProfile)) }
    try chunks.writeChunk("PLTE", indexed.entries.flatMap { [$0.red, $0.green, $0.blue] })
    // Non-opaque entries come first, so tRNS ends at the last of them.
    let alphas = indexed.entries.map(\.alpha)
    if let last = alphas.lastIndex(where: { $0 != 255 }) {
      try chunks.writeChunk("tRNS", Array(alphas[...last]))
    }
    let stream = try deflated(packedRows(indexed.indices, depth: Int(depth)))
    var idat = IDATStream()
    try idat.append(stream, to: chunks)
    try idat.flush(to: chunks)
    try chunks.writeChunk("IEND")
    try chunks.flush()
  }

  /// The fewest bits a pixel that holds `entries` indices: 1, 2, 4 or 8.
  static func bitDepth(entries: Int) -> UInt8 {
    switch entries {
    case ...2: 1
    case ...4: 2
    case ...16: 4
    default: 8
    }
  }

  /// Each row as filter type 0 (none) and its indices packed `depth` bits each, leftmost
  /// pixel in the highest bits (PNG specification §7.2).
  private func packedRows(_ indices: [UInt8], depth: Int) -> [UInt8] {
    let rowBytes = (width * depth + 7) / 8
    var packed = [UInt8](repeating: 0, count: height * (rowBytes + 1))
    for y in 0..<height {
      let start = y * (rowBytes + 1) + 1
      for x in 0..<width {
        let bit = x * depth
        let shift = 8 - depth - bit % 8
        packed[start + bit / 8] |= indices[y * width + x] << shift
      }
    }
    return packed
  }

  /// `data` as one zlib stream at `level`.
  private func deflated(_ data: [UInt8]) throws(ImageError) -> [UInt8] {
    var size = compressBound(uLong(data.count))
    var compressed = [UInt8](repeating: 0, count: Int(size))
    let status = compressed.withUnsafeMutableBufferPointer { out in
      data.withUnsafeBufferPointer { input in
        compress2(out.baseAddress, &size, input.baseAddress, uLong(input.count), Int32(level))
      }
    }
    guard status == Z_OK else {
      throw ImageError(.writeFailed, "cannot write PNG: zlib error \(status)")
    }
    return Array(compressed[..<Int(size)])
  }
}
