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

  public init(side: Int, warnings: [String]) {
    self.side = side
    self.warnings = warnings
  }
}
