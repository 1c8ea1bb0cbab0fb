extension HexMask {
  /// Which part of a non-square picture the square crop keeps: an edge or corner it
  /// touches, or the middle.
  ///
  /// ```swift
  /// let square = CropSquare(imageWidth: 4032, imageHeight: 3024, gravity: .east)
  /// // square == CropSquare(left: 1008, top: 0, side: 3024)
  /// ```
  public enum Gravity: String, CaseIterable, Sendable {
    case center, north, south, east, west, northeast, northwest, southeast, southwest

    /// Where the square sits along each axis: 0 at the left/top, 1 at the right/bottom.
    var anchor: (x: Anchor, y: Anchor) {
      switch self {
      case .center: (.middle, .middle)
      case .north: (.middle, .start)
      case .south: (.middle, .end)
      case .east: (.end, .middle)
      case .west: (.start, .middle)
      case .northeast: (.end, .start)
      case .northwest: (.start, .start)
      case .southeast: (.end, .end)
      case .southwest: (.start, .end)
      }
    }

    /// A position along one axis.
    enum Anchor {
      case start, middle, end

      /// The offset of a span of `side` inside `length` at this position.
      func offset(length: Int, side: Int) -> Int {
        switch self {
        case .start: 0
        case .middle: (length - side) / 2
        case .end: length - side
        }
      }
    }
  }
}

/// The largest square inside an image, in the image's pixels: the part of the picture
/// the shape is cut from.
///
/// The side is the image's short side, so only one of `left` and `top` can be other than
/// 0, except for a framed face (``init(imageWidth:imageHeight:focus:sideShare:)``), whose
/// square may be smaller.
///
/// ```swift
/// let middle = CropSquare(imageWidth: 640, imageHeight: 427, gravity: .center)
/// // CropSquare(left: 106, top: 0, side: 427)
/// let face = CropSquare(imageWidth: 3024, imageHeight: 4032, focus: (x: 0.5, y: 0.2))
/// // CropSquare(left: 0, top: 0, side: 3024): the square cannot go higher than the top
/// ```
package struct CropSquare: Equatable, Sendable {
  /// Columns left of the square.
  package var left: Int
  /// Rows above the square.
  package var top: Int
  /// Width and height of the square.
  package var side: Int

  package init(left: Int, top: Int, side: Int) {
    self.left = left
    self.top = top
    self.side = side
  }

  /// The square `gravity` names; `.center` leaves equal margins, the left or top one
  /// a pixel smaller when they cannot be equal.
  package init(imageWidth: Int, imageHeight: Int, gravity: Gravity = .center) {
    side = min(imageWidth, imageHeight)
    left = gravity.anchor.x.offset(length: imageWidth, side: side)
    top = gravity.anchor.y.offset(length: imageHeight, side: side)
  }

  /// The square centred on `focus` as nearly as the image allows. `focus` is a point
  /// of the image as fractions of its width and height (0…1, from the top-left corner);
  /// values outside 0…1 act like the nearest edge.
  package init(imageWidth: Int, imageHeight: Int, focus: (x: Double, y: Double)) {
    side = min(imageWidth, imageHeight)
    left = Self.offset(fraction: focus.x, length: imageWidth, side: side)
    top = Self.offset(fraction: focus.y, length: imageHeight, side: side)
  }

  /// The square whose side is `sideShare` (0…1) of the short side, rounded, at least 1
  /// pixel, centred on `focus` as nearly as the image allows: a framed face's square.
  package init(
    imageWidth: Int, imageHeight: Int, focus: (x: Double, y: Double), sideShare: Double
  ) {
    let short = min(imageWidth, imageHeight)
    // A share outside 0…1 (or NaN) is the full side: the decision never makes one.
    let share = sideShare > 0 && sideShare <= 1 ? sideShare : 1
    let side = min(max(Int((share * Double(short)).rounded()), 1), max(short, 0))
    self.side = side
    // Rounded to the nearest pixel: the centre comes from fractions, and at the size it
    // was found on must give back the same square.
    func start(_ fraction: Double, _ length: Int) -> Int {
      guard fraction.isFinite else { return (length - side) / 2 }
      let start = (fraction * Double(length) - Double(side) / 2).rounded()
      return Int(min(max(start, 0), Double(max(length - side, 0))))
    }
    left = start(focus.x, imageWidth)
    top = start(focus.y, imageHeight)
  }

  /// Where a span of `side` centred on `fraction` of `length` starts, kept inside `length`.
  private static func offset(fraction: Double, length: Int, side: Int) -> Int {
    guard fraction.isFinite else { return (length - side) / 2 }
    let centre = fraction * Double(length)
    // Rounding down makes focus (0.5, 0.5) the same square as `.center`.
    let start = (centre - Double(side) / 2).rounded(.down)
    return Int(min(max(start, 0), Double(length - side)))
  }
}

/// `HexMask.Gravity` by its short name inside the package.
package typealias Gravity = HexMask.Gravity
