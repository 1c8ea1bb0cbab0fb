@testable import HexMask

/// The names the tests use for a shape's lengths in pixels.
extension HexMask.Shape {
  /// The corner radius in pixels, when it was given in pixels.
  var cornerRadius: Double? {
    get { if case .pixels(let value)? = corner { value } else { nil } }
    set { corner = newValue.map(Length.pixels) }
  }

  /// The border width in pixels, when it was given in pixels.
  var lineWidth: Double? {
    get { if case .pixels(let value)? = line { value } else { nil } }
    set { line = newValue.map(Length.pixels) }
  }

  /// The rotation in degrees.
  var rotationDegrees: Double {
    get { rotation }
    set { rotation = newValue }
  }
}
