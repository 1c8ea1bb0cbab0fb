#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HexMask {
  /// The image formats hexmask reads, as told by a file's first bytes.
  ///
  /// ```swift
  /// if ImageFormat(sniffingFileAt: "photos/IMG_0001") == .jpeg { … }
  /// ```
  public enum ImageFormat: String, Sendable, CaseIterable {
    case png
    case jpeg

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

    /// The format of the file at `path` from its first eight bytes, or nil when it is neither a
    /// PNG nor a JPEG (or cannot be read). Used to pick images out of folders; `openDecoder`
    /// makes the same decision, and the decoders still check the whole file.
    ///
    /// - Complexity: one `open` and one read of eight bytes.
    package init?(sniffingFileAt path: String) {
      let descriptor = open(path, O_RDONLY)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var head = [UInt8](repeating: 0, count: Self.pngSignature.count)
      let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return nil }
      self.init(sniffing: head[..<count])
    }

    /// The format whose signature `head` starts with: the whole PNG signature, or the JPEG
    /// start-of-image marker followed by another marker (`FF D8 FF`). The one place that
    /// decides: folder discovery and `openDecoder` both ask it.
    public init?(sniffing head: some Collection<UInt8>) {
      if head.starts(with: Self.pngSignature) {
        self = .png
      } else if head.starts(with: Self.jpegSignature) {
        self = .jpeg
      } else {
        return nil
      }
    }
  }
}

/// `HexMask.ImageFormat` by its short name inside the package.
package typealias ImageFormat = HexMask.ImageFormat
