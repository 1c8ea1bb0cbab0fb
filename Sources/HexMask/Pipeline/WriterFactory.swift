// Which writer an `Output` makes, and what the writers cannot take (a side too large for
// the format, a JPEG background that is not opaque), checked before anything is drawn.

extension HexMask {
  /// Refuses a `side` × `side` output of more pixels than the input limit (only a requested
  /// size can exceed it: a picture's own square is never larger than the picture) or larger
  /// than the format can hold, before anything is drawn.
  static func checkOutputSize(side: Int, output: Output, input: Input) throws(Error) {
    let (pixels, overflow) = side.multipliedReportingOverflow(by: side)
    if overflow || pixels > input.maxPixels {
      throw .output(.tooManyPixels(side: side, limit: input.maxPixels))
    }
    if output.format == .webp && !output.maskOnly && side > WebPWriter.maximumSide {
      throw .output(
        .tooLargeForFormat(side: side, format: .webp, maximumSide: WebPWriter.maximumSide))
    }
    if output.format == .avif && !output.maskOnly && side > AVIFWriter.maximumSide {
      throw .output(
        .tooLargeForFormat(side: side, format: .avif, maximumSide: AVIFWriter.maximumSide))
    }
    if output.format == .jxl && !output.maskOnly && side > JXLWriter.maximumSide {
      throw .output(
        .tooLargeForFormat(side: side, format: .jxl, maximumSide: JXLWriter.maximumSide))
    }
  }

  /// Refuses an output that asks for what it cannot be (a JPEG on a background that is not
  /// opaque, a face framed without the faces crop), before the input is read. Everything else a kind cannot use, it cannot hold.
  static func checkOutput(_ output: Output) throws(Error) {
    do throws(OutputError) { try output.kind.check() } catch { throw .output(error) }
    if output.faceSize != nil {
      guard case .faces = output.crop else { throw .output(.faceSizeWithoutFaces) }
    }
  }

  /// The mask ``renderMask(side:to:shape:output:input:)`` writes for an output of `kind`:
  /// a mask, or a PNG's compression and palette; a PNG's background and another format are
  /// refused, as a mask has neither.
  static func maskKind(_ kind: Output.Kind) throws(Error) -> Output.Kind {
    switch kind {
    case .mask: kind
    case .png(let png) where png.background == nil:
      .mask(Output.Mask(compression: png.compression, palette: png.palette))
    case .png: throw .output(.unusedField(.background, format: .png))
    case .jpeg, .webp, .avif, .jxl: throw .output(.maskMustBePNG(kind.format))
    }
  }

  /// The encoder for `output.kind`, with that kind's settings: masks are 8-bit gray PNGs,
  /// palette PNGs with a palette; JPEG flattens onto its background. `tagsSRGB` says sRGB
  /// where the format has its own way (PNG, AVIF); JPEG and WebP say it by saying nothing.
  static func makeWriter(
    file: CFile, side: Int, output: Output, profile: [UInt8]?, tagsSRGB: Bool,
    memory: MemoryBudget?
  ) throws(ImageError) -> any ImageWriter {
    func palette(_ palette: Output.Palette, _ compression: PNGCompression, gray: Bool)
      throws(ImageError) -> any ImageWriter
    {
      try PalettePNGWriter(
        file: file, width: side, height: side, channels: gray ? 1 : 4, colors: palette.colors,
        dither: palette.dither, level: compression.paletteLevel,
        iccProfile: gray ? nil : profile, srgb: !gray && tagsSRGB, memory: memory,
        mark: output.mark)
    }
    switch output.kind {
    case .mask(let mask):
      if let colors = mask.palette { return try palette(colors, mask.compression, gray: true) }
      return try PNGStreamEncoder(
        file: file, width: side, height: side, channels: 1, compression: mask.compression,
        threads: output.threads, mark: output.mark)
    case .png(let png):
      if let colors = png.palette { return try palette(colors, png.compression, gray: false) }
      return try PNGStreamEncoder(
        file: file, width: side, height: side, compression: png.compression,
        iccProfile: profile, srgb: tagsSRGB, threads: output.threads, mark: output.mark)
    case .jpeg(let jpeg):
      return try JPEGWriter(
        file: file, width: side, height: side, quality: jpeg.quality,
        background: jpeg.background, iccProfile: profile, mark: output.mark)
    case .webp(let webp):
      let (lossless, quality) = lossyOrLossless(webp.quality)
      return try WebPWriter(
        file: file, width: side, height: side, lossless: lossless, quality: quality,
        iccProfile: profile, memory: memory, mark: output.mark)
    case .avif(let avif):
      let (lossless, quality) = lossyOrLossless(avif.quality)
      return try AVIFWriter(
        file: file, width: side, height: side, lossless: lossless, quality: quality,
        effort: avif.effort(side: side), iccProfile: profile, srgb: tagsSRGB, memory: memory,
        mark: output.mark)
    case .jxl(let jxl):
      return try JXLWriter(
        file: file, width: side, height: side, quality: jxl.quality, effort: jxl.effort,
        iccProfile: profile, memory: memory, mark: output.mark)
    }
  }

  /// The writers' two arguments for a quality: a lossless one passes the default quality,
  /// which its writer does not use.
  private static func lossyOrLossless(_ quality: Output.Quality) -> (Bool, Int) {
    switch quality {
    case .lossy(let value): (false, value)
    case .lossless: (true, Output.defaultQuality)
    }
  }
}
