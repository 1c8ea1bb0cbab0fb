#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the square goes when there are faces. The square keeps its side (the short side
/// of the picture, as every gravity's does) and slides along the long side; each face's
/// head (the face box, half a face more above it for the hair, a fifth below for the
/// chin) counts by its area times the share of it inside the shape (sampled on a 9 × 9
/// grid), so a whole head counts fully and a large head that cannot fit whole still
/// outweighs a small one. The place that keeps the most head area wins; among equals,
/// the one whose faces sit nearest the middle (weighted by area), then the one nearest
/// the centre of the picture.
extension SmallPicture {
  package func faceSquare(_ faces: [PixelBox], sides: Int, rotation: Double) -> CropSquare {
    let side = min(width, height)
    let horizontal = width > height
    let length = horizontal ? width : height
    let outline = ShapeOutline(sides: sides, rotation: rotation)
    let heads = faces.map { face -> (left: Double, top: Double, right: Double, bottom: Double) in
      let w = Double(face.width)
      let h = Double(face.height)
      return (
        max(0, Double(face.x) - 0.1 * w), max(0, Double(face.y) - 0.5 * h),
        min(Double(width), Double(face.x) + 1.1 * w),
        min(Double(height), Double(face.y) + 1.2 * h)
      )
    }
    let middle = (length - side) / 2
    var best = (offset: middle, kept: -1.0, spread: Double.infinity, distance: Int.max)
    for offset in 0...max(0, length - side) {
      var kept = 0.0
      var spread = 0.0
      let centre = Double(offset) + Double(side) / 2
      for (face, head) in zip(faces, heads) {
        let area = Double(face.width * face.height)
        let (x0, y0) = horizontal ? (Double(offset), 0.0) : (0.0, Double(offset))
        var inside = 0
        for i in 0..<9 {
          for j in 0..<9 {
            let x = head.left + (head.right - head.left) * Double(i) / 8
            let y = head.top + (head.bottom - head.top) * Double(j) / 8
            if outline.contains(x: (x - x0) / Double(side), y: (y - y0) / Double(side)) {
              inside += 1
            }
          }
        }
        kept += area * Double(inside) / 81
        let along =
          horizontal
          ? Double(face.x) + Double(face.width) / 2 : Double(face.y) + Double(face.height) / 2
        spread += area * abs(along - centre)
      }
      let distance = abs(offset - middle)
      if kept > best.kept || (kept == best.kept && spread < best.spread - 1e-9)
        || (kept == best.kept && abs(spread - best.spread) <= 1e-9 && distance < best.distance)
      {
        best = (offset, kept, spread, distance)
      }
    }
    return horizontal
      ? CropSquare(left: best.offset, top: 0, side: side)
      : CropSquare(left: 0, top: best.offset, side: side)
  }
}

/// The shape's straight-sided polygon on a unit canvas, fitted as the centred layout fits
/// it (its bounding box centred, as large as the canvas allows), less a 4 % margin for the
/// border and the rounded corners.
private struct ShapeOutline {
  var corners: [(x: Double, y: Double)]

  init(sides: Int, rotation: Double) {
    let n = max(3, min(sides, 64))
    let points = (0..<n).map { k -> (Double, Double) in
      let angle = (rotation + 360 * Double(k) / Double(n)) * .pi / 180
      return (cos(angle), sin(angle))
    }
    let minX = points.map(\.0).min() ?? -1
    let maxX = points.map(\.0).max() ?? 1
    let minY = points.map(\.1).min() ?? -1
    let maxY = points.map(\.1).max() ?? 1
    let scale = 0.96 / max(maxX - minX, maxY - minY, 1e-9)
    corners = points.map {
      (0.5 + ($0.0 - (minX + maxX) / 2) * scale, 0.5 + ($0.1 - (minY + maxY) / 2) * scale)
    }
  }

  /// True when (x, y) of the unit canvas is inside (convex polygon: one side of every edge).
  func contains(x: Double, y: Double) -> Bool {
    var sign = 0.0
    for index in corners.indices {
      let a = corners[index]
      let b = corners[(index + 1) % corners.count]
      let cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
      if cross == 0 { continue }
      if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
    }
    return true
  }
}
