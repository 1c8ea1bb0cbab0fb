/// The canvas every frame of an animation is composited onto, and the copy that "restore to
/// previous" puts back: one for GIF and APNG (and any later format), so disposal and the
/// saved copy are one rule. Memory: the canvas, and one copy of it once a frame asks to be
/// undone that way (priced up front by ``reserveFrameReading``).
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

  /// A transparent canvas. `width × height × 4` must fit an `Int` (the readers check the
  /// size against the pixel limit first).
  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    pixels = .allocate(capacity: width * height * 4)
    pixels.initialize(repeating: 0)
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

  /// The canvas as a frame hands it out.
  var shown: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(pixels) }
}
