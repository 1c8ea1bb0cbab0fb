#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads `input`, cuts it into the shape `options` describe, and writes `output` (PNG,
/// JPEG or WebP, by `options.format` or the output's extension). Either path may be `-`
/// for standard input or output.
///
/// Rows flow one way — decode (shrunk on load when a JPEG is much larger than needed) →
/// orient → crop and resize → coverage → composite → encode — with memory proportional to
/// the image width, except where a format forces a whole-image buffer (Adam7 PNG input,
/// orientations that turn or flip vertically, WebP output). The output appears only once
/// complete; on any error nothing is left behind and the input is never touched.
///
/// ```swift
/// var options = RenderOptions()
/// options.size = 256
/// let report = try render(input: "photo.jpg", output: "avatar.png", options: options)
/// ```
@discardableResult
public func render(input: String, output: String, options: RenderOptions) throws(HexMaskError)
  -> RenderReport
{
  if input != "-" && output != "-" && sameFile(input, output) {
    throw HexMaskError(file: output, reason: "output is the input file; refusing to overwrite it")
  }
  let format = try outputFormat(for: output, options: options)
  let source = try InputFile(path: input)
  let stored = try attempt(source.name) { () throws(ImageError) in
    try openDecoder(file: source.stream, maxPixels: options.maxPixels, targetSide: options.size)
  }
  let metadata = stored.metadata
  let orientation = options.autoOrient ? metadata.exif.map(Orientation.fromExif) ?? .up : .up
  let upright = openOriented(stored, orientation: orientation)
  // The seed crops the top-left square, as UIKit's view bounds do.
  let crop =
    options.layout == .seed
    ? CropSquare(left: 0, top: 0, side: min(upright.width, upright.height))
    : options.crop.square(width: upright.width, height: upright.height)
  var side = options.size ?? crop.side
  if !options.upscale { side = min(side, crop.side) }
  try checkOutputSize(side: side, format: format, options: options, file: output)
  let picture = ResizedDecoder(upright, crop: crop, side: side)
  let shape = try maskShape(options, side: side, file: source.name)

  let destination = try OutputFile(path: output)
  // EXIF, XMP and comments are never copied (privacy); the ICC profile is, unless --strip.
  let profile = options.keepColorProfile && !options.maskOnly ? metadata.iccProfile : nil
  let writer = try attempt(destination.name) { () throws(ImageError) in
    try makeWriter(format, file: destination.stream, side: side, options: options, profile: profile)
  }
  var rows = RowPipeline(
    shape: shape, options: options, format: format, imageIsOpaque: picture.isOpaque)
  for _ in 0..<side {
    if !options.maskOnly {
      try attempt(source.name) { () throws(ImageError) in try rows.read(from: picture) }
    }
    rows.draw()
    try attempt(destination.name) { () throws(ImageError) in try rows.write(to: writer) }
  }
  if options.strict && !options.maskOnly {
    // Rows below the crop are normally never decoded (like vips' sequential access);
    // --strict reads them too, so damage anywhere in the file is found.
    try attempt(source.name) { () throws(ImageError) in try picture.readRemainingSourceRows() }
  }
  let warnings =
    (options.keepColorProfile ? metadata.warnings : []) + picture.warnings + writer.warnings
  if options.strict, let first = warnings.first {
    throw HexMaskError(file: source.name, reason: "\(first) (--strict)")
  }
  try attempt(destination.name) { () throws(ImageError) in try writer.finish() }
  let stamp = try destination.commit()
  return RenderReport(side: side, warnings: warnings, shape: shape, output: stamp)
}

/// Writes the shape's mask for a `options.size` canvas to `output` without any picture:
/// the gray coverage PNG `--mask-only --size N` gives.
///
/// ```swift
/// var options = RenderOptions()
/// options.size = 128
/// try renderMask(output: "mask.png", options: options)
/// ```
@discardableResult
public func renderMask(output: String, options: RenderOptions) throws(HexMaskError) -> RenderReport
{
  var options = options
  options.maskOnly = true
  guard let side = options.size else {
    throw HexMaskError(file: output, reason: "a mask without an input needs --size", isUsage: true)
  }
  let format = try outputFormat(for: output, options: options)
  try checkOutputSize(side: side, format: format, options: options, file: output)
  let shape = try maskShape(options, side: side, file: output)
  let destination = try OutputFile(path: output)
  let writer = try attempt(destination.name) { () throws(ImageError) in
    try makeWriter(format, file: destination.stream, side: side, options: options, profile: nil)
  }
  var rows = RowPipeline(shape: shape, options: options, format: format, imageIsOpaque: true)
  for _ in 0..<side {
    rows.draw()
    try attempt(destination.name) { () throws(ImageError) in try rows.write(to: writer) }
  }
  try attempt(destination.name) { () throws(ImageError) in try writer.finish() }
  let stamp = try destination.commit()
  return RenderReport(side: side, warnings: [], shape: shape, output: stamp)
}

