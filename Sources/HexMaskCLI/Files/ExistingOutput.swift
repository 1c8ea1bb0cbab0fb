import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an existing output is not replaced without `--force`.
///
/// `hexmask *.jpg` with exactly two photos names the second one as OUTPUT, the classic trap of
/// `cp *.jpg`. hexmask never writes camera metadata (it keeps the ICC profile only) nor
/// HEIC, so a file that holds either is a photo someone cares about, not an earlier output.
/// And a file the user may not write is one `>` would refuse to replace; a rename in a
/// writable folder could, and would hand a root-owned file to the user.
enum ReplacementRefusal: Equatable, Sendable {
  /// The file is a photo hexmask could not have made: `what` says what gave it away.
  case photo(what: String)
  /// `access(2)` says the user may not write it; `reason` is the system's.
  case notWritable(reason: String)

  /// The refusal for replacing the file `path` names, if any: nil when nothing is there,
  /// when it is no regular file (a FIFO or device is written to, not replaced), or when it
  /// may be replaced.
  ///
  /// - Complexity: one `stat`, one `access` and one read of at most 256 KiB.
  init?(replacing path: String) {
    guard path != "-", descriptorNamed(by: path) == nil else { return nil }
    var info = stat()
    guard path.withFileName({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG
    else { return nil }
    // A read-only file system is no permission --force could override: the write itself
    // then fails with that reason.
    if path.withFileName({ access($0, W_OK) }) != 0 && errno != EROFS {
      self = .notWritable(reason: systemError())
      return
    }
    guard let what = photoEvidence(inFileAt: path) else { return nil }
    self = .photo(what: what)
  }
}

extension ReplacementRefusal {
  /// The refusal as one file's failure, for a batch (which goes on with the other files).
  func failure(_ path: String) -> FileFailure {
    switch self {
    case .photo(let what):
      FileFailure(
        file: path,
        reason: "exists and is a photo (\(what)), not a picture hexmask made; refusing to "
          + "replace it (--force replaces it)")
    case .notWritable(let reason):
      FileFailure(file: path, reason: "cannot replace it: \(reason) (--force replaces it)")
    }
  }
}

/// What marks the file at `path` as a photo rather than a picture hexmask wrote, or nil.
func photoEvidence(inFileAt path: String) -> String? {
  let descriptor = path.withFileName { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var head = [UInt8](repeating: 0, count: 256 << 10)
  var count = 0
  while count < head.count {
    let got = head[count...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if got < 0 && errno == EINTR { continue }
    if got <= 0 { break }
    count += got
  }
  return photoEvidence(inHead: head[..<count])
}

/// What in the first bytes of a file marks it as a photo: a HEIF container, a TIFF (camera
/// raw files are TIFF inside), a JPEG, PNG, WebP or AVIF carrying EXIF or XMP, or a JPEG
/// or PNG that is not square.
func photoEvidence(inHead head: ArraySlice<UInt8>) -> String? {
  let bytes = Array(head)
  if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
    return "a TIFF or camera raw file"
  }
  guard let format = ImageFormat(sniffing: bytes.prefix(ImageFormat.sniffLength)) else {
    return nil
  }
  let name = format.displayName
  let metadata: String?
  switch format {
  case .heif: return "a \(name) photo"
  // hexmask writes AVIF too, never with EXIF or XMP: an AVIF that holds either is a photo.
  case .avif: return avifMetadata(bytes).map { "an \(name) with \($0) metadata" }
  case .jpeg: metadata = jpegMetadata(bytes)
  case .png: metadata = pngMetadata(bytes)
  case .webp: metadata = webpMetadata(bytes)
  }
  if let metadata { return "a \(name) with \(metadata) metadata" }
  // Every picture hexmask writes is a square: a JPEG or PNG that is not (a phone photo
  // without EXIF, a screenshot) cannot be an earlier output.
  let size = format == .jpeg ? jpegSize(bytes) : format == .png ? pngSize(bytes) : nil
  if let size, size.width != size.height {
    return "a \(size.width)×\(size.height) \(name); hexmask writes squares only"
  }
  return nil
}

/// A PNG's size from its `IHDR`, the first chunk.
private func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
  guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
  let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
  return (number(16), number(20))
}

/// The marker and body of each segment of a JPEG before its scan, in order; a damaged
/// length ends the walk (never a range that runs backwards).
private func jpegSegments(_ bytes: [UInt8]) -> [(marker: UInt8, body: ArraySlice<UInt8>)] {
  var segments: [(marker: UInt8, body: ArraySlice<UInt8>)] = []
  var offset = 2
  while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
    let marker = bytes[offset + 1]
    if marker == 0xFF {  // fill byte
      offset += 1
      continue
    }
    if marker == 0xDA || marker == 0xD9 { break }  // start of scan, end of image
    let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    guard length >= 2 else { break }
    segments.append((marker, bytes[offset + 4..<min(bytes.count, offset + 2 + length)]))
    offset += 2 + length
  }
  return segments
}

/// A JPEG's size from its start-of-frame segment.
private func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
  // SOF0…SOF15, which are not DHT (C4), JPG (C8) or DAC (CC).
  let frames: Set<UInt8> = Set(0xC0...0xCF).subtracting([0xC4, 0xC8, 0xCC])
  guard let frame = jpegSegments(bytes).first(where: { frames.contains($0.marker) }),
    frame.body.count >= 5
  else { return nil }
  let at = frame.body.startIndex
  let height = Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
  let width = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
  return (width, height)
}

