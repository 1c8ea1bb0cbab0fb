// Animations (GIF, APNG, animated WebP) as a browser shows them: each frame composited onto
// the canvas (disposal, blending, transparency applied), handed out one at a time, so memory
// follows the canvas, not the number of frames. The render then treats each canvas as a
// still picture: one crop decision, one mask, one resize per frame.

/// One frame of an animation, composited: the whole canvas as the viewer sees it while the
/// frame is shown, and for how long.
package struct ComposedFrame {
  /// Straight RGBA8, `canvasWidth × 4` bytes a row, top to bottom; valid until the next
  /// call to ``FrameSource/nextFrame()``, which reuses it.
  package var canvas: UnsafeBufferPointer<UInt8>
  /// How long the frame is shown, in milliseconds, as browsers play it (a GIF's 0 or 1
  /// centisecond is 100 ms).
  package var delayMilliseconds: Int
  /// 0-based.
  package var index: Int
  /// The rectangle of the canvas that changed since the frame before (the whole canvas for
  /// the first frame); nil when the reader cannot tell, and anything may have.
  package var changed: CanvasRectangle? = nil
}

/// How long browsers show a frame stored as lasting `stored` milliseconds, in every
/// animated format: Blink (`DeferredImageDecoder::FrameDurationAtIndex`, from WebKit,
/// webkit.org/b/36082) and Firefox show any frame of 10 ms or less for 100 ms, so that
/// 0-delay frames do not flash. (WebCodecs' `ImageDecoder` reports the stored delay; the
/// rule is the player's.) Every frame reader gives its delays through this one rule.
package func shownMilliseconds(stored: Int) -> Int { stored <= 10 ? 100 : stored }

/// The frames of an animation, composited in order onto a canvas of fixed size.
///
/// Implementations keep the canvas (and, for "restore to previous", one copy of it): memory
/// is O(canvas), whatever the number of frames. Every problem is a thrown `ImageError`
/// naming the frame; nothing traps, nothing `longjmp`s across Swift.
///
/// ```swift
/// let frames = try GIFFrames(file: fp, maxPixels: limit, maxFrames: 1000)
/// while let frame = try frames.nextFrame() { encoder.add(frame) }
/// ```
package protocol FrameSource: AnyObject {
  /// The canvas (logical screen) size every frame is composited onto.
  var canvasWidth: Int { get }
  var canvasHeight: Int { get }
  /// How many times the animation plays in all, 0 for forever, as APNG's `acTL` and WebP
  /// store it: a GIF's NETSCAPE2.0 count N (repeats after the first) is N + 1, one without
  /// the extension plays once (1), as Chromium plays them.
  var loopCount: Int { get }
  /// The frame count when the header says it (APNG's `acTL`, WebP's frames), nil when only
  /// reading to the end tells (GIF).
  var declaredFrameCount: Int? { get }
  /// The ICC profile and other metadata found before the first frame.
  var metadata: ImageMetadata { get }
  /// Problems that did not stop decoding (a GIF that ends cleanly between blocks gives the
  /// frames before it; one cut inside a frame is refused).
  var warnings: [Warning] { get }
  /// Composites the next frame onto the canvas and returns it; nil after the last one.
  func nextFrame() throws(ImageError) -> ComposedFrame?
}
