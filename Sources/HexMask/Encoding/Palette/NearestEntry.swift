/// Finds the entry a colour maps to: the nearest in premultiplied RGBA (as the picture is
/// seen) among the entries it may take.
///
/// - An opaque colour takes only opaque entries, when there are any, so that no pixel
///   inside the shape lets the page show through (254 is near 255 in colour, not in
///   meaning).
/// - A colour of the edge (0 < alpha < 255) takes only entries whose alpha is within one
///   level of its own, when the palette holds any: the edge keeps its coverage wherever
///   the palette can keep it. Elsewhere it takes the nearest of all.
///
/// The quantizer's k-means passes map with this too, so the entries are chosen for the
/// mapping they get. A level held by a single entry sends all its pixels to that one
/// colour: the quantizer keeps the edge's entries on a few shared alpha levels so that a
/// held level usually has several colours.
struct NearestEntry {
  private let points: [Premultiplied]
  private let all: NearestSearch
  /// The opaque entries' indices and a search among them; nil when there are none.
  private let opaque: (indices: [Int], search: NearestSearch)?
  /// Each entry's place among the opaque ones, for a guess; -1 for the others.
  private let opaquePlace: [Int]
  /// For each alpha level 1…254, the entries within one level of it, by index.
  private let nearLevel: [[Int]]

  init(_ points: [Premultiplied]) {
    self.points = points
    all = NearestSearch(points)
    let levels = points.map(\.alphaLevel)
    let indices = points.indices.filter { levels[$0] == 255 }
    opaque = indices.isEmpty ? nil : (indices, NearestSearch(indices.map { points[$0] }))
    var opaquePlace = [Int](repeating: -1, count: points.count)
    for (place, index) in indices.enumerated() { opaquePlace[index] = place }
    self.opaquePlace = opaquePlace
    var nearLevel = [[Int]](repeating: [], count: 256)
    for (index, level) in levels.enumerated() {
      for near in max(level - 1, 1)...min(level + 1, 254) {
        nearLevel[near].append(index)
      }
    }
    self.nearLevel = nearLevel
  }

  /// A packed straight colour's entry.
  func index(of color: UInt32) -> Int { index(of: Premultiplied(color)) }

  /// `point`'s entry; `guess`, a likely answer such as the last pass's, only makes it
  /// faster.
  func index(of point: Premultiplied, guess: Int? = nil) -> Int {
    let level = point.alphaLevel
    if level == 255, let opaque {
      let place = guess.map { points.indices.contains($0) ? opaquePlace[$0] : -1 }
      return opaque.indices[opaque.search.nearest(to: point, guess: place)]
    }
    if level > 0, level < 255, !nearLevel[level].isEmpty {
      // Few entries share a level: trying each is cheaper than a search.
      var (best, bestDistance) = (0, Double.infinity)
      for index in nearLevel[level] {
        let distance = point.distance(to: points[index])
        if distance < bestDistance { (best, bestDistance) = (index, distance) }
      }
      return best
    }
    return all.nearest(to: point, guess: guess)
  }
}

extension Premultiplied {
  /// The alpha rounded to a level 0…255, as a palette entry stores it.
  var alphaLevel: Int {
    let alpha = channels[3]
    guard alpha > 0 else { return 0 }
    return alpha >= 255 ? 255 : Int(alpha.rounded())
  }
}
