/// The nearest of a set of points to any query, the same answer as trying every point
/// (the lowest index among equally near ones), in a fraction of the time.
///
/// The points are sorted by their projection on the axis along which they spread most (a
/// unit vector, so a projection's difference is never more than the distance). The
/// search starts from a guess, when there is one, then where the query projects, and walks
/// outward both ways, stopping on each side at the first point whose projection alone is
/// farther than the best found. A quantizer asks this for every distinct colour in every
/// pass, so this is where its time goes: on avatars it tries a few dozen of 256 entries.
struct NearestSearch {
  private let points: [Premultiplied]
  private let axis: SIMD4<Double>
  /// Indices into `points`, by increasing projection.
  private let order: [Int]
  private let projections: [Double]
  /// For each point, the squared distance to the nearest other one.
  private let clearance: [Double]

  init(_ points: [Premultiplied]) {
    self.points = points
    let axis = Self.widestAxis(points)
    self.axis = axis
    let projected = points.map { ($0.channels * axis).sum() }
    order = points.indices.sorted { first, second in
      projected[first] != projected[second]
        ? projected[first] < projected[second] : first < second
    }
    projections = order.map { projected[$0] }
    var clearance = [Double](repeating: .infinity, count: points.count)
    for first in points.indices {
      for second in first + 1..<points.count {
        let distance = points[first].distance(to: points[second])
        clearance[first] = min(clearance[first], distance)
        clearance[second] = min(clearance[second], distance)
      }
    }
    self.clearance = clearance
  }

  /// The unit vector along which `points` vary most (the covariance's leading
  /// eigenvector, by a fixed number of power iterations from the grey diagonal).
  private static func widestAxis(_ points: [Premultiplied]) -> SIMD4<Double> {
    let grey = SIMD4<Double>(repeating: 0.5)
    guard points.count > 1 else { return grey }
    let mean = points.reduce(SIMD4<Double>.zero) { $0 + $1.channels } / Double(points.count)
    var covariance = [SIMD4<Double>](repeating: .zero, count: 4)
    for point in points {
      let centred = point.channels - mean
      for row in 0..<4 { covariance[row] += centred * centred[row] }
    }
    var axis = grey
    for _ in 0..<12 {
      var next = SIMD4<Double>.zero
      for row in 0..<4 { next[row] = (covariance[row] * axis).sum() }
      let length = (next * next).sum().squareRoot()
      // All points equal, or the iteration vanished: any unit vector is right.
      guard length > 1e-12, length.isFinite else { return grey }
      axis = next / length
    }
    return axis
  }

  /// The index (in the points given) of the one nearest to `query`; `guess`, a likely
  /// answer such as the last pass's, only makes it faster.
  func nearest(to query: Premultiplied, guess: Int? = nil) -> Int {
    var (best, bestDistance) = (Int.max, Double.infinity)
    if let guess, points.indices.contains(guess) {
      (best, bestDistance) = (guess, query.distance(to: points[guess]))
      // Closer to the guess than half the way to its nearest neighbour: every other point
      // is farther (triangle inequality), so the guess is the answer, with no tie. In the
      // k-means passes most points stay with their centre and end here.
      if 4 * bestDistance < clearance[guess] { return guess }
    }
    let target = (query.channels * axis).sum()
    var (low, high) = (0, projections.count)
    while low < high {
      let middle = (low + high) / 2
      if projections[middle] < target { low = middle + 1 } else { high = middle }
    }
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
