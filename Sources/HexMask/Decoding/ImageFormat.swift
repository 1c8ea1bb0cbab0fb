#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HexMask {
  /// The image formats hexmask reads, as told by a file's first bytes.
  ///
  /// ```swift
  /// if ImageFormat(sniffing: firstBytes) == .jpeg { … }
  /// ```
  public enum ImageFormat: String, Sendable, CaseIterable {
    case png
    case jpeg
    /// HEIC/HEIF: HEVC pictures in the HEIF container, as iPhones write them.
    case heif
    /// AVIF: AV1 pictures in the HEIF container.
    case avif
    /// WebP, lossy or lossless, still or animated.
    case webp
    /// GIF, still or animated.
    case gif
    /// JPEG XL, bare codestream or container, still or animated.
    case jxl

    /// How many leading bytes tell every format apart (a HEIF `ftyp` box lists its brands
    /// within them).
    package static let sniffLength = 64

    /// The eight bytes every PNG file starts with.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The three bytes every JPEG file starts with: the start-of-image marker (`FF D8`) and
    /// the first byte of the marker after it.
    ///
    /// The JPEG standard (ITU-T T.81, B.1.1.2 and B.2.1) puts SOI first and a marker right
    /// after it; a marker may be preceded by fill bytes, which are `FF` too, so `FF D8 FF`
    /// holds for every well-formed file (it is also what `file(1)` and browsers look for).
    /// libjpeg itself insists only on `FF D8` and skips anything up to the next `FF` with a
    /// warning ("extraneous bytes before marker"); a file with other bytes there is damaged,
    /// not a JPEG of another kind.
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// The two bytes a bare JPEG XL codestream starts with (ISO/IEC 18181-1, `FF 0A`), and
    /// the first eight of the container's signature box (18181-2: a 12-byte `JXL ` box).
    static let jxlCodestreamSignature: [UInt8] = [0xFF, 0x0A]
    static let jxlContainerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]

    /// The format whose signature `head` starts with: the whole PNG signature, or the JPEG
    /// start-of-image marker followed by another marker (`FF D8 FF`). The one place that
    /// decides: folder discovery and `openDecoder` both ask it.
    public init?(sniffing head: some Collection<UInt8>) {
      let bytes = Array(head.prefix(Self.sniffLength))
      if bytes.starts(with: Self.pngSignature) {
        self = .png
      } else if bytes.starts(with: Self.jpegSignature) {
        self = .jpeg
      } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8))
      {
        self = .gif
      } else if bytes.starts(with: Self.jxlCodestreamSignature)
        || bytes.starts(with: Self.jxlContainerSignature)
      {
        self = .jxl
      } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
        Array(bytes[8..<12]) == Array("WEBP".utf8)
      {
        self = .webp
      } else if let format = Self.heifFormat(bytes) {
        self = format
      } else {
        return nil
      }
    }

    /// HEIF or AVIF from the `ftyp` box: its major brand and its compatible brands.
    /// AV1 brands win (an AVIF file often names `mif1` too).
    private static func heifFormat(_ bytes: [UInt8]) -> ImageFormat? {
      guard let brands = heifBrands(bytes) else { return nil }
      if brands.contains(where: { ["avif", "avis"].contains($0) }) { return .avif }
      let heif = ["heic", "heix", "hevc", "heim", "heis", "hevx", "mif1", "msf1"]
      return brands.contains(where: heif.contains) ? .heif : nil
    }

    /// The major and compatible brands of a HEIF file's `ftyp` box, from its first bytes
    /// (as many as they hold); nil when they do not start with one.
    package static func heifBrands(_ head: some Collection<UInt8>) -> [String]? {
      let bytes = Array(head.prefix(256))
      guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return nil }
      let boxSize = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
      let end = min(bytes.count, max(16, boxSize))
      var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
      for start in stride(from: 16, to: end - 3, by: 4) {
        brands.append(String(decoding: bytes[start..<(start + 4)], as: UTF8.self))
      }
      return brands
    }

    /// The major brand of HEIF's compact form (a `mini` box for `meta`), AVIF or HEIC,
    /// which the libheif hexmask is built with may not read.
    package static let compactHEIFBrand = "mif3"

    /// Formats hexmask does not read but can name, from their first bytes: "GIF" for a GIF.
    package static func otherFormatName(_ head: some Collection<UInt8>) -> String? {
      let bytes = Array(head.prefix(16))
      let signatures: [(String, [UInt8])] = [
        ("TIFF", [0x49, 0x49, 0x2A, 0x00]), ("TIFF", [0x4D, 0x4D, 0x00, 0x2A]),
        ("BMP", Array("BM".utf8)), ("PSD", Array("8BPS".utf8)), ("PDF", Array("%PDF".utf8)),
        ("ICO", [0x00, 0x00, 0x01, 0x00]),
        ("JPEG 2000", [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20]),
        ("SVG", Array("<svg".utf8)), ("SVG or XML", Array("<?xml".utf8)),
      ]
      return signatures.first { bytes.starts(with: $0.1) }?.0
    }
  }
}

/// `HexMask.ImageFormat` by its short name inside the package.
package typealias ImageFormat = HexMask.ImageFormat
