import Foundation
import TestSupport
import Testing

@testable import HexMask

/// `--colors`: the quantizer keeps what fits, is deterministic and improves with more
/// colours; the palette PNG it writes reads back (libpng, and by hand) as exactly the
/// quantized pixels.
@Suite struct PaletteTests {
  /// A smooth picture with an alpha ramp at its edge and a transparent corner: far more
  /// colours than a palette holds.
  static func gradient(side: Int) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: side * side * 4)
    for y in 0..<side {
      for x in 0..<side {
        let p = 4 * (y * side + x)
        guard x + y >= side / 4 else { continue }  // transparent, with a colour left in it
        pixels[p] = UInt8(x * 255 / (side - 1))
        pixels[p + 1] = UInt8(y * 255 / (side - 1))
        pixels[p + 2] = UInt8((x + y) * 127 / (side - 1))
        pixels[p + 3] = x < side / 4 ? UInt8(x * 255 / (side / 4)) : 255
      }
    }
    return pixels
  }

  /// Mean squared difference of premultiplied RGBA per pixel.
  static func premultipliedError(_ first: [UInt8], _ second: [UInt8]) -> Double {
    var total = 0.0
    for pixel in 0..<first.count / 4 {
      let a = Premultiplied(ColorHistogram.key(first, pixel))
      let b = Premultiplied(ColorHistogram.key(second, pixel))
      total += a.distance(to: b)
    }
    return total / Double(first.count / 4)
  }

  static func written(_ pixels: [UInt8], side: Int, channels: Int = 4, colors: Int) throws
    -> [UInt8]
  {
    try withTemporaryFolder { url in
      let folder = url.path
      let path = folder + "/palette.png"
      try writeImage(pixels, width: side, height: side, channels: channels, to: path) {
        try PalettePNGWriter(
          file: $0, width: side, height: side, channels: channels, colors: colors)
      }
      return try fileBytes(path)
    }
  }

  @Test func aPictureOfFewColoursIsKeptExactly() throws {
    let pixels = blockPicture(width: 64, height: 64)
    #expect(ColorHistogram(pixels).colors.count == 9)
    #expect(PaletteQuantizer(colors: 9).quantize(pixels).rgba == pixels)
    let png = try Self.written(pixels, side: 64, colors: 16)
    #expect(try decodePNG(png).image.pixels == pixels)
  }

  @Test func transparentPixelsShareOneEntry() {
    var pixels = Self.gradient(side: 32)
    pixels[0..<4] = [200, 10, 10, 0]  // a colour under no coverage
    let indexed = PaletteQuantizer(colors: 8).quantize(pixels)
    let transparent = indexed.entries.indices.filter { indexed.entries[$0].alpha == 0 }
    #expect(transparent.count == 1)
    #expect(indexed.entries[transparent[0]] == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
    for pixel in 0..<pixels.count / 4 where pixels[4 * pixel + 3] == 0 {
      #expect(Int(indexed.indices[pixel]) == transparent[0])
    }
  }

  @Test func theSamePixelsGiveTheSameBytes() throws {
    let pixels = Self.gradient(side: 48)
    let first = try Self.written(pixels, side: 48, colors: 32)
    #expect(try Self.written(pixels, side: 48, colors: 32) == first)
    #expect(PaletteQuantizer(colors: 32).quantize(pixels).entries.count <= 32)
  }

  @Test func moreColoursMeanLessError() {
    let pixels = Self.gradient(side: 64)
    let errors = [2, 4, 16, 64, 256].map {
      Self.premultipliedError(pixels, PaletteQuantizer(colors: $0).quantize(pixels).rgba)
    }
    for (fewer, more) in zip(errors, errors.dropFirst()) { #expect(more < fewer, "\(errors)") }
    #expect(errors[4] < errors[0] / 50, "\(errors)")
  }

  /// libpng reads exactly the quantized pixels, at each bit depth; the palette's
  /// non-opaque entries come first and tRNS stops after the last of them.
  @Test(arguments: [(2, 1), (3, 2), (4, 2), (16, 4), (17, 8), (256, 8)])
  func thePNGReadsBackAsTheQuantizedPixels(colors: Int, depth: UInt8) throws {
    let side = 37  // rows end inside a byte at every depth below 8
    let pixels = Self.gradient(side: side)
    let indexed = PaletteQuantizer(colors: colors).quantize(pixels)
    #expect(indexed.entries.count == colors)
    let png = try Self.written(pixels, side: side, colors: colors)
    #expect(try decodePNG(png).image.pixels == indexed.rgba)
    let chunks = try pngChunks(png)
    #expect(
      chunks.map(\.type).filter { $0 != "IDAT" } == ["IHDR", "tEXt", "PLTE", "tRNS", "IEND"])
    #expect(chunks[0].data[8...9] == [depth, 3])
    #expect(chunks[1].data == HexMaskMark.pngText)
    #expect(chunks[2].data.count == 3 * colors)
    let alphas = indexed.entries.map(\.alpha)
    let opaque = alphas.firstIndex(of: 255) ?? alphas.count
    #expect(alphas[opaque...].allSatisfy { $0 == 255 })
    #expect(chunks[3].data == Array(alphas[..<opaque]))
  }

  @Test func aMaskOfFewLevelsIsAnExactGrayPalette() throws {
    let side = 20
    let levels: [UInt8] = [0, 64, 200, 255]
    let gray = (0..<side * side).map { levels[($0 / 7) % levels.count] }
    let png = try Self.written(gray, side: side, channels: 1, colors: 4)
    #expect(try decodePNG(png).image.pixels == expandedRGBA(gray, channels: 1))
    let palette = try pngChunks(png)[2].data
    #expect(palette == levels.flatMap { [$0, $0, $0] })
  }

  @Test func outputColorsIsValidated() {
    var output = HexMask.Output()
    output.kind = .png(.init(palette: .init(colors: 1)))
    #expect(
      throws: HexMask.Error.invalidValue(
        .init(field: "Output.PNG.palette.colors", value: "1", allowed: "from 2 to 256"))
    ) { try HexMask.render([], output: output) }
  }
}

