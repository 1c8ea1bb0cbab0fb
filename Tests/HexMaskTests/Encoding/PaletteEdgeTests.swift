import TestSupport
import Testing

@testable import HexMask

/// The edge's alpha: a pixel with 0 < alpha < 255 maps to an entry within one
/// level of its alpha wherever the palette holds one, the nearest of those.
@Suite struct PaletteEdgeTests {
  /// A photo-like edge: colours of every hue at every alpha, around an opaque middle.
  static func ragged(side: Int, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    var pixels = [UInt8](repeating: 0, count: side * side * 4)
    for pixel in 0..<side * side {
      let (x, y) = (pixel % side, pixel / side)
      let ring = min(x, y, side - 1 - x, side - 1 - y)
      let noise = random.next()
      for channel in 0..<3 {
        pixels[4 * pixel + channel] = UInt8(truncatingIfNeeded: noise >> (8 * channel))
      }
      pixels[4 * pixel + 3] =
        ring >= side / 4 ? 255 : UInt8(truncatingIfNeeded: noise >> 24 | 1)
    }
    return pixels
  }

  @Test(arguments: [4, 16, 64, 256])
  func edgePixelsKeepTheirAlphaWhereThePaletteHoldsIt(colors: Int) {
    let side = 48
    let pixels = Self.ragged(side: side, seed: UInt64(colors))
    let indexed = PaletteQuantizer(colors: colors).quantize(pixels)
    let entries = indexed.entries.map {
      Premultiplied(
        UInt32($0.red) << 24 | UInt32($0.green) << 16 | UInt32($0.blue) << 8
          | UInt32($0.alpha))
    }
    var (held, checked) = (0, 0)
    for pixel in 0..<side * side {
      let alpha = Int(pixels[4 * pixel + 3])
      let chosen = Int(indexed.indices[pixel])
      let point = Premultiplied(ColorHistogram.key(pixels, pixel))
      if alpha == 255 {
        #expect(indexed.entries[chosen].alpha == 255)
        continue
      }
      let near = entries.indices.filter { abs(Int(indexed.entries[$0].alpha) - alpha) <= 1 }
      checked += 1
      guard !near.isEmpty else { continue }
      held += 1
      #expect(near.contains(chosen), "alpha \(alpha) → \(indexed.entries[chosen].alpha)")
      let best = near.map { point.distance(to: entries[$0]) }.min() ?? 0
      #expect(point.distance(to: entries[chosen]) == best)
    }
    // The check means something: the palette holds some of the edge's levels.
    #expect(checked > side * side / 2)
    #expect(held > 0)
  }

  /// The rule alone, on entries chosen by hand: held levels take the nearest of their own
  /// (even a far colour), a level not held the nearest of all, opaque only opaque.
  @Test func theMappingHoldsEdgeLevelsToTheirEntries() {
    let white100 = Premultiplied(0xffff_ff64)
    let red101 = Premultiplied(0xff00_0065)
    let blue200 = Premultiplied(0x0000_ffc8)
    let black255 = Premultiplied(0x0000_00ff)
    let mapping = NearestEntry([white100, red101, blue200, black255])
    #expect(mapping.index(of: 0xff00_0064) == 1)  // red at 100: the nearer of 100 and 101
    #expect(mapping.index(of: 0x00ff_0063) == 0)  // green at 99: only 100 is within 1
    // White at 200 is nearer to white at 100, but 200 is held: blue.
    #expect(mapping.index(of: 0xffff_ffc8) == 2)
    #expect(mapping.index(of: 0x0000_00fe) == 3)  // 254 is within 1 of the opaque black
    #expect(mapping.index(of: 0x0000_ff96) == 2)  // 150 is not held: the nearest of all
    #expect(mapping.index(of: 0xffff_ffff) == 3)  // opaque takes only opaque entries
  }
}
