// Which writer an `Output` makes, and what the writers cannot take (a side too large for
// the format, a field the format does not use), checked before anything is drawn.

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
  }

  /// Refuses an output that asks for what it cannot be (a mask in another format than
  /// PNG) or sets a field it does not use, before the input is read.
  static func checkOutput(_ output: Output) throws(Error) {
    if output.maskOnly && output.format != .png { throw .output(.maskMustBePNG(output.format)) }
    if let field = output.unusedField() {
      throw .output(.unusedField(field, format: output.writtenFormat))
    }
  }

  /// The encoder for `output.format`. Masks are 8-bit gray PNGs, palette PNGs with
  /// `colors`; JPEG flattens onto the background.
  static func makeWriter(
    file: CFile, side: Int, output: Output, profile: [UInt8]?, memory: MemoryBudget?
  ) throws(ImageError) -> any ImageWriter {
    if output.writtenFormat == .png, let colors = output.colors {
      return try PalettePNGWriter(
        file: file, width: side, height: side, channels: output.maskOnly ? 1 : 4,
        colors: colors, dither: output.dither,
        level: (output.compression ?? .default).paletteLevel,
        iccProfile: output.maskOnly ? nil : profile, memory: memory, mark: output.mark)
    }
    if output.maskOnly {
      return try PNGStreamEncoder(
        file: file, width: side, height: side, channels: 1,
        compression: output.compression ?? .default,
        threads: output.threads, mark: output.mark)
    }
    switch output.format {
    case .png:
      return try PNGStreamEncoder(
        file: file, width: side, height: side, compression: output.compression ?? .default,
        iccProfile: profile, threads: output.threads, mark: output.mark)
    case .jpeg:
      return try JPEGWriter(
        file: file, width: side, height: side,
        quality: output.quality ?? Output.defaultQuality, background: output.background ?? .white,
        iccProfile: profile, mark: output.mark)
    case .webp:
      return try WebPWriter(
        file: file, width: side, height: side, lossless: output.lossless ?? false,
        quality: output.quality ?? Output.defaultQuality, iccProfile: profile, memory: memory,
        mark: output.mark)
    case .avif:
      return try AVIFWriter(
        file: file, width: side, height: side, lossless: output.lossless ?? false,
        quality: output.quality ?? Output.defaultQuality,
        effort: output.effort ?? Output.defaultEffort(side: side), iccProfile: profile,
        memory: memory, mark: output.mark)
    }
  }
}
