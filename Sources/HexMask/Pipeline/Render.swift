#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HexMask {
  /// Cuts the picture in `bytes` (JPEG, PNG, HEIC or AVIF, or WebP, told by its content)
  /// into the shape and returns the output file's bytes (PNG, JPEG, WebP or AVIF, as
  /// `output.format` says) with the render's warnings: a damaged input that still decoded
  /// (a truncated JPEG, whose missing rows are gray) gives a picture *and* a warning.
  ///
  /// Everything the file API protects stays: the pixel limit is checked from the header
  /// before any pixel memory, malformed data is a typed error, and the C libraries' errors
  /// never cross a Swift frame. Safe to call from many threads at once.
  ///
  /// ```swift
  /// var output = HexMask.Output()
  /// output.size = 256
  /// let avatar = try HexMask.render(upload, output: output)
  /// for warning in avatar.warnings { log(warning.description) }
  /// ```
  ///
  /// - Throws: ``Error/invalidValue(_:)`` naming the first field of `shape`, `output` or
  ///   `input` out of its range, before anything is read; otherwise the stage that failed.
  public static func render(
    _ bytes: [UInt8], shape: Shape = Shape(), output: Output = Output(), input: Input = Input()
  ) throws(Error) -> Rendered {
    try validate(shape, output, input)
    return try renderBytes(bytes, sizes: [output.size], shape: shape, output: output, input: input)[
      0]
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
  ///
  /// - Throws: ``Error/invalidValue(_:)`` naming the first field of `shape`, `output` or
  ///   `input` out of its range, before anything is read; otherwise the stage that failed.
  @discardableResult
  public static func render(
    from source: Int32, to destination: Int32, shape: Shape = Shape(), output: Output = Output(),
    input: Input = Input()
  ) throws(Error) -> Report {
    try validate(shape, output, input)
    do throws(TargetedError) {
      return try renderTargets(
        from: source, to: [(output.size, destination)], shape: shape, output: output,
        input: input)[0]
    } catch {
      throw error.error
    }
  }

  /// Several sizes of one picture from one decode: the picture read from `source` is
  /// decoded once (shrunk on load only as far as the largest size allows) and each size
  /// is resampled from that, then written to its descriptor. `output.size` must be nil.
  /// Length options in pixels are pixels of each output; `.percent` scales with each.
  /// Memory follows the widths, as for one size: a decoded row is kept only until every
  /// size has used it. Nothing is written before every size is known to fit the shape; a
  /// failure later leaves partial outputs, so write to temporary files when that matters.
  ///
  /// ```swift
  /// let reports = try HexMask.render(from: 0, toEach: [(64, small), (256, large)])
  /// ```
  ///
  /// - Returns: one report per destination, in order.
  /// - Throws: ``Error/invalidValue(_:)`` naming the first field of `shape`, `output` or
  ///   `input`, or a destination's size, out of its range, before anything is read; otherwise
  ///   the stage that failed.
  @discardableResult
  public static func render(
    from source: Int32, toEach destinations: [(size: Int, descriptor: Int32)],
    shape: Shape = Shape(), output: Output = Output(), input: Input = Input()
  ) throws(Error) -> [Report] {
    try validate(
      shape, output, input,
      sizes: destinations.enumerated().map { ("destinations[\($0)].size", $1.size) })
    try checkNoSize(output)
    do throws(TargetedError) {
      return try renderTargets(
        from: source, to: destinations.map { ($0.size, $0.descriptor) }, shape: shape,
        output: output, input: input)
    } catch {
      throw error.error
    }
  }

  /// ``render(from:toEach:shape:output:input:)`` that also says which output a failure is
  /// about; a nil size is the square's own.
  package static func renderTargets(
    from source: Int32, to destinations: [(size: Int?, descriptor: Int32)], shape: Shape,
    output: Output, input: Input
  ) throws(TargetedError) -> [Report] {
    let reading: CFile
    do throws(Error) {
      reading = try stream(source, mode: "rb", failure: Error.decoding)
    } catch {
      throw TargetedError(error: error, target: nil)
    }
    defer { fclose(reading) }
    var targets: [Target] = []
    defer { for target in targets { fclose(target.file) } }
    for (index, destination) in destinations.enumerated() {
      do throws(Error) {
        targets.append(
          Target(
            size: destination.size,
            file: try stream(destination.descriptor, mode: "wb", failure: Error.encoding)))
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    let reports = try render(
      from: reading, to: targets, shape: shape, output: output, input: input)
    for (index, target) in targets.enumerated() where fflush(target.file) != 0 {
      throw TargetedError(
        error: .encoding(writeFailure()),
        target: index)
    }
    return reports
  }

  /// Several sizes of the picture in `bytes` from one decode, as
  /// ``render(from:toEach:shape:output:input:)`` makes
  /// them: one output file's bytes and warnings per size, in order.
  ///
  /// ```swift
  /// let avatars = try HexMask.render(upload, sizes: [64, 128, 256])
  /// ```
  ///
  /// - Throws: ``Error/invalidValue(_:)`` naming the first field of `shape`, `output` or
  ///   `input`, or of `sizes`, out of its range, before anything is read; otherwise
  ///   the stage that failed.
  public static func render(
    _ bytes: [UInt8], sizes: [Int], shape: Shape = Shape(), output: Output = Output(),
    input: Input = Input()
  ) throws(Error) -> [Rendered] {
    try validate(shape, output, input, sizes: sizes.enumerated().map { ("sizes[\($0)]", $1) })
    try checkNoSize(output)
    return try renderBytes(bytes, sizes: sizes, shape: shape, output: output, input: input)
  }

  /// The outputs of `sizes` (nil: the square's own) from the picture in `bytes`, each
  /// collected in memory with its report.
  private static func renderBytes(
    _ bytes: [UInt8], sizes: [Int?], shape: Shape, output: Output, input: Input
  ) throws(Error) -> [Rendered] {
    var reports: [Report] = []
    let files = try readingBytes(bytes) { source throws(Error) in
      try collectingBytes(count: sizes.count) { destinations throws(Error) in
        do throws(TargetedError) {
          reports = try render(
            from: source, to: zip(sizes, destinations).map { Target(size: $0, file: $1) },
            shape: shape, output: output, input: input)
        } catch {
          throw error.error
        }
      }
    }
    return zip(files, reports).map { file, report in
      Rendered(
        bytes: file, side: report.side, warnings: report.warnings, crop: report.crop,
        faces: report.faces)
    }
  }

  /// Writes the mask of a `side` × `side` canvas (the gray PNG `Output.maskOnly` makes)
  /// to `destination`, without any picture. `output.size` must be nil: `side` is the size.
  ///
  /// - Throws: ``Error/invalidValue(_:)`` naming the first field of `shape`, `output` or
  ///   `input`, or `side`, out of its range, before anything is read; otherwise
  ///   the stage that failed.
  @discardableResult
  public static func renderMask(
    side: Int, to destination: Int32, shape: Shape = Shape(), output: Output = Output(),
    input: Input = Input()
  ) throws(Error) -> Report {
    try validate(shape, output, input, sizes: [("side", side)])
    try checkNoSize(output)
    let writing = try stream(destination, mode: "wb", failure: Error.encoding)
    defer { fclose(writing) }
    var output = output
    output.maskOnly = true
    let report = try renderMask(side: side, to: writing, shape: shape, output: output, input: input)
    guard fflush(writing) == 0 else {
      throw .encoding(writeFailure())
    }
    return report
  }

  /// The shape of a `side` × `side` canvas as an SVG document: the same quadratic curves
  /// the rasterizer fills, the border stroked in `shape.borderColor`; with `mark`, a
  /// comment `<!-- hexmask -->` on its second line (see ``Output/mark``).
  ///
  /// - Throws: ``Error/invalidValue(_:)`` naming `side` or the first field of `shape` out of
  ///   its range; ``Error/shape(_:)`` when the shape does not fit the canvas.
  public static func svg(side: Int, shape: Shape = Shape(), mark: Bool = true) throws(Error)
    -> String
  {
    try validate(shape, Output(), Input(), sizes: [("side", side)])
    do {
      return svgDocument(
        for: try MaskShape(shape, canvasSide: side), borderColor: shape.borderColor,
        mark: mark)
    } catch {
      throw .shape(error)
    }
  }
}

extension HexMask {
  /// One output of a render: its size (nil: the square's own) and the C stream it is
  /// written to.
  struct Target {
    var size: Int?
    var file: CFile
  }

  /// A failure of a render with several outputs, and which of them it is about (nil: the
  /// input, or all of them).
  package struct TargetedError: Swift.Error, Sendable {
    package var error: Error
    package var target: Int?
  }

  /// The pipeline over C streams, for one output.
  static func render(
    from source: CFile, to destination: CFile, shape: Shape, output: Output, input: Input
  ) throws(Error) -> Report {
    do {
      let reports = try render(
        from: source, to: [Target(size: output.size, file: destination)], shape: shape,
        output: output, input: input)
      return reports[0]
    } catch {
      throw error.error
    }
  }

  /// The pipeline over C streams: decode once (shrunk on load when a JPEG is much larger
  /// than the largest output needs) → orient → crop → for each target: resize → coverage
  /// → composite → encode. The targets' rows are made in turns, each target's next row
  /// when it is the furthest behind (relative to its size), so they read the decoded rows
  /// at the same pace and only a few filter heights of rows are kept (``SharedRows``).
  /// `output.size` is not used: each target has its own.
  static func render(
    from source: CFile, to targets: [Target], shape: Shape, output: Output, input: Input
  ) throws(TargetedError) -> [Report] {
    func forInput(_ error: Error) -> TargetedError { TargetedError(error: error, target: nil) }
    do throws(Error) { try checkOutput(output) } catch { throw forInput(error) }
    var output = output
    var faces: [Face]? = nil
    if output.crop.looksAtPicture && shape.layout != .seed && !output.maskOnly {
      guard isSeekable(source) else {
        // A pipe is read once: keep its bytes, then look and render from memory.
        let bytes: [UInt8]
        do throws(Error) {
          bytes = try decoding { () throws(ImageError) in
            try readWhole(source, after: [], maxPixels: input.maxPixels)
          }
        } catch {
          throw forInput(error)
        }
        return try readingBytes(targeted: bytes) { memory throws(TargetedError) in
          try render(from: memory, to: targets, shape: shape, output: output, input: input)
        }
      }
    }
    let sizes = targets.map(\.size)
    // Shrink only as far as the largest output allows; nil (own size) forbids any.
    let fixedSizes = sizes.contains(nil) ? [] : sizes.compactMap { $0 }
    let need = PictureNeed(largestSide: fixedSizes.max(), smallestSide: fixedSizes.min()) {
      width, height in
      // The seed crops the top-left square, as UIKit's view bounds do.
      shape.layout == .seed
        ? CropSquare(left: 0, top: 0, side: min(width, height))
        : output.crop.square(width: width, height: height)
    }
    let stored: any ImageDecoder
    do throws(Error) {
      stored = try decoding { () throws(ImageError) in
        guard output.crop.looksAtPicture && shape.layout != .seed && !output.maskOnly else {
          return try openDecoder(
            file: source, maxPixels: input.maxPixels, need: need, memory: input.memoryBudget,
            autoOrient: input.autoOrient)
        }
        // The square depends on the picture: look first (decoding once where the render's
        // decode is small enough to keep), then render the square chosen.
        let chosen = try lookAndChoose(
          source, need: need, shape: shape, output: output, input: input)
        (output.crop, faces) = (chosen.crop, chosen.faces)
        if let picture = chosen.picture { return picture }
        return try openDecoder(
          file: source, maxPixels: input.maxPixels, need: need, memory: input.memoryBudget,
          autoOrient: input.autoOrient)
      }
    } catch {
      throw forInput(error)
    }
    let metadata = stored.metadata
    let orientation = input.autoOrient ? metadata.exif.map(Orientation.fromExif) ?? .up : .up
    let upright = openOriented(stored, orientation: orientation)
    // A decoder that delivered only a window around the square (WebP) says where it is.
    let crop =
      (orientation == .up ? stored.chosenSquare : nil)
      ?? (need.square?(upright.width, upright.height)
        ?? CropSquare(imageWidth: upright.width, imageHeight: upright.height))
    // Every size must fit the shape before anything is written.
    var shapes: [(side: Int, mask: MaskShape)] = []
    for (index, target) in targets.enumerated() {
      var side = target.size ?? crop.side
      if !output.upscale { side = min(side, crop.side) }
      do throws(Error) {
        try checkOutputSize(side: side, output: output, input: input)
        shapes.append((side, try maskShape(shape, side: side)))
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    // EXIF, XMP and comments are never copied (privacy); the ICC profile is, unless told.
    let profile = output.keepColorProfile && !output.maskOnly ? metadata.iccProfile : nil
    let shared = SharedRows(upright)
    var outputs: [TargetRender] = []
    for (index, (side, mask)) in shapes.enumerated() {
      let branch = shared.branch()
      let picture = ResizedDecoder(branch, crop: crop, side: side)
      do throws(Error) {
        let writer = try encoding { () throws(ImageError) in
          try makeWriter(
            file: targets[index].file, side: side, output: output, profile: profile,
            memory: input.memoryBudget)
        }
        outputs.append(
          TargetRender(
            branch: branch, picture: picture, writer: writer,
            rows: RowPipeline(
              shape: mask, border: shape.borderColor, output: output,
              imageIsOpaque: picture.isOpaque)))
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    guard !outputs.isEmpty else { return [] }

    let picture = outputs[try drawInTurns(&outputs, readsPicture: !output.maskOnly)].picture
    if input.strict && !output.maskOnly {
      // Rows below the crop are normally never decoded (like vips' sequential access);
      // strict mode reads them too, so damage anywhere in the file is found.
      do throws(Error) {
        try decoding { () throws(ImageError) in try picture.readRemainingSourceRows() }
      } catch {
        throw forInput(error)
      }
    }
    let readWarnings = (output.keepColorProfile ? metadata.warnings : []) + picture.warnings
    let inputCrop = cropInInput(
      stored: stored, orientation: orientation, shape: shape, crop: output.crop)
    var reports = outputs.map { target in
      Report(
        side: target.side, warnings: readWarnings + target.writer.warnings, crop: inputCrop,
        faces: faces)
    }
    let (width, height) = stored.uprightStoredSize(orientation)
    let facts = PictureFacts(
      width: width, height: height, hasColorProfile: metadata.iccProfile != nil,
      isTurned: (metadata.exif.map(Orientation.fromExif) ?? .up) != .up,
      isClean: picture.hasReadEverySourceRow && metadata.warnings.isEmpty
        && reports.allSatisfy(\.warnings.isEmpty))
    for index in reports.indices { reports[index].picture = facts }
    if input.strict, let first = reports.lazy.flatMap(\.warnings).first {
      throw forInput(.warningInStrictMode(first))
    }
    for (index, target) in outputs.enumerated() {
      do throws(Error) {
        try encoding { () throws(ImageError) in try target.writer.finish() }
      } catch {
        throw TargetedError(error: error, target: index)
      }
    }
    return reports
  }

  /// The mask of a `side` canvas, written to `destination`.
  static func renderMask(
    side: Int, to destination: CFile, shape: Shape, output: Output, input: Input
  ) throws(Error) -> Report {
    try checkOutput(output)
    try checkOutputSize(side: side, output: output, input: input)
    let mask = try maskShape(shape, side: side)
    let writer = try encoding { () throws(ImageError) in
      try makeWriter(
        file: destination, side: side, output: output, profile: nil, memory: input.memoryBudget)
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
  private static func checkOutput(_ output: Output) throws(Error) {
    if output.maskOnly && output.format != .png { throw .output(.maskMustBePNG(output.format)) }
    if let field = output.unusedField() {
      throw .output(.unusedField(field, format: output.writtenFormat))
    }
  }

  /// Refuses `output.size` in the calls that take the sides from their own arguments (the
  /// multi-size ones and the mask's).
  private static func checkNoSize(_ output: Output) throws(Error) {
    if output.size != nil { throw .output(.unusedField(.size, format: output.writtenFormat)) }
  }

  private static func maskShape(_ shape: Shape, side: Int) throws(Error) -> MaskShape {
    do {
      return try MaskShape(shape, canvasSide: side)
    } catch {
      throw .shape(error)
    }
  }

  /// The encoder for `output.format`. Masks are 8-bit gray PNGs, palette PNGs with
  /// `colors`; JPEG flattens onto the background.
  private static func makeWriter(
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

  /// Runs a decoding step; its failure is the input's.
  static func decoding<T>(_ step: () throws(ImageError) -> T) throws(Error) -> T {
    do {
      return try step()
    } catch {
      throw .decoding(error)
    }
  }

  /// Runs an encoding step; its failure is the output's.
  static func encoding<T>(_ step: () throws(ImageError) -> T) throws(Error) -> T {
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

  /// Runs `body` with a C stream that reads `bytes` (fmemopen), so the file pipeline serves
  /// bytes in memory too.
  static func readingBytes<T>(
    _ bytes: [UInt8], _ body: (CFile) throws(Error) -> T
  ) throws(Error) -> T {
    guard !bytes.isEmpty else { throw .decoding(ImageError(.unreadable, "empty file")) }
    var result: Result<T, Error> = .failure(.decoding(ImageError(.unreadable, "no data")))
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress,
        let source = fmemopen(UnsafeMutableRawPointer(mutating: base), buffer.count, "rb")
      else {
        result = .failure(.decoding(ImageError(.unreadable, "cannot read: \(systemError())")))
        return
      }
      defer { fclose(source) }
      result = Result(catching: { () throws(Error) -> T in try body(source) })
    }
    return try result.get()
  }

  /// Runs `body` with `count` C streams that collect what is written into memory.
  private static func collectingBytes(
    count: Int, _ body: ([CFile]) throws(Error) -> Void
  ) throws(Error) -> [[UInt8]] {
    let buffers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: count)
    let sizes = UnsafeMutablePointer<Int>.allocate(capacity: count)
    buffers.initialize(repeating: nil, count: count)
    sizes.initialize(repeating: 0, count: count)
    var streams: [CFile] = []
    defer {
      for index in 0..<count { free(buffers[index]) }
      buffers.deallocate()
      sizes.deallocate()
    }
    var failure: Error?
    for index in 0..<count {
      guard let memory = open_memstream(buffers + index, sizes + index) else {
        failure = .encoding(writeFailure())
        break
      }
      streams.append(memory)
    }
    if failure == nil {
      do throws(Error) {
        try body(streams)
      } catch {
        failure = error
      }
    }
    var closed = true
    for stream in streams where fclose(stream) != 0 { closed = false }
    if let failure { throw failure }
    guard closed else {
      throw .encoding(writeFailure())
    }
    return (0..<count).map { index in
      guard let buffer = buffers[index] else { return [] }
      return Array(UnsafeRawBufferPointer(start: buffer, count: sizes[index]))
    }
  }
}

/// The error of a failed write, from the current `errno`.
private func writeFailure() -> ImageError {
  ImageError(.writeFailed, "cannot write: \(systemError())")
}

/// The text of the current `errno`, e.g. "No space left on device".
package func systemError() -> String { String(cString: strerror(errno)) }
