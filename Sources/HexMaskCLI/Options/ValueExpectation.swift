extension ValueKind {
  /// What a valid value looks like, completing "expected …".
  var expectation: String {
    switch self {
    case .flag: "no value"
    case .wholeNumber(let range) where range.upperBound == Int.max:
      "a whole number ≥ \(range.lowerBound)"
    case .wholeNumber(let range):
      "a whole number from \(range.lowerBound) to \(range.upperBound)"
    case .length: "a number of pixels ≥ 0 or a percentage such as 8%"
    case .point: "two fractions from 0 to 1 such as 0.5,0.3"
    case .fraction: "a fraction more than 0 and at most 1, such as 0.4"
    case .shard: "I/N with 0 ≤ I < N, such as 0/4"
    case .memory: "an amount of memory such as 512M or 2G, or a number of bytes"
    case .frame: "a frame number ≥ 0 (0 is the first) or first"
    case .sizes(let range):
      "a whole number from \(range.lowerBound) to \(range.upperBound), or several such as "
        + "64,128,256"
    case .compression: "fast, default, small or a level from 0 to 9"
    case .degrees: "a number of degrees"
    case .color: "#rgb, #rrggbb, #rrggbbaa or a CSS colour name"
    case .path: "a file or folder name"
    case .nameTemplate: "a template such as '{name}.png'"
    case .choice(let words):
      words.count < 2
        ? words.joined()
        : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }
  }
}
