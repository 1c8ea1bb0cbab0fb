/// The canvas every frame of an animation is composited onto, and the copy that "restore to
/// previous" puts back: one for GIF and APNG (and any later format), so disposal and the
/// saved copy are one rule. It also keeps the rectangle that changed since the last frame
/// was handed out (``handOut()``), so that a render redraws only the output rows a frame
/// reaches. Memory: the canvas, and one copy of it once a frame asks to be undone that
/// way (priced up front by ``reserveFrameReading``).
final class FrameCanvas {
  /// What happens to a shown frame's rectangle before the next frame is drawn.
  enum Disposal {
    /// Left as drawn.
    case none
    /// Cleared to transparent.
    case background
    /// Put back as it was before the frame was drawn.
    case previous
  }

  let width: Int
  let height: Int
  /// Straight RGBA8, `width × 4` bytes a row.
  let pixels: UnsafeMutableBufferPointer<UInt8>
  private var saved: UnsafeMutableBufferPointer<UInt8>?
  /// What changed since the last frame was handed out: the whole canvas before the first.
  private var changed: CanvasRectangle

  /// A transparent canvas. `width × height × 4` must fit an `Int` (the readers check the
  /// size against the pixel limit first).
  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    pixels = .allocate(capacity: width * height * 4)
    pixels.initialize(repeating: 0)
    changed = CanvasRectangle(
      left: 0, top: 0, width: width, height: height, canvasWidth: width, canvasHeight: height)
  }

  deinit {
    pixels.deallocate()
    saved?.deallocate()
  }

  /// Keeps what `rectangle` holds now, before a frame that is to be undone by
  /// ``Disposal/previous`` is drawn there.
  func save(_ rectangle: CanvasRectangle) {
    let copy = saved ?? .allocate(capacity: pixels.count)
    if saved == nil { copy.initialize(repeating: 0) }
    saved = copy
    rectangle.rows(width: width) { range in
      _ = UnsafeMutableBufferPointer(rebasing: copy[range])
        .update(fromContentsOf: UnsafeBufferPointer(rebasing: pixels[range]))
    }
  }

  /// Undoes the shown frame's `rectangle` as `disposal` says. ``Disposal/previous`` without
  /// a saved copy (no frame asked for one) leaves the canvas as it is.
  func dispose(_ disposal: Disposal, _ rectangle: CanvasRectangle) {
    if disposal != .none { changed = changed.union(rectangle) }
    switch disposal {
    case .none: return
    case .background: rectangle.rows(width: width) { pixels[$0].initialize(repeating: 0) }
    case .previous:
      guard let saved else { return }
      rectangle.rows(width: width) { range in
        _ = UnsafeMutableBufferPointer(rebasing: pixels[range])
          .update(fromContentsOf: UnsafeBufferPointer(rebasing: saved[range]))
      }
    }
  }

  /// Says that a frame is drawn into `rectangle` (the readers write ``pixels`` there).
  func draw(_ rectangle: CanvasRectangle) {
    changed = changed.union(rectangle)
  }

  /// The canvas as a frame hands it out, and the rectangle that changed since the frame
  /// before was (the whole canvas for the first); the next frame's changes start empty.
  func handOut() -> (pixels: UnsafeBufferPointer<UInt8>, changed: CanvasRectangle) {
    defer {
      changed = CanvasRectangle(
        left: 0, top: 0, width: 0, height: 0, canvasWidth: width, canvasHeight: height)
    }
    return (UnsafeBufferPointer(pixels), changed)
  }
}

/// A rectangle of a canvas, clipped to it; empty when its width or height is 0.
package struct CanvasRectangle: Equatable, Sendable {
  package var left: Int
  package var top: Int
  package var width: Int
  package var height: Int

  init(left: Int, top: Int, width: Int, height: Int, canvasWidth: Int, canvasHeight: Int) {
    self.left = left
    self.top = top
    self.width = max(0, min(width, canvasWidth - left))
    self.height = max(0, min(height, canvasHeight - top))
  }

  var isEmpty: Bool { width == 0 || height == 0 }
  /// The rows and columns it covers.
  package var rowRange: Range<Int> { top..<(top + height) }
  package var columnRange: Range<Int> { left..<(left + width) }

  /// The smallest rectangle holding both.
  func union(_ other: CanvasRectangle) -> CanvasRectangle {
    if other.isEmpty { return self }
    if isEmpty { return other }
    let (left, top) = (min(self.left, other.left), min(self.top, other.top))
    let right = max(self.left + width, other.left + other.width)
    let bottom = max(self.top + height, other.top + other.height)
    return CanvasRectangle(
      left: left, top: top, width: right - left, height: bottom - top, canvasWidth: right,
      canvasHeight: bottom)
  }

  /// Calls `body` with the byte range of each of the rectangle's rows on the canvas.
  func rows(width canvasWidth: Int, _ body: (Range<Int>) -> Void) {
    guard width > 0 else { return }
    for y in top..<(top + height) {
      let start = (y * canvasWidth + left) * 4
      body(start..<(start + width * 4))
    }
  }
}
