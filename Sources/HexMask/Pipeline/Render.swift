#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HexMask {
  /// Cuts the picture in `bytes` (PNG or JPEG, told by its content) into the shape and
  /// returns the output file's bytes (PNG, JPEG or WebP, as `output.format` says).
  ///
  /// Everything the file API protects stays: the pixel limit is checked from the header
  /// before any pixel memory, malformed data is a typed error, and the C libraries' errors
  /// never cross a Swift frame. Safe to call from many threads at once.
  ///
  /// ```swift
  /// var output = HexMask.Output()
  /// output.size = 256
  /// let png = try HexMask.render(upload, output: output)
  /// ```
  public static func render(
    _ bytes: [UInt8], shape: Shape = Shape(), output: Output = Output(), input: Input = Input()
  ) throws(Error) -> [UInt8] {
    guard !bytes.isEmpty else { throw .decoding(ImageError(.unreadable, "empty file")) }
    var result: Result<[UInt8], Error> = .failure(.decoding(ImageError(.unreadable, "no data")))
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress,
        let source = fmemopen(UnsafeMutableRawPointer(mutating: base), buffer.count, "rb")
      else {
        result = .failure(.decoding(ImageError(.unreadable, "cannot read: \(systemError())")))
        return
      }
      defer { fclose(source) }
      result = Result(catching: { () throws(Error) -> [UInt8] in
        try collectingBytes { destination throws(Error) in
          _ = try render(from: source, to: destination, shape: shape, output: output, input: input)
        }
      })
    }
    return try result.get()
  }

  /// Reads a picture from the file descriptor `source` until its end and writes the output
  /// to `destination`, row by row: memory follows the width, not the area (except where a
  /// format needs the whole picture: Adam7 PNG input, EXIF turns, WebP output). Neither
  /// descriptor is closed. Nothing is written to `destination` before the picture is known
  /// to fit the shape; a failure later leaves a partial output there, so write to a
  /// temporary file (as the `hexmask` command does) when that matters.
  ///
  /// ```swift
  /// let report = try HexMask.render(from: 0, to: 1, output: output)   // stdin → stdout
  /// ```
  @discardableResult
  public static func render(
    from source: Int32, to destination: Int32, shape: Shape = Shape(), output: Output = Output(),
    input: Input = Input()
  ) throws(Error) -> Report {
    let reading = try stream(source, mode: "rb", failure: Error.decoding)
    defer { fclose(reading) }
    let writing = try stream(destination, mode: "wb", failure: Error.encoding)
    defer { fclose(writing) }
    let report = try render(from: reading, to: writing, shape: shape, output: output, input: input)
    guard fflush(writing) == 0 else {
      throw .encoding(ImageError(.writeFailed, "cannot write: \(systemError())"))
    }
    return report
  }

  /// Writes the mask of a `side` × `side` canvas (the gray PNG `Output.maskOnly` makes)
  /// to `destination`, without any picture.
  @discardableResult
  public static func renderMask(
    side: Int, to destination: Int32, shape: Shape = Shape(), output: Output = Output(),
    input: Input = Input()
  ) throws(Error) -> Report {
    let writing = try stream(destination, mode: "wb", failure: Error.encoding)
    defer { fclose(writing) }
    var output = output
    output.maskOnly = true
    let report = try renderMask(side: side, to: writing, shape: shape, output: output, input: input)
    guard fflush(writing) == 0 else {
      throw .encoding(ImageError(.writeFailed, "cannot write: \(systemError())"))
    }
    return report
  }

  /// The shape of a `side` × `side` canvas as an SVG document: the same quadratic curves
  /// the rasterizer fills, the border stroked in `shape.borderColor`.
  public static func svg(side: Int, shape: Shape = Shape()) throws(Error) -> String {
    do {
      return svgDocument(
        for: try MaskShape(shape, canvasSide: side), borderColor: shape.borderColor)
    } catch {
      throw .shape(error)
    }
  }
}

extension HexMask {
  /// The pipeline over C streams: decode (shrunk on load when a JPEG is much larger than
  /// needed) → orient → crop and resize → coverage → composite → encode.
  static func render(
    from source: CFile, to destination: CFile, shape: Shape, output: Output, input: Input
  ) throws(Error) -> Report {
    try checkMaskFormat(output)
    let stored = try decoding { () throws(ImageError) in
      try openDecoder(file: source, maxPixels: input.maxPixels, targetSide: output.size)
    }
    let metadata = stored.metadata
    let orientation = input.autoOrient ? metadata.exif.map(Orientation.fromExif) ?? .up : .up
    let upright = openOriented(stored, orientation: orientation)
    // The seed crops the top-left square, as UIKit's view bounds do.
    let crop =
      shape.layout == .seed
      ? CropSquare(left: 0, top: 0, side: min(upright.width, upright.height))
      : output.crop.square(width: upright.width, height: upright.height)
    var side = output.size ?? crop.side
    if !output.upscale { side = min(side, crop.side) }
    try checkOutputSize(side: side, output: output, input: input)
    let picture = ResizedDecoder(upright, crop: crop, side: side)
    let mask = try maskShape(shape, side: side)

    // EXIF, XMP and comments are never copied (privacy); the ICC profile is, unless told.
    let profile = output.keepColorProfile && !output.maskOnly ? metadata.iccProfile : nil
    let writer = try encoding { () throws(ImageError) in
      try makeWriter(file: destination, side: side, output: output, profile: profile)
    }
    var rows = RowPipeline(
      shape: mask, border: shape.borderColor, output: output, imageIsOpaque: picture.isOpaque)
    for _ in 0..<side {
      if !output.maskOnly {
        try decoding { () throws(ImageError) in try rows.read(from: picture) }
      }
      rows.draw()
      try encoding { () throws(ImageError) in try rows.write(to: writer) }
    }
    if input.strict && !output.maskOnly {
      // Rows below the crop are normally never decoded (like vips' sequential access);
      // strict mode reads them too, so damage anywhere in the file is found.
      try decoding { () throws(ImageError) in try picture.readRemainingSourceRows() }
    }
    let warnings =
      (output.keepColorProfile ? metadata.warnings : []) + picture.warnings + writer.warnings
    if input.strict, let first = warnings.first { throw .warningInStrictMode(first) }
    try encoding { () throws(ImageError) in try writer.finish() }
    return Report(side: side, warnings: warnings)
  }

