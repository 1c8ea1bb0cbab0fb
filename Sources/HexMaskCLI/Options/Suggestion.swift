/// The candidates closest to a mistyped `word`, if they are close enough to be what the
/// user meant: the completions of an abbreviation when there are one or two (`--border` →
/// `--border-color`), the one name that has the word as a hyphenated part (`--color` →
/// `--border-color`; with the one name a letter away before it: `--frames` → `--frame` and
/// `--max-frames`), all of them when they differ (`--color` → `--colors`, `--colorspace`
/// and `--border-color`: the user may mean any), else the one name about one edit per four letters away (at least one).
///
/// ```swift
/// suggestions(for: "--cornr", among: ["--corner", "--sides"])  // ["--corner"]
/// ```
///
/// - Complexity: O(*n* · *m*²) for *n* candidates of length about *m*.
func suggestions(for word: String, among candidates: [String]) -> [String] {
  let part = word.drop(while: { $0 == "-" })
  let completions = candidates.filter { $0.hasPrefix(word) }
  let containing = candidates.filter { $0.split(separator: "-").contains(part) }
  var found: [String] = []
  if part.count >= 2, (1...2).contains(completions.count) { found += completions }
  let scored = candidates.map { (candidate: $0, distance: editDistance(word, $0)) }
  if !part.isEmpty, containing.count == 1, !found.contains(containing[0]) {
    // A plural one letter away is as likely as the part: `--frames` may be `--frame` too.
    let near = scored.filter { $0.distance == 1 }.map(\.candidate)
    if found.isEmpty, near.count == 1, near[0] != containing[0] { found += near }
    found += containing
  }
  if !found.isEmpty { return found }

  let limit = max(1, part.count / 4)
  guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit,
    scored.filter({ $0.distance == best.distance }).count == 1
  else { return [] }
  return [best.candidate]
}

/// The number of single-character insertions, deletions, substitutions and swaps of two
/// neighbours that turn `a` into `b` (optimal string alignment distance). Letter case counts.
///
/// ```swift
/// editDistance("--hlep", "--help")  // 1
/// ```
///
/// - Complexity: O(*a* · *b*) time, O(*b*) memory.
func editDistance(_ a: String, _ b: String) -> Int {
  let source = Array(a)
  let target = Array(b)
  var beforePrevious: [Int] = []
  var previous = Array(0...target.count)
  for i in source.indices {
    var current = [i + 1]
    current.reserveCapacity(target.count + 1)
    for j in target.indices {
      var distance = min(
        previous[j] + (source[i] == target[j] ? 0 : 1), previous[j + 1] + 1, current[j] + 1)
      if i > 0, j > 0, source[i] == target[j - 1], source[i - 1] == target[j] {
        distance = min(distance, beforePrevious[j - 1] + 1)
      }
      current.append(distance)
    }
    beforePrevious = previous
    previous = current
  }
  return previous[target.count]
}