/// EXIF or XMP in a JPEG's APP1 segments.
private func jpegMetadata(_ bytes: [UInt8]) -> String? {
  for segment in jpegSegments(bytes) where segment.marker == 0xE1 {
    if segment.body.starts(with: Array("Exif\0\0".utf8)) { return "EXIF" }
    if segment.body.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8)) { return "XMP" }
  }
  return nil
}

/// EXIF or XMP in a PNG's chunks before its pixels: `eXIf`, an `iTXt` XMP packet, or the
/// `Raw profile type exif/xmp` text chunks ImageMagick writes.
private func pngMetadata(_ bytes: [UInt8]) -> String? {
  var offset = 8
  while offset + 8 <= bytes.count {
    let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
    let body = bytes[min(bytes.count, offset + 8)..<min(bytes.count, offset + 8 + length)]
    switch type {
    case "IDAT", "IEND": return nil
    case "eXIf": return "EXIF"
    case "iTXt" where body.starts(with: Array("XML:com.adobe.xmp\0".utf8)): return "XMP"
    case "tEXt", "zTXt", "iTXt":
      if body.starts(with: Array("Raw profile type exif".utf8)) { return "EXIF" }
      if body.starts(with: Array("Raw profile type xmp".utf8)) { return "XMP" }
    default: break
    }
    offset += 12 + length
  }
  return nil
}

/// EXIF or XMP in a WebP's RIFF chunks.
private func webpMetadata(_ bytes: [UInt8]) -> String? {
  var offset = 12
  while offset + 8 <= bytes.count {
    let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    let length = bytes[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
    if type == "EXIF" { return "EXIF" }
    if type == "XMP " { return "XMP" }
    offset += 8 + length + (length & 1)
  }
  return nil
}

/// EXIF or XMP among the items of an AVIF (ISO BMFF): an `infe` entry of type `Exif`, or
/// `mime` (how XMP is stored), in the `iinf` box of the top-level `meta` box.
private func avifMetadata(_ bytes: [UInt8]) -> String? {
  /// The boxes in `range` of `bytes`: type and the range of each one's body.
  func boxes(in range: Range<Int>) -> [(type: String, body: Range<Int>)] {
    var found: [(String, Range<Int>)] = []
    var offset = range.lowerBound
    while offset + 8 <= range.upperBound {
      let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      // 0 is "to the end"; 1 (a 64-bit size) never occurs in the header boxes read here.
      let end = size == 0 ? range.upperBound : offset + size
      guard size == 0 || size >= 8, end <= range.upperBound else { break }
      found.append((type, offset + 8..<end))
      offset = end
    }
    return found
  }
  guard let meta = boxes(in: 0..<bytes.count).first(where: { $0.type == "meta" }),
    meta.body.count > 4,
    let itemInfo = boxes(in: meta.body.lowerBound + 4..<meta.body.upperBound)
      .first(where: { $0.type == "iinf" })
  else { return nil }
  // iinf: version and flags, then an entry count of 2 bytes (version 0) or 4.
  let version = itemInfo.body.isEmpty ? 0 : bytes[itemInfo.body.lowerBound]
  let entries = itemInfo.body.lowerBound + (version == 0 ? 6 : 8)
  guard entries <= itemInfo.body.upperBound else { return nil }
  for entry in boxes(in: entries..<itemInfo.body.upperBound) where entry.type == "infe" {
    // infe version 2: item ID of 2 bytes, protection index of 2, then the type; version
    // 3: item ID of 4 bytes. Versions 0 and 1 name no type.
    guard !entry.body.isEmpty, bytes[entry.body.lowerBound] >= 2 else { continue }
    let typeAt = entry.body.lowerBound + (bytes[entry.body.lowerBound] == 2 ? 8 : 10)
    guard typeAt + 4 <= entry.body.upperBound else { continue }
    switch String(decoding: bytes[typeAt..<typeAt + 4], as: UTF8.self) {
    case "Exif": return "EXIF"
    case "mime": return "XMP"
    default: continue
    }
  }
  return nil
}
