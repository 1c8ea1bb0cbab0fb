/// The candidate closest to a mistyped `word`, if it is close enough to be what the user
/// meant: at most one edit for short words, two for longer ones, a unique completion of an
/// abbreviation (`--border` → `--border-color`), or the one name that has the word as a
/// hyphenated part (`--color` → `--border-color`).
///
/// ```swift
/// suggestion(for: "--cornr", among: ["--corner", "--sides"])  // "--corner"
/// ```
///
/// - Complexity: O(*n* · *m*²) for *n* candidates of length about *m*.
func suggestion(for word: String, among candidates: [String]) -> String? {
  let completions = candidates.filter { $0.hasPrefix(word) }
  if word.count >= 4, completions.count == 1 { return completions.first }
  let part = word.drop(while: { $0 == "-" })
  let containing = candidates.filter { $0.split(separator: "-").contains(part) }
  if !part.isEmpty, containing.count == 1 { return containing.first }
  let limit = word.count > 5 ? 2 : 1
  let scored = candidates.map { (candidate: $0, distance: editDistance(word, $0)) }
  guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit,
    scored.filter({ $0.distance == best.distance }).count == 1
  else { return nil }
  return best.candidate
}

/// The Levenshtein distance: the fewest insertions, deletions and substitutions of characters
/// that turn `a` into `b`. Letter case counts as a difference.
///
/// - Complexity: O(*a* · *b*) time, O(*b*) memory.
func editDistance(_ a: String, _ b: String) -> Int {
  let target = Array(b)
  var previous = Array(0...target.count)
  for (i, character) in a.enumerated() {
    var current = [i + 1]
    current.reserveCapacity(target.count + 1)
    for (j, other) in target.enumerated() {
      let substitution = previous[j] + (character == other ? 0 : 1)
      current.append(min(substitution, previous[j + 1] + 1, current[j] + 1))
    }
    previous = current
  }
  return previous[target.count]
}
