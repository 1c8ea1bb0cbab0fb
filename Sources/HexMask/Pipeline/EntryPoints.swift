#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The public ways into the render: bytes in memory or file descriptors, one size or
// several, and the mask and SVG of a shape without a picture. Each checks its arguments at
// the door and hands C streams to the render (Render.swift).
extension HexMask {
  /// Cuts the picture in `bytes` (JPEG, PNG, GIF, HEIC or AVIF, or WebP, told by its
  /// content) into the shape and returns the output file's bytes (PNG, JPEG, WebP or AVIF,
  /// as `output.kind` says; animated for an animation, where the kind can move: see
  /// ``Rendered/animation``) with the render's warnings: a damaged input that still decoded
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
    return zip(files, reports).map { Rendered(bytes: $0, report: $1) }
  }

  /// Writes the mask of a `side` × `side` canvas (the gray PNG of ``Output/Kind/mask(_:)``)
  /// to `destination`, without any picture. `output.size` must be nil: `side` is the size.
  /// `output.kind` is a mask, or a PNG whose compression and palette the mask takes; a
  /// PNG's background is ``OutputError/unusedField(_:format:)`` and another format
  /// ``OutputError/maskMustBePNG(_:)``, as a mask has neither.
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
    output.kind = try maskKind(output.kind)
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
  /// Refuses `output.size` in the calls that take the sides from their own arguments (the
  /// multi-size ones and the mask's).
  private static func checkNoSize(_ output: Output) throws(Error) {
    if output.size != nil { throw .output(.unusedField(.size, format: output.format)) }
  }
}
