/// The nearest of a set of points to any query, the same answer as trying every point
/// (the lowest index among equally near ones), in a fraction of the time.
///
/// The points are sorted by their projection on the grey diagonal (a unit vector, so a
/// projection's difference is never more than the distance). The search starts where the
/// query projects and walks outward both ways, stopping on each side at the first point
/// whose projection alone is farther than the best found. A quantizer asks this for every
/// distinct colour in every pass, so this is where its time goes: on avatars it tries a
/// few dozen of 256 entries.
struct NearestSearch {
  private let points: [Premultiplied]
  /// Indices into `points`, by increasing projection.
  private let order: [Int]
  private let projections: [Double]

  init(_ points: [Premultiplied]) {
    self.points = points
    let projected = points.map(Self.projection)
    order = points.indices.sorted { first, second in
      projected[first] != projected[second]
        ? projected[first] < projected[second] : first < second
    }
    projections = order.map { projected[$0] }
  }

  /// Halfway along the grey diagonal: (r + g + b + a) / 2.
  private static func projection(_ point: Premultiplied) -> Double {
    point.channels.sum() / 2
  }

  /// The index (in the points given) of the one nearest to `query`.
  func nearest(to query: Premultiplied) -> Int {
    let target = Self.projection(query)
    var (low, high) = (0, projections.count)
    while low < high {
      let middle = (low + high) / 2
      if projections[middle] < target { low = middle + 1 } else { high = middle }
    }
    var (best, bestDistance) = (Int.max, Double.infinity)
    func consider(_ position: Int) {
      let index = order[position]
      let distance = query.distance(to: points[index])
      if distance < bestDistance || (distance == bestDistance && index < best) {
        (best, bestDistance) = (index, distance)
      }
    }
    var (up, down) = (low, low - 1)
    var (upOpen, downOpen) = (up < projections.count, down >= 0)
    while upOpen || downOpen {
      if upOpen {
        let gap = projections[up] - target
        if gap * gap > bestDistance {
          upOpen = false
        } else {
          consider(up)
          up += 1
          upOpen = up < projections.count
        }
      }
      if downOpen {
        let gap = target - projections[down]
        if gap * gap > bestDistance {
          downOpen = false
        } else {
          consider(down)
          down -= 1
          downOpen = down >= 0
        }
      }
    }
    return best == Int.max ? 0 : best
  }
}
