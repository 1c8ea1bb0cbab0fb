/// A boosted cascade of Haar-feature trees, read from OpenCV's cascade XML (the format of
/// `haarcascade_*.xml` in `opencv-data`), checked so that evaluating it can never read
/// outside its window or loop: every tree's child comes after its parent, every feature's
/// rectangles lie inside the window, every number is finite.
///
/// Numbers are kept as OpenCV keeps them (thresholds and leaves as `Float`, each stage's
/// threshold lowered by 1e-5) so the same windows pass.
package struct Cascade: Sendable {
  /// The window the cascade was trained on, e.g. 24 × 24 (`default`) or 20 × 20 (`alt2`).
  package var windowWidth: Int
  package var windowHeight: Int
  package var stages: [Stage]
  package var trees: [Tree]
  package var nodes: [Node]
  package var leaves: [Float]
  package var features: [Feature]
  /// Every tree is one node (a stump): evaluated without walking.
  package var isStumps: Bool { largestTree == 1 }
  /// The most nodes any tree has.
  package var largestTree: Int
  /// For each stage, the nodes of it and of every stage before it: what a window that
  /// reaches it has cost.
  package var nodesThrough: [Int] = []
  /// Each node's feature as three rectangles (unused ones empty, weight 0), flattened so
  /// that each scale turns them into offsets without walking the features.
  var nodeRects: [(x: Int, y: Int, width: Int, height: Int, weight: Float)] = []

  /// The most a cascade may hold, about twenty times the largest of opencv-data's
  /// (`haarcascade_frontalface_alt_tree.xml`: 47 stages, 8468 features with 18481
  /// rectangles, 8468 tree nodes): a file past one is refused, naming the number.
  package static let mostStages = 1000
  package static let mostFeatures = 100_000
  package static let mostRectangles = 200_000
  package static let mostNodes = 100_000
  /// The most tree nodes one cascade evaluates for one picture (each window costs the
  /// nodes of the stages it reaches): 10⁸, about 30 times what the largest cascade of
  /// opencv-data spends on a 256-pixel look at a crowd, and about half a second. A model
  /// whose stages accept every window stops there, with the windows found so far.
  package static let workPerPicture = 100_000_000
  /// The most windows one cascade accepts in one picture before its look stops, with
  /// those: grouping them compares neighbours, and a model whose one cheap stage accepts
  /// everything would otherwise hand it every window of a 1024-pixel look (about 10⁶;
  /// minutes). The default model accepts some 20 windows a face, so this is a crowd of a
  /// thousand.
  package static let mostAcceptedWindows = 20_000

  /// True for a number the evaluator can hold: finite as a Float (1e39 is not).
  static func isFloat(_ value: Double) -> Bool { Float(value).isFinite }

  package struct Stage: Sendable {
    /// Sum of the trees' leaves a window needs, less OpenCV's 1e-5.
    var threshold: Float
    var trees: Range<Int>
  }

  package struct Tree: Sendable {
    var firstNode: Int
    var nodeCount: Int
    var firstLeaf: Int
  }

  /// A split: the feature's value below `threshold` goes `left`, else `right`; a child
  /// above 0 is a node of the same tree, 0 or below is leaf `-child`.
  package struct Node: Sendable {
    var feature: Int
    var threshold: Float
    var left: Int
    var right: Int
  }

  /// Up to three weighted rectangles of the window (x, y, width, height).
  package struct Feature: Sendable {
    var rects: [(x: Int, y: Int, width: Int, height: Int, weight: Float)]
  }

  /// The cascade in `xml`; `name` says which file in errors.
  package init(xml bytes: [UInt8]) throws(CascadeError) {
    let root: XMLElement
    do {
      root = try XMLElement.parse(bytes)
    } catch {
      throw CascadeError("not XML: \(error.reason) at byte \(error.offset)")
    }
    guard root.name == "opencv_storage" else {
      throw CascadeError("not an OpenCV cascade (no <opencv_storage>)")
    }
    guard let cascade = root.children.first else {
      throw CascadeError("not an OpenCV cascade (an empty <opencv_storage>)")
    }
    guard cascade.child("stageType")?.text == "BOOST" else {
      throw CascadeError("not a boosted cascade (old-format cascades are not read)")
    }
    guard cascade.child("featureType")?.text == "HAAR" else {
      throw CascadeError("not a Haar cascade (LBP and HOG cascades are not read)")
    }
    guard let width = cascade.child("width").flatMap({ Int($0.text) }),
      let height = cascade.child("height").flatMap({ Int($0.text) }),
      (4...256).contains(width), (4...256).contains(height)
    else { throw CascadeError("no window size from 4 to 256") }
    if let categories = cascade.child("featureParams")?.child("maxCatCount"),
      categories.text != "0"
    {
      throw CascadeError("categorical features are not read")
    }
    (windowWidth, windowHeight) = (width, height)

    guard let featureList = cascade.child("features")?.children, !featureList.isEmpty else {
      throw CascadeError("no features")
    }
    try Self.check(featureList.count, "features", most: Self.mostFeatures)
    try Self.check(
      featureList.reduce(0) { $0 + ($1.child("rects")?.children.count ?? 0) }, "rectangles",
      most: Self.mostRectangles)
    features = []
    for (index, element) in featureList.enumerated() {
      if let tilted = element.child("tilted"), tilted.text != "0" {
        throw CascadeError("feature \(index) is tilted (45° features are not read)")
      }
      var rects: [(x: Int, y: Int, width: Int, height: Int, weight: Float)] = []
      for rect in element.child("rects")?.children ?? [] {
        guard let numbers = rect.numbers, numbers.count == 5, numbers.allSatisfy(Self.isFloat),
          let x = Int(exactly: numbers[0]), let y = Int(exactly: numbers[1]),
          let w = Int(exactly: numbers[2]), let h = Int(exactly: numbers[3]),
          x >= 0, y >= 0, w >= 0, h >= 0, x + w <= width, y + h <= height
        else {
          throw CascadeError(
            "feature \(index) has a rectangle that is not 5 finite numbers inside the window")
        }
        rects.append((x, y, w, h, Float(numbers[4])))
      }
      guard (1...3).contains(rects.count) else {
        throw CascadeError("feature \(index) has \(rects.count) rectangles, not 1 to 3")
      }
      features.append(Feature(rects: rects))
    }

    guard let stageList = cascade.child("stages")?.children, !stageList.isEmpty else {
      throw CascadeError("no stages")
    }
    try Self.check(stageList.count, "stages", most: Self.mostStages)
    (stages, trees, nodes, leaves) = ([], [], [], [])
    var largestTree = 0
    for (stageIndex, stage) in stageList.enumerated() {
      guard let numbers = stage.child("stageThreshold")?.numbers, numbers.count == 1,
        let threshold = numbers.first, Self.isFloat(threshold),
        let weak = stage.child("weakClassifiers")?.children, !weak.isEmpty
      else { throw CascadeError("stage \(stageIndex) has no threshold or no trees") }
      let first = trees.count
      for tree in weak {
        guard let numbers = tree.child("internalNodes")?.numbers,
          let leafValues = tree.child("leafValues")?.numbers,
          !numbers.isEmpty, numbers.count % 4 == 0, leafValues.count == numbers.count / 4 + 1,
          numbers.allSatisfy(Self.isFloat), leafValues.allSatisfy(Self.isFloat)
        else { throw CascadeError("stage \(stageIndex) has a malformed tree") }
        let count = numbers.count / 4
        try Self.check(nodes.count + count, "tree nodes", most: Self.mostNodes, atLeast: true)
        trees.append(Tree(firstNode: nodes.count, nodeCount: count, firstLeaf: leaves.count))
        for index in 0..<count {
          guard let left = Int(exactly: numbers[4 * index]),
            let right = Int(exactly: numbers[4 * index + 1]),
            let feature = Int(exactly: numbers[4 * index + 2]),
            feature >= 0, feature < features.count,
            Self.isChild(left, of: index, nodes: count),
            Self.isChild(right, of: index, nodes: count)
          else { throw CascadeError("stage \(stageIndex) has a tree with a bad node") }
          nodes.append(
            Node(
              feature: feature, threshold: Float(numbers[4 * index + 3]), left: left,
              right: right))
        }
        leaves += leafValues.map { Float($0) }
        largestTree = max(largestTree, count)
      }
      // OpenCV lowers each stage threshold by 1e-5 (THRESHOLD_EPS), in Float.
      stages.append(
        Stage(threshold: Float(threshold) - Float(1e-5), trees: first..<trees.count))
      nodesThrough.append(nodes.count)
    }
    self.largestTree = largestTree
    for node in nodes {
      let rects = features[node.feature].rects
      for index in 0..<3 { nodeRects.append(index < rects.count ? rects[index] : (0, 0, 0, 0, 0)) }
    }
  }

  /// Refuses a cascade with more than `most` of something, naming how many it has (or,
  /// `atLeast`, only that it has more, when counting stops there).
  private static func check(
    _ count: Int, _ things: String, most: Int, atLeast: Bool = false
  ) throws(CascadeError) {
    guard count > most else { return }
    throw CascadeError(
      atLeast
        ? "more than the \(most) \(things) a cascade may have"
        : "\(count) \(things), more than the \(most) a cascade may have")
  }

  /// A child reference in a tree of `count` nodes: a later node, or one of its leaves.
  private static func isChild(_ child: Int, of index: Int, nodes count: Int) -> Bool {
    child > 0 ? child > index && child < count : -child <= count
  }
}

/// Why a cascade file cannot be used.
package struct CascadeError: Swift.Error, Equatable, Sendable {
  package var reason: String
  init(_ reason: String) { self.reason = reason }
}