extension PaletteTests {
  /// The pruned search gives what trying every point gives, ties included.
  @Test func theNearestSearchAgreesWithTryingEveryPoint() {
    var random = SplitMix64(seed: 22)
    func colour() -> Premultiplied {
      let key = UInt32(truncatingIfNeeded: random.next())
      return Premultiplied(key & 0xffff_ff00 | (key & 3 == 0 ? 255 : key & 0xff))
    }
    for count in [1, 2, 7, 256] {
      var points = (0..<count).map { _ in colour() }
      points += points.prefix(3)  // equal points: the first one wins
      let search = NearestSearch(points)
      for _ in 0..<500 {
        let query = colour()
        #expect(search.nearest(to: query) == query.nearest(in: points))
      }
    }
  }
}

extension PaletteTests {
  @Test func theBayerMatrixHoldsEachThresholdOnce() {
    #expect(OrderedDither.bayer.sorted() == Array(0..<64))
    #expect(OrderedDither.bayer.prefix(4) == [0, 32, 8, 40])
  }

  /// Dithering keeps the mean colour of each 8×8 tile closer to the picture's than bands
  /// do (on an opaque gradient), leaves transparent pixels alone, and is the same every
  /// time.
  @Test func ditheringKeepsTheLocalMeanCloser() throws {
    let side = 64
    var pixels = Self.gradient(side: side)
    for pixel in 0..<side * side where pixel % side >= side / 4 { pixels[4 * pixel + 3] = 255 }
    func tileError(_ quantized: [UInt8]) -> Double {
      var total = 0.0
      for tileY in 0..<side / 8 {
        for tileX in 0..<side / 8 {
          var difference = SIMD4<Double>.zero
          for y in tileY * 8..<tileY * 8 + 8 {
            for x in tileX * 8..<tileX * 8 + 8 {
              let pixel = y * side + x
              difference += Premultiplied(ColorHistogram.key(pixels, pixel)).channels
              difference -= Premultiplied(ColorHistogram.key(quantized, pixel)).channels
            }
          }
          // Only the opaque tiles: the alpha ramp has no pairs of one alpha to mix.
          if tileX >= side / 32 { total += (difference * difference / 4096).sum() }
        }
      }
      return total
    }
    let quantizer = PaletteQuantizer(colors: 8)
    let plain = quantizer.quantize(pixels, width: side)
    let dithered = quantizer.quantize(pixels, width: side, dither: true)
    #expect(dithered.entries == plain.entries)
    #expect(tileError(dithered.rgba) < tileError(plain.rgba) * 0.75)
    #expect(quantizer.quantize(pixels, width: side, dither: true) == dithered)
    for pixel in 0..<side * side where pixels[4 * pixel + 3] == 0 {
      #expect(dithered.indices[pixel] == plain.indices[pixel])
    }
    // Opaque pixels stay opaque.
    for pixel in 0..<side * side where pixels[4 * pixel + 3] == 255 {
      #expect(dithered.entries[Int(dithered.indices[pixel])].alpha == 255)
    }
  }
}

extension PaletteTests {
  /// With a guess, the search still gives what trying every point gives: the guess is
  /// taken at once only when the query is nearer to it than half the way to the guess's
  /// nearest neighbour. Queries sit between neighbouring entries of a large palette (at
  /// the midpoint, an exact tie, and 55–70 % of the way, where a guess accepted within
  /// 1/√2 of the way instead of 1/2 would be wrong), and every guess is the far entry.
  @Test func aGuessIsTakenOnlyWhenNothingElseCanBeNearer() {
    var random = SplitMix64(seed: 28)
    // A grid in premultiplied space (opaque, so alpha stays 255), then random entries.
    var points: [Premultiplied] = []
    for red in stride(from: 0.0, through: 255, by: 51) {
      for green in stride(from: 0.0, through: 255, by: 51) {
        for blue in stride(from: 0.0, through: 255, by: 85) {
          points.append(Premultiplied(SIMD4(red, green, blue, 255)))
        }
      }
    }
    while points.count < 256 {
      let key = UInt32(truncatingIfNeeded: random.next())
      points.append(Premultiplied(key | 0xff))
    }
    let search = NearestSearch(points)
    var checked = 0
    for first in points.indices {
      // This entry's nearest neighbours: the pairs whose boundary a query can straddle.
      let neighbours = points.indices.filter { $0 != first }.sorted {
        points[first].distance(to: points[$0]) < points[first].distance(to: points[$1])
      }.prefix(3)
      for second in neighbours {
        for fraction in [0.5, 0.55, 0.6, 0.65, 0.7] {
          let query = Premultiplied(
            points[first].channels + (points[second].channels - points[first].channels) * fraction)
          // Guessed: the entry the query is farther from (or equally far, at the midpoint).
          let expected = query.nearest(in: points)
          #expect(
            search.nearest(to: query, guess: first) == expected,
            "entries \(first) and \(second), \(fraction) of the way")
          #expect(search.nearest(to: query, guess: second) == expected)
          checked += 1
        }
      }
    }
    #expect(checked == 256 * 3 * 5)
  }
}
