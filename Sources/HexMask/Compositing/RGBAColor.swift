extension HexMask {
  /// A colour with straight (non-premultiplied) 8-bit channels.
  ///
  /// ```swift
  /// let red = RGBAColor(parsing: "#f00")   // also "#ff0000", "#ff000080", "red"
  /// ```
  public struct RGBAColor: Sendable, Equatable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
      self.red = red
      self.green = green
      self.blue = blue
      self.alpha = alpha
    }

    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
  }
}

/// `HexMask.RGBAColor` by its short name inside the package.
package typealias RGBAColor = HexMask.RGBAColor
