import HexMask

/// The words `--gravity` takes: the library's sides, corners and centre, then the two that
/// look at the picture. One list, so the parser, `--help`, the manual page and the
/// completions all offer the same words.
///
/// ```swift
/// GravityWord(rawValue: "face")   // .face
/// GravityWord.allCases.map(\.rawValue).last  // "attention"
/// ```
enum GravityWord: RawRepresentable, CaseIterable, Equatable, Sendable {
  /// A side, a corner or the centre.
  case side(Gravity)
  /// Where the faces are: needs the face model, which only a run that renders loads.
  case face
  /// Where edges, saturated colour and skin tones are; needs no model.
  case attention

  static var allCases: [GravityWord] {
    Gravity.allCases.map(GravityWord.side) + [.face, .attention]
  }

  init?(rawValue: String) {
    guard let word = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
    self = word
  }

  var rawValue: String {
    switch self {
    case .side(let gravity): gravity.rawValue
    case .face: "face"
    case .attention: "attention"
    }
  }

  /// Stores the word in `job`. `face` cannot become a crop yet: the model is read by the run
  /// (``loadFaceModel(variable:folders:)``), once, and only when a picture is rendered, so a
  /// help or mask command never looks for it.
  func assign(to job: inout Job) {
    job.faceCrop = self == .face
    switch self {
    case .side(let gravity): job.options.output.crop = .gravity(gravity)
    // The centre until the run puts the model in; `faceCrop` says it must.
    case .face: job.options.output.crop = .gravity(.center)
    case .attention: job.options.output.crop = .attention
    }
  }
}

extension Job {
  /// The `--gravity` word given; nil without one (or with `--focus`).
  var gravityWord: GravityWord? {
    guard givenOptions.contains("gravity") else { return nil }
    if faceCrop { return .face }
    switch options.output.crop {
    case .gravity(let gravity): return .side(gravity)
    case .attention: return .attention
    case .faces, .focus: return nil
    }
  }

  /// True when the run renders a picture whose square `--gravity` or `--focus` chooses: a
  /// mask, help or an SVG alone has no square to choose, and the seed layout always takes
  /// the top-left one, as the original does.
  var cropChoosesSquare: Bool {
    [.render, .renderBatch].contains(action) && !options.choices.maskOnly
      && options.shape.layout != .seed
  }

  /// True when the run must read the face model: `--gravity face` where the crop chooses
  /// the square.
  var needsFaceModel: Bool { faceCrop && cropChoosesSquare }
}
