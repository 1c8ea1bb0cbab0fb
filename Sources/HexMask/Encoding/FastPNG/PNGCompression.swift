import CZlib

extension HexMask {
  /// How hard `PNGStreamEncoder` works to make the file small: the row filter and the zlib
  /// level and strategy.
  ///
  /// The presets come from measurements on masked 4000² photos (docs/performance.md,
  /// "PNG encoding presets"; `png-encode-bench`); `level(_:)` maps the familiar 0–9 scale onto the same choices.
  ///
  /// ```swift
  /// let compression = PNGCompression(argument: "fast") ?? .default
  /// let encoder = try PNGStreamEncoder(file: fp, width: 4000, height: 4000, compression: compression)
  /// ```
  public struct PNGCompression: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// How each row is predicted from its neighbours before deflate.
    public var filter: PNGRowFilter
    /// zlib's level: 0 stores, 1 is fastest, 9 smallest.
    public var level: Int
    /// zlib's match-finding strategy.
    public var strategy: DeflateStrategy

    /// A setting of your own; `level` must be 0…9 (the encoder refuses anything else).
    public init(filter: PNGRowFilter, level: Int, strategy: DeflateStrategy = .default) {
      self.filter = filter
      self.level = level
      self.strategy = strategy
    }

    /// zlib level 1 with the Up filter: the quickest setting that still beats libvips'
    /// files (on 4000² masked photos about 0.55 s and 13–15 MB, against vips' 1.9–2.3 s and
    /// 15–21 MB).
    public static let fast = PNGCompression(filter: .up, level: 1)
    /// zlib level 2 with the Up filter: about 3× faster than libvips' `pngsave
    /// compression=6` and 15–27 % smaller; 6× faster than libpng's defaults, 3–5 % larger.
    public static let `default` = PNGCompression(filter: .up, level: 2)
    /// zlib level 6 with the Up filter: smaller than libpng's defaults (level 6, adaptive
    /// filters) in about the same time; on photos Up beat Paeth and adaptive filtering at
    /// every level measured.
    public static let small = PNGCompression(filter: .up, level: 6)

    /// The setting for zlib-style level `level` (0…9): 0 stores the rows unfiltered, 1–9
    /// use the Up filter at that zlib level.
    public static func level(_ level: Int) -> PNGCompression {
      PNGCompression(filter: level == 0 ? .none : .up, level: level)
    }

    /// Parses a command-line spelling: `fast`, `default`, `small` or `0`…`9`.
    public init?(argument: String) {
      switch argument {
      case "fast": self = .fast
      case "default": self = .default
      case "small": self = .small
      default:
        guard argument.count == 1, let level = Int(argument) else { return nil }
        self = .level(level)
      }
    }

    /// The zlib level a palette PNG (``HexMask/Output/Palette``) deflates at with this
    /// setting. Its rows are unfiltered indices, a quarter of RGBA's bytes, so level 9
    /// costs little there and is the smallest: ``default`` and ``small`` (and their numbers,
    /// 2 and 6) mean 9; ``fast`` and the other levels keep their level.
    public var paletteLevel: Int { self == .default || self == .small ? 9 : level }

    public var description: String { "\(filter) level \(level) \(strategy)" }
  }
}

extension HexMask {
  /// A PNG row filter (PNG specification §9): each byte is stored as its difference from a
  /// prediction made from the pixel to the left, the one above, or both.
  public enum PNGRowFilter: String, CaseIterable, Equatable, Hashable, Sendable {
    /// The bytes as they are.
    case none
    /// Minus the byte one pixel to the left.
    case sub
    /// Minus the byte above.
    case up
    /// Minus the mean of left and above.
    case average
    /// Minus whichever of left, above and upper-left is closest to left + above − upper-left.
    case paeth
    /// Per row, whichever of the five gives the smallest sum of absolute (signed) values,
    /// the heuristic libpng uses. Costs about five filters' work.
    case adaptive
  }
}

extension HexMask {
  /// zlib's strategies (see `deflateInit2` in zlib.h).
  public enum DeflateStrategy: String, CaseIterable, Equatable, Hashable, Sendable {
    /// LZ77 matches at any distance plus Huffman coding.
    case `default`
    /// Fewer short matches: meant for filtered image data.
    case filtered
    /// Matches at distance one only; fast, good for runs of equal bytes.
    case rle

    var zlibValue: Int32 {
      switch self {
      case .default: Z_DEFAULT_STRATEGY
      case .filtered: Z_FILTERED
      case .rle: Z_RLE
      }
    }
  }
}

/// `HexMask.PNGCompression` by its short name inside the package.
package typealias PNGCompression = HexMask.PNGCompression

/// `HexMask.PNGRowFilter` by its short name inside the package.
package typealias PNGRowFilter = HexMask.PNGRowFilter

/// `HexMask.DeflateStrategy` by its short name inside the package.
package typealias DeflateStrategy = HexMask.DeflateStrategy
