/// A picture held whole in memory (an animation's canvas), read upright row by row in any
/// orientation: the stored pixels are read in another order, never copied, so turning a
/// frame costs no memory and every frame of an animation is turned as its still is.
///
/// ```swift
/// let upright = TurnedCanvas(frame.canvas, width: w, orientation: .right, metadata: m)
/// ```
final class TurnedCanvas: ImageDecoder {
  /// The upright size.
  let width: Int
  let height: Int
  /// The warnings of the animation the canvas belongs to, as it reads on.
  var warnings: [Warning] { source?.warnings ?? [] }
  let metadata: ImageMetadata
  let isOpaque: Bool
  private let canvas: UnsafeBufferPointer<UInt8>
  private let orientation: Orientation
  private let storedWidth: Int
  private let storedHeight: Int
  /// What owns `canvas` and must outlive this reader: the animation it belongs to.
  private let source: (any ImageDecoder)?
  private var rowsRead = 0

  /// `canvas` holds straight RGBA8 rows of `storedWidth` pixels, as the file stores them.
  init(
    _ canvas: UnsafeBufferPointer<UInt8>, storedWidth: Int, orientation: Orientation,
    metadata: ImageMetadata, isOpaque: Bool = false,
    source: (any ImageDecoder)? = nil
  ) {
    self.canvas = canvas
    self.orientation = orientation
    self.storedWidth = storedWidth
    storedHeight = storedWidth > 0 ? canvas.count / (storedWidth * 4) : 0
    (width, height) = orientation.uprightSize(width: storedWidth, height: storedHeight)
    self.metadata = metadata
    self.isOpaque = isOpaque
    self.source = source
  }

  func skipRows(_ count: Int) throws(ImageError) {
    guard count > 0 else { return }
    guard count <= height - rowsRead else {
      throw ImageError(.unreadable, "read past the last row (the image has \(height) rows)")
    }
    rowsRead += count
  }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try checkRead(of: row, index: rowsRead)
    let y = rowsRead
    rowsRead += 1
    guard width > 0 else { return }
    // The mapping is affine in x, so one upright row walks the stored pixels with a fixed step.
    let first = orientation.storedPixel(x: 0, y: y, width: storedWidth, height: storedHeight)
    let next = orientation.storedPixel(
      x: min(1, width - 1), y: y, width: storedWidth, height: storedHeight)
    let step = width > 1 ? ((next.y - first.y) * storedWidth + next.x - first.x) * 4 : 0
    var from = (first.y * storedWidth + first.x) * 4
    if step == 4 {
      // The upright row lies in one stored run (orientation 1, most files): copied whole.
      _ = row.update(fromContentsOf: canvas[from..<(from + row.count)])
      return
    }
    for to in stride(from: 0, to: row.count, by: 4) {
      row[to] = canvas[from]
      row[to + 1] = canvas[from + 1]
      row[to + 2] = canvas[from + 2]
      row[to + 3] = canvas[from + 3]
      from += step
    }
  }
}
