/// What ``render(input:output:options:)`` did with one input.
///
/// ```swift
/// let report = try render(input: "in.jpg", output: "out.png", options: RenderOptions())
/// for warning in report.warnings { print("warning: \(warning)") }
/// ```
public struct RenderReport: Equatable, Sendable {
  /// Side of the square output, in pixels.
  public var side: Int
  /// Problems that did not stop the output (a truncated JPEG scan, a dropped ICC profile).
  public var warnings: [String]
  /// The shape as drawn, e.g. for writing it as SVG too.
  public var shape: MaskShape?
  /// Size and modification time of the file put in place; nil for standard output, a FIFO
  /// or a device.
  public var output: FileStamp?

  public init(side: Int, warnings: [String], shape: MaskShape? = nil, output: FileStamp? = nil) {
    self.side = side
    self.warnings = warnings
    self.shape = shape
    self.output = output
  }
}
