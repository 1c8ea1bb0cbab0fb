import CZlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The parts of an APNG libpng does not read (APNG 1.0, https://wiki.mozilla.org/APNG_Specification):
// the chunk stream itself, acTL and fcTL. Every number is checked the way Chromium's
// PNGImageReader checks it, so a file a browser refuses is refused here too.

/// One chunk's header as read from the stream; its data is still in the file.
struct PNGChunkHeader {
  /// Declared length of the data, at most 2³¹ − 1 (checked).
  var length: Int
  /// The four type bytes as text, e.g. "fdAT".
  var type: String
  /// The four type bytes as they are, for the CRC.
  var typeBytes: [UInt8]
}

/// Reads PNG chunks one after the other from a FILE or a file's bytes, checking the CRC
/// of every chunk whose data it returns (unless told not to): the library's one walk over
/// PNG chunks.
///
/// A chunk's data is read in steps of at most `step` bytes, so a length field that lies
/// (a 60-byte file claiming a 2 GB chunk) costs only what the file really holds.
final class PNGChunkReader {
  /// Where the chunks come from: a stream, or bytes read on from a position.
  private enum Source {
    case file(CFile)
    case bytes(FileBytes)
  }
  private let source: Source
  static let step = 1 << 16
  /// Bytes already taken from `file` (by the format sniffer), read before the file's.
  private let replay: [UInt8]
  private var replayed = 0
  /// Where the next read of a file's bytes starts.
  private var position = 0
  /// Every byte read, when asked for (`keepingBytes`): a pipe cannot be read twice, so
  /// whoever looks ahead hands them on.
  private(set) var kept: [UInt8] = []
  private let keepsBytes: Bool

  init(file: CFile, replay: [UInt8] = [], keepingBytes: Bool = false) {
    source = .file(file)
    self.replay = replay
    keepsBytes = keepingBytes
  }

  /// Reads the chunks of `bytes` from `offset` (8, after the signature).
  init(bytes: FileBytes, from offset: Int) {
    source = .bytes(bytes)
    position = offset
    replay = []
    keepsBytes = false
  }

  /// The next chunk's length and type; nil at a clean end of file (no byte left).
  func header() throws(ImageError) -> PNGChunkHeader? {
    var bytes = [UInt8](repeating: 0, count: 8)
    let got = read(into: &bytes, at: 0, count: 8)
    if got == 0 && atEnd { return nil }
    guard got == 8 else { throw truncation("a chunk header") }
    let length = Int(bigEndianUInt32(bytes, at: 0))
    let typeBytes = Array(bytes[4..<8])
    let isLetter = typeBytes.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
    guard isLetter else { throw ImageError(.corrupt, "damaged PNG chunk type") }
    let type = String(decoding: typeBytes, as: UTF8.self)
    guard length <= 0x7fff_ffff else {
      throw ImageError(.corrupt, "PNG chunk \(type) declares \(length) bytes")
    }
    return PNGChunkHeader(length: length, type: type, typeBytes: typeBytes)
  }

  /// Appends the chunk's data to `data`, reads the CRC after it and checks it (the
  /// checksum covers the type bytes and the data) unless `checkingCRC` is false. `limit`
  /// caps what may be appended.
  func data(
    of chunk: PNGChunkHeader, appendingTo data: inout [UInt8], limit: Int,
    checkingCRC: Bool = true
  ) throws(ImageError) {
    guard chunk.length <= limit else {
      throw ImageError(.tooLarge, "PNG chunk \(chunk.type) is too large (\(chunk.length) bytes)")
    }
    let start = data.count
    var crc = chunk.typeBytes.withUnsafeBufferPointer { crc32(crc32(0, nil, 0), $0.baseAddress, 4) }
    var rest = chunk.length
    while rest > 0 {
      let count = min(rest, Self.step)
      let at = data.count
      data.append(contentsOf: repeatElement(0, count: count))
      guard read(into: &data, at: at, count: count) == count else {
        data.removeSubrange(at...)
        throw truncation("the \(chunk.type) chunk")
      }
      rest -= count
    }
    data[start...].withUnsafeBufferPointer { crc = crc32(crc, $0.baseAddress, uInt($0.count)) }
    var stored = [UInt8](repeating: 0, count: 4)
    guard read(into: &stored, at: 0, count: 4) == 4 else {
      throw truncation("the \(chunk.type) CRC")
    }
    guard !checkingCRC || UInt32(truncatingIfNeeded: crc) == bigEndianUInt32(stored, at: 0)
    else {
      throw ImageError(.corrupt, "\(chunk.type): CRC error")
    }
  }

  /// The whole data of a small chunk (at most `limit` bytes), CRC checked unless
  /// `checkingCRC` is false.
  func data(of chunk: PNGChunkHeader, limit: Int = 1 << 24, checkingCRC: Bool = true)
    throws(ImageError) -> [UInt8]
  {
    var bytes: [UInt8] = []
    try data(of: chunk, appendingTo: &bytes, limit: limit, checkingCRC: checkingCRC)
    return bytes
  }

  /// Reads past the chunk's data and CRC without keeping or checking them.
  func skip(_ chunk: PNGChunkHeader) throws(ImageError) {
    var scratch = [UInt8](repeating: 0, count: min(chunk.length + 4, Self.step))
    var rest = chunk.length + 4
    while rest > 0 {
      let count = min(rest, scratch.count)
      guard read(into: &scratch, at: 0, count: count) == count else {
        throw truncation("the \(chunk.type) chunk")
      }
      rest -= count
    }
  }

  private func read(into bytes: inout [UInt8], at offset: Int, count: Int) -> Int {
    let got = readSource(into: &bytes, at: offset, count: count)
    if keepsBytes { kept += bytes[offset..<offset + got] }
    return got
  }

  private func readSource(into bytes: inout [UInt8], at offset: Int, count: Int) -> Int {
    let fromReplay = min(count, replay.count - replayed)
    for index in 0..<fromReplay { bytes[offset + index] = replay[replayed + index] }
    replayed += fromReplay
    guard count > fromReplay else { return count }
    switch source {
    case .file(let file):
      return fromReplay
        + bytes.withUnsafeMutableBufferPointer { buffer in
          fread(buffer.baseAddress.map { $0 + offset + fromReplay }, 1, count - fromReplay, file)
        }
    case .bytes(let file):
      let got = file.bytes(at: position, count: count - fromReplay)
      position += got.count
      bytes.replaceSubrange(offset + fromReplay..<offset + fromReplay + got.count, with: got)
      return fromReplay + got.count
    }
  }

  /// True when no byte is left (after a read that got none).
  private var atEnd: Bool {
    switch source {
    case .file(let file): feof(file) != 0
    case .bytes(let file): position >= file.size
    }
  }

  /// A short read: a failing disk is `.unreadable`, the end of the file `.corrupt`.
  private func truncation(_ what: String) -> ImageError {
    if case .file(let file) = source, ferror(file) != 0 {
      return ImageError(.unreadable, "cannot read PNG: \(systemError())")
    }
    return ImageError(.corrupt, "the file ends inside \(what)")
  }
}

/// acTL: how many frames and how many plays (0 = forever).
struct APNGAnimationControl {
  var frameCount: Int
  var plays: Int

  init(_ data: [UInt8]) throws(ImageError) {
    guard data.count == 8 else {
      throw ImageError(.corrupt, "acTL holds \(data.count) bytes, not 8")
    }
    frameCount = Int(bigEndianUInt32(data, at: 0))
    plays = Int(bigEndianUInt32(data, at: 4))
    // Chromium ignores an animation declaring 0 frames or counts past 2³¹ − 1.
    guard frameCount > 0, frameCount <= 0x7fff_ffff, plays <= 0x7fff_ffff else {
      throw ImageError(
        .corrupt,
        "acTL declares \(frameCount) frame\(frameCount == 1 ? "" : "s") and \(plays) "
          + "play\(plays == 1 ? "" : "s") (an APNG has 1 to 2147483647 "
          + "frames and 0 to 2147483647 plays)")
    }
  }
}

/// fcTL: where the next frame goes on the canvas, for how long, and how it is
/// composited and then disposed of.
struct APNGFrameControl {
  enum Dispose: UInt8 {
    case none = 0
    case background = 1
    case previous = 2
  }
  enum Blend: UInt8 {
    case source = 0
    case over = 1
  }

  var sequence: Int
  var width: Int
  var height: Int
  var x: Int
  var y: Int
  var delayNumerator: Int
  var delayDenominator: Int
  var dispose: Dispose
  var blend: Blend

  /// Parses and checks an fcTL against the canvas: a frame of at least 1×1 entirely
  /// inside it (Chromium refuses any other), known dispose and blend operations.
  init(_ data: [UInt8], canvasWidth: Int, canvasHeight: Int) throws(ImageError) {
    guard data.count == 26 else {
      throw ImageError(.corrupt, "fcTL holds \(data.count) bytes, not 26")
    }
    sequence = Int(bigEndianUInt32(data, at: 0))
    width = Int(bigEndianUInt32(data, at: 4))
    height = Int(bigEndianUInt32(data, at: 8))
    x = Int(bigEndianUInt32(data, at: 12))
    y = Int(bigEndianUInt32(data, at: 16))
    delayNumerator = Int(data[20]) << 8 | Int(data[21])
    delayDenominator = Int(data[22]) << 8 | Int(data[23])
    guard let dispose = Dispose(rawValue: data[24]), let blend = Blend(rawValue: data[25]) else {
      throw ImageError(
        .corrupt, "fcTL has unknown dispose or blend operation \(data[24]), \(data[25])")
    }
    self.dispose = dispose
    self.blend = blend
    // All four are below 2³² here, so the sums cannot overflow an Int.
    guard width > 0, height > 0, x + width <= canvasWidth, y + height <= canvasHeight else {
      throw ImageError(
        .corrupt,
        "APNG frame \(width)×\(height) at \(x),\(y) is outside the \(canvasWidth)×\(canvasHeight) canvas"
      )
    }
  }

  /// The delay as Chromium plays it, in milliseconds: num/den seconds (den 0 means 100),
  /// truncated as Chromium's integer arithmetic does; then ``shownMilliseconds(stored:)``.
  var playedMilliseconds: Int {
    let stored =
      delayDenominator == 0
      ? delayNumerator * 10 : delayNumerator * 1000 / delayDenominator
    return shownMilliseconds(stored: stored)
  }
}

func bigEndianUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
  UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
    | UInt32(bytes[offset + 3])
}

extension APNGFrameControl {
  /// The frame's rectangle on `canvas` (inside it: the reader checked).
  func rectangle(on canvas: FrameCanvas) -> CanvasRectangle {
    CanvasRectangle(
      left: x, top: y, width: width, height: height, canvasWidth: canvas.width,
      canvasHeight: canvas.height)
  }
}

extension APNGFrameControl.Dispose {
  /// The same disposal on the canvas every frame reader shares.
  var onCanvas: FrameCanvas.Disposal {
    switch self {
    case .none: .none
    case .background: .background
    case .previous: .previous
    }
  }
}
