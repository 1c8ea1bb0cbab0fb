#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How each output pixel along one axis is made from a run of source pixels: the
/// Lanczos-3 filter, widened by the scale factor when shrinking so that it also
/// removes the detail the smaller image cannot hold.
///
/// Output pixel `i` is centred on source position `start + (i + 0.5) · scale − 0.5`,
/// where `scale = length / outputLength`; its weights are
/// `L((j − centre) / max(scale, 1))` for the source pixels `j` within the kernel,
/// normalised to sum to 1. Pixels beyond the image repeat its edge pixel, so their
/// weights are added to the edge pixel's and every run lies inside the image.
///
/// ```swift
/// let columns = LanczosWeights(sourceLength: 640, start: 106, length: 427, outputLength: 256)
/// // output column 0 is columns.weights[0..<columns.count[0]] times the source pixels
/// // from columns.first[0] (102 ..< 112: five either side of its centre, 106.33)
/// ```
///
/// - Complexity: O(outputLength × taps), where taps ≈ 6 · max(scale, 1) + 1.
struct LanczosWeights {
  /// The first source pixel of each output pixel.
  let first: [Int]
  /// How many source pixels each output pixel uses (consecutive, from `first`).
  let count: [Int]
  /// The weights of output pixel `i` are at `i * stride ..< i * stride + count[i]`.
  let weights: [Float]
  /// The largest `count`, and the distance between runs in `weights`.
  let stride: Int

  /// The filter's half-width in source pixels before widening.
  static let lobes = 3.0

  /// Weights for an axis of `sourceLength` pixels, of which the span from `start`
  /// (a position in pixels, may be fractional) of `length` pixels becomes
  /// `outputLength` pixels.
  init(sourceLength: Int, start: Double, length: Double, outputLength: Int) {
    // ResizedDecoder builds weights only for a crop of at least one pixel inside the source
    // and a side of at least one; anything else is made so rather than trapped on.
    let sourceLength = max(sourceLength, 1)
    let outputLength = max(outputLength, 0)
    let length = length > 0 ? length : 1
    let scale = length / Double(outputLength)
    let widening = max(scale, 1)
    let support = Self.lobes * widening
    // Taps strictly inside the support; the ones on its edge would weigh 0.
    let stride = Int((2 * support).rounded(.up)) + 1
    var first = [Int](repeating: 0, count: outputLength)
    var count = [Int](repeating: 0, count: outputLength)
    var weights = [Float](repeating: 0, count: outputLength * stride)
    var longest = 1
    var run = [Double](repeating: 0, count: stride)
    for i in 0..<outputLength {
      let centre = start + (Double(i) + 0.5) * scale - 0.5
      let low = Int((centre - support).rounded(.down)) + 1
      let high = Int((centre + support).rounded(.up)) - 1
      let clampedLow = min(max(low, 0), sourceLength - 1)
      let clampedHigh = min(max(high, 0), sourceLength - 1)
      let taps = clampedHigh - clampedLow + 1
      for k in 0..<taps { run[k] = 0 }
      var sum = 0.0
      for j in low...max(low, high) {
        let weight = lanczos((Double(j) - centre) / widening)
        run[min(max(j, 0), sourceLength - 1) - clampedLow] += weight
        sum += weight
      }
      // Never 0 in practice: the tap nearest the centre alone weighs more than the rest.
      let normaliser = sum != 0 ? 1 / sum : 1
      for k in 0..<taps { weights[i * stride + k] = Float(run[k] * normaliser) }
      first[i] = clampedLow
      count[i] = taps
      longest = max(longest, taps)
    }
    self.first = first
    self.count = count
    self.weights = weights
    self.stride = stride
    // The clamped taps of a run never outnumber its support (`longest <= stride`): each
    // run's taps lie in `low...high`, at most `stride` of them.
  }

  /// The source pixels any output pixel uses: from the first run's start to the last run's end.
  var sourceSpan: Range<Int> {
    guard let start = first.first, let end = zip(first, count).map({ $0 + $1 }).max() else {
      return 0..<0
    }
    return start..<end
  }

  /// The longest run: how many source rows must be at hand at once.
  var longestRun: Int { count.max() ?? 0 }
}

/// The Lanczos kernel with three lobes: sinc(x) · sinc(x / 3) for |x| < 3, else 0.
func lanczos(_ x: Double) -> Double {
  if x == 0 { return 1 }
  guard abs(x) < LanczosWeights.lobes else { return 0 }
  let px = Double.pi * x
  return LanczosWeights.lobes * sin(px) * sin(px / LanczosWeights.lobes) / (px * px)
}