  /// The mask of a `side` canvas, written to `destination`.
  static func renderMask(
    side: Int, to destination: CFile, shape: Shape, output: Output, input: Input
  ) throws(Error) -> Report {
    try checkMaskFormat(output)
    try checkOutputSize(side: side, output: output, input: input)
    let mask = try maskShape(shape, side: side)
    let writer = try encoding { () throws(ImageError) in
      try makeWriter(file: destination, side: side, output: output, profile: nil)
    }
    var rows = RowPipeline(
      shape: mask, border: shape.borderColor, output: output, imageIsOpaque: true)
    for _ in 0..<side {
      rows.draw()
      try encoding { () throws(ImageError) in try rows.write(to: writer) }
    }
    try encoding { () throws(ImageError) in try writer.finish() }
    return Report(side: side, warnings: [])
  }

  /// Refuses a `side` × `side` output of more pixels than the input limit (only a requested
  /// size can exceed it: a picture's own square is never larger than the picture) or larger
  /// than the format can hold, before anything is drawn.
  static func checkOutputSize(side: Int, output: Output, input: Input) throws(Error) {
    let (pixels, overflow) = side.multipliedReportingOverflow(by: side)
    if overflow || pixels > input.maxPixels {
      throw .shape(.outputTooLarge(side: side, limit: input.maxPixels))
    }
    if output.format == .webp && !output.maskOnly && side > WebPWriter.maximumSide {
      throw .shape(
        .outputTooLargeForFormat(side: side, format: .webp, maximumSide: WebPWriter.maximumSide))
    }
  }

  private static func checkMaskFormat(_ output: Output) throws(Error) {
    if output.maskOnly && output.format != .png { throw .shape(.maskMustBePNG(output.format)) }
  }

  private static func maskShape(_ shape: Shape, side: Int) throws(Error) -> MaskShape {
    do {
      return try MaskShape(shape, canvasSide: side)
    } catch {
      throw .shape(error)
    }
  }

  /// The encoder for `output.format`. Masks are 8-bit gray PNGs; JPEG flattens onto the
  /// background.
  private static func makeWriter(file: CFile, side: Int, output: Output, profile: [UInt8]?)
    throws(ImageError) -> any ImageWriter
  {
    if output.maskOnly {
      return try PNGStreamEncoder(
        file: file, width: side, height: side, channels: 1, compression: output.compression,
        threads: output.threads)
    }
    switch output.format {
    case .png:
      return try PNGStreamEncoder(
        file: file, width: side, height: side, compression: output.compression,
        iccProfile: profile, threads: output.threads)
    case .jpeg:
      return try JPEGWriter(
        file: file, width: side, height: side, quality: output.quality,
        background: output.background ?? .white, iccProfile: profile)
    case .webp:
      return try WebPWriter(
        file: file, width: side, height: side, lossless: output.lossless,
        quality: output.quality, iccProfile: profile)
    }
  }

  /// Runs a decoding step; its failure is the input's.
  private static func decoding<T>(_ step: () throws(ImageError) -> T) throws(Error) -> T {
    do {
      return try step()
    } catch {
      throw .decoding(error)
    }
  }

  /// Runs an encoding step; its failure is the output's.
  private static func encoding<T>(_ step: () throws(ImageError) -> T) throws(Error) -> T {
    do {
      return try step()
    } catch {
      throw .encoding(error)
    }
  }

  /// A C stream of its own on a copy of `descriptor`: closing it leaves the caller's open.
  private static func stream(
    _ descriptor: Int32, mode: String, failure: (ImageError) -> Error
  ) throws(Error) -> CFile {
    let copy = dup(descriptor)
    guard copy >= 0, let opened = fdopen(copy, mode) else {
      let reason = systemError()
      if copy >= 0 { close(copy) }
      throw failure(ImageError(.unreadable, "cannot use descriptor \(descriptor): \(reason)"))
    }
    return opened
  }

  /// Runs `body` with a C stream that collects what is written into memory.
  private static func collectingBytes(_ body: (CFile) throws(Error) -> Void) throws(Error)
    -> [UInt8]
  {
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    guard let memory = open_memstream(&buffer, &size) else {
      throw .encoding(ImageError(.writeFailed, "cannot write: \(systemError())"))
    }
    var failure: Error?
    do throws(Error) {
      try body(memory)
    } catch {
      failure = error
    }
    let closed = fclose(memory) == 0
    defer { free(buffer) }
    if let failure { throw failure }
    guard closed, let buffer else {
      throw .encoding(ImageError(.writeFailed, "cannot write: \(systemError())"))
    }
    return Array(UnsafeRawBufferPointer(start: buffer, count: size))
  }
}

/// The text of the current `errno`, e.g. "No space left on device".
package func systemError() -> String { String(cString: strerror(errno)) }
