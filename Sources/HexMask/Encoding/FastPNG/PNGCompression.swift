import CZlib

/// How hard `PNGStreamEncoder` works to make the file small: the row filter and the zlib
/// level and strategy.
///
/// The presets come from measurements on masked photos (see `docs/png-encoding.md`);
/// `level(_:)` maps the familiar 0–9 scale onto the same choices.
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

  /// About twice as fast as `default`, files about 10 % larger.
  public static let fast = PNGCompression(filter: .up, level: 1)
  /// Faster than libvips' `pngsave compression=6` and no larger.
  public static let `default` = PNGCompression(filter: .up, level: 2)
  /// Slower, for when bytes matter more than time.
  public static let small = PNGCompression(filter: .adaptive, level: 6)

  /// The setting for zlib-style level `level` (0…9): 0 stores the filtered rows, 1–3 use
  /// the Up filter, 4–9 choose a filter per row.
  public static func level(_ level: Int) -> PNGCompression {
    PNGCompression(filter: level == 0 ? .none : level <= 3 ? .up : .adaptive, level: level)
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

  public var description: String { "\(filter) level \(level) \(strategy)" }
}

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