/// Writes `shape` as an SVG document to `path` (`-` for standard output), atomically.
///
/// ```swift
/// if let shape = report.shape { try writeSVG(shape: shape, borderColor: .white, to: "shape.svg") }
/// ```
public func writeSVG(shape: MaskShape, borderColor: RGBAColor, to path: String) throws(HexMaskError)
{
  let destination = try OutputFile(path: path)
  let text = svgDocument(for: shape, borderColor: borderColor)
  guard fputs(text, destination.stream) >= 0 else {
    throw HexMaskError(file: destination.name, reason: "cannot write: \(systemError())")
  }
  try destination.commit()
}

/// Refuses, as a usage error about `file`, a `side` × `side` output of more than
/// `options.maxPixels` pixels (the limit inputs have too; only a requested size can exceed
/// it, since a picture's own square is never larger than the picture) or larger than
/// `format` can hold, before anything is drawn.
private func checkOutputSize(
  side: Int, format: OutputFormat, options: RenderOptions, file: String
) throws(HexMaskError) {
  let (pixels, overflow) = side.multipliedReportingOverflow(by: side)
  if overflow || pixels > options.maxPixels {
    throw HexMaskError(
      file: file,
      reason: "a \(side)×\(side) output has more pixels than the limit of \(options.maxPixels)",
      isUsage: true)
  }
  if format == .webp && !options.maskOnly && side > WebPWriter.maximumSide {
    throw HexMaskError(
      file: file,
      reason: "a WebP can be at most \(WebPWriter.maximumSide) pixels a side, not \(side)",
      isUsage: true)
  }
}

/// The shape for a `side` canvas; options that cannot fit are usage errors about `file`.
private func maskShape(_ options: RenderOptions, side: Int, file: String) throws(HexMaskError)
  -> MaskShape
{
  do {
    return try MaskShape(options: options, canvasSide: side)
  } catch {
    throw HexMaskError(file: file, reason: error.description, isUsage: true)
  }
}

/// The format to write: `options.format`, else the output's extension.
private func outputFormat(for output: String, options: RenderOptions) throws(HexMaskError)
  -> OutputFormat
{
  guard let format = options.format ?? OutputFormat(forPath: output) else {
    throw HexMaskError(
      file: output,
      reason: "cannot tell the format from the name: use .png, .jpg or .webp, or --format",
      isUsage: true)
  }
  if options.maskOnly && format != .png {
    throw HexMaskError(
      file: output, reason: "--mask-only writes a gray PNG, not \(format.rawValue)", isUsage: true)
  }
  return format
}

/// The encoder for `format`. Masks are 8-bit gray PNGs; JPEG flattens onto the background.
private func makeWriter(
  _ format: OutputFormat, file: CFile, side: Int, options: RenderOptions, profile: [UInt8]?
) throws(ImageError) -> any ImageWriter {
  if options.maskOnly {
    return try PNGStreamEncoder(
      file: file, width: side, height: side, channels: 1, compression: options.compression,
      threads: options.threads)
  }
  switch format {
  case .png:
    return try PNGStreamEncoder(
      file: file, width: side, height: side, compression: options.compression,
      iccProfile: profile, threads: options.threads)
  case .jpeg:
    return try JPEGWriter(
      file: file, width: side, height: side, quality: options.quality,
      background: options.background ?? .white, iccProfile: profile)
  case .webp:
    return try WebPWriter(
      file: file, width: side, height: side, lossless: options.lossless, quality: options.quality,
      iccProfile: profile)
  }
}

/// Runs one codec step, naming `file` in the error if it fails.
private func attempt<T>(_ file: String, _ step: () throws(ImageError) -> T) throws(HexMaskError)
  -> T
{
  do {
    return try step()
  } catch {
    throw HexMaskError(file: file, reason: error.reason)
  }
}
