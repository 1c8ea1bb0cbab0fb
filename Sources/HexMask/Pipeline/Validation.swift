/// The check every public entry point makes first: each public field of ``HexMask/Shape``,
/// ``HexMask/Output`` and ``HexMask/Input``, and the sizes passed as arguments, must be in
/// its range. A server builds these values from requests, so a value out of range is a
/// typed error naming the field, never a trap deep in the pipeline.
extension HexMask {
  /// A public field, or an argument, whose value is outside what it accepts.
  ///
  /// ```swift
  /// var shape = HexMask.Shape()
  /// shape.sides = 0
  /// // HexMask.svg(side: 64, shape: shape) throws .invalidValue with this description:
  /// // "Shape.sides is 0; it must be from 3 to 64"
  /// ```
  public struct InvalidValue: Equatable, Sendable, CustomStringConvertible {
    /// Where the value is, as a program spells it: `Shape.sides`, `Output.crop.focus.x`,
    /// `Input.memoryBudget.limit`, or an argument: `side`, `sizes[1]`, `destinations[0].size`.
    public var field: String
    /// The value given, as Swift prints it (`0`, `-1.0`, `nan`, `inf`), with its unit.
    public var value: String
    /// What the field accepts, worded to follow "it must be": `from 3 to 64`.
    public var allowed: String

    public init(field: String, value: String, allowed: String) {
      self.field = field
      self.value = value
      self.allowed = allowed
    }

    /// "Shape.sides is 0; it must be from 3 to 64".
    public var description: String { "\(field) is \(value); it must be \(allowed)" }
  }
}

extension HexMask.Output {
  /// Threads one PNG may be deflated with: at most one band per thread is in memory.
  public static let threadsRange = 1...1024
}

extension HexMask.Input {
  /// Pixel limits a picture may be checked against.
  public static let maxPixelsRange = 1...Int.max
  /// Frame numbers (0-based) and frame limits.
  public static let frameRange = 0...Int.max
  public static let maxFramesRange = 1...Int.max
}

extension HexMask {
  /// Checks every public field of the three values and each size argument, in the order
  /// the fields are declared, and throws for the first one out of range.
  static func validate(
    _ shape: Shape, _ output: Output, _ input: Input, sizes: [(field: String, value: Int)] = []
  ) throws(Error) {
    try check(shape)
    try check(output)
    try check(input)
    for (field, value) in sizes { try checkInt(value, in: Output.sizeRange, field: field) }
  }

  private static func check(_ shape: Shape) throws(Error) {
    try checkInt(shape.sides, in: Shape.sidesRange, field: "Shape.sides")
    if let corner = shape.corner { try checkLength(corner, field: "Shape.corner") }
    if let line = shape.line { try checkLength(line, field: "Shape.line") }
    // Any finite angle works (whole turns are taken off exactly); ∞ and NaN have no remainder.
    guard shape.rotation.isFinite else {
      throw invalid("Shape.rotation", "\(shape.rotation)°", "a finite number of degrees")
    }
  }

  private static func check(_ output: Output) throws(Error) {
    if let size = output.size { try checkInt(size, in: Output.sizeRange, field: "Output.size") }
    if case .focus(let x, let y) = output.crop {
      // Fractions of the picture: outside 0…1 would ask for a square beyond its edges.
      for (name, value) in [("x", x), ("y", y)] where !(0...1).contains(value) {
        throw invalid("Output.crop.focus.\(name)", "\(value)", "a fraction from 0 to 1")
      }
    }
    if let faceSize = output.faceSize, !(faceSize > 0 && faceSize <= 1) {
      // A share of the side: 0 would ask for an endless square, more than 1 for a face
      // larger than the square.
      throw invalid("Output.faceSize", "\(faceSize)", "a fraction more than 0 and at most 1")
    }
    try check(output.kind)
    try checkInt(output.threads, in: Output.threadsRange, field: "Output.threads")
  }

  /// Each kind's numbers, named as a program spells them: `Output.JPEG.quality`.
  private static func check(_ kind: Output.Kind) throws(Error) {
    func quality(_ quality: Output.Quality, _ kind: String) throws(Error) {
      guard case .lossy(let value) = quality else { return }
      try checkInt(value, in: Output.qualityRange, field: "Output.\(kind).quality")
    }
    func png(_ compression: PNGCompression, _ palette: Output.Palette?, _ kind: String)
      throws(Error)
    {
      try checkInt(compression.level, in: 0...9, field: "Output.\(kind).compression.level")
      if let palette {
        try checkInt(palette.colors, in: Output.colorsRange, field: "Output.\(kind).palette.colors")
      }
    }
    switch kind {
    case .png(let settings): try png(settings.compression, settings.palette, "PNG")
    case .mask(let settings): try png(settings.compression, settings.palette, "Mask")
    case .jpeg(let settings):
      try checkInt(settings.quality, in: Output.qualityRange, field: "Output.JPEG.quality")
    case .webp(let settings): try quality(settings.quality, "WebP")
    case .avif(let settings):
      try quality(settings.quality, "AVIF")
      if let effort = settings.effort {
        try checkInt(effort, in: Output.effortRange, field: "Output.AVIF.effort")
      }
    case .jxl(let settings):
      try quality(settings.quality, "JXL")
      if let effort = settings.effort {
        try checkInt(effort, in: Output.effortRange, field: "Output.JXL.effort")
      }
    }
  }

  private static func check(_ input: Input) throws(Error) {
    try checkInt(input.maxPixels, in: Input.maxPixelsRange, field: "Input.maxPixels")
    if let budget = input.memoryBudget {
      try checkInt(budget.limit, in: 0...Int.max, field: "Input.memoryBudget.limit")
    }
    if let frame = input.frame {
      try checkInt(frame, in: Input.frameRange, field: "Input.frame")
    }
    try checkInt(input.maxFrames, in: Input.maxFramesRange, field: "Input.maxFrames")
  }

  private static func checkInt(_ value: Int, in range: ClosedRange<Int>, field: String)
    throws(Error)
  {
    guard range.contains(value) else {
      let allowed =
        range.upperBound == Int.max
        ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
      throw invalid(field, "\(value)", allowed)
    }
  }

  /// A corner or line: too large for the canvas is a ``ShapeError`` that names the most
  /// that fits; here only what fits no canvas at all.
  private static func checkLength(_ length: Length, field: String) throws(Error) {
    let (value, unit) =
      switch length {
      case .pixels(let value): (value, "px")
      case .percent(let value): (value, "%")
      }
    guard value.isFinite && value >= 0 else {
      throw invalid(field, "\(value) \(unit)", "a finite number of at least 0")
    }
  }

  private static func invalid(_ field: String, _ value: String, _ allowed: String) -> Error {
    .invalidValue(InvalidValue(field: field, value: value, allowed: allowed))
  }
}
