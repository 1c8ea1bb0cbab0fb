/// hexmask as a library: a photo in, the photo cut into a rounded polygon with a border
/// out, as bytes in memory or streamed between file descriptors.
///
/// ```swift
/// var output = HexMask.Output()
/// output.size = 256
/// let avatar = try HexMask.render(photoBytes, output: output)   // .bytes, .warnings
/// ```
///
/// Everything is a value: ``Shape`` (the look), ``Output`` (what to write) and ``Input``
/// (how to read), with the original's defaults. Failures are typed by stage
/// (``Error``). Rendering keeps no shared state: it is safe from many threads at once, and
/// every value here is `Sendable`.
public enum HexMask {}

extension HexMask {
  /// Why a picture could not be made, by the stage that failed, with its data: the input's
  /// stages (`decoding`, `shape`, `warningInStrictMode`) or the output's (`output`,
  /// `encoding`).
  ///
  /// An enum, so that a `switch` over the stages is checked by the compiler: a program that
  /// maps each stage to the file to blame, as the `hexmask` command does, is told when a
  /// stage appears. A new reason goes into its stage's own type, not into a new case here.
  public enum Error: Swift.Error, Equatable, Sendable {
    /// A public field of ``Shape``, ``Output`` or ``Input``, or a size argument, is out of
    /// its range; checked before anything is read or written.
    case invalidValue(InvalidValue)
    /// The input could not be read as an image (damaged, unsupported, too large).
    case decoding(ImageError)
    /// The shape does not fit this picture (a corner too large for its size, a line
    /// leaving no room).
    case shape(ShapeError)
    /// The output cannot be made as ``Output`` asks (too large for the pixel limit or its
    /// format, a JPEG background that is not opaque); found before anything is written.
    case output(OutputError)
    /// The output could not be encoded or written.
    case encoding(ImageError)
    /// `Input.strict` is set and the input decoded only with this warning.
    case warningInStrictMode(Warning)
  }

  /// What one render did.
  public struct Report: Equatable, Sendable {
    /// Side of the square output, in pixels.
    public var side: Int
    /// Problems that did not stop the output (a truncated JPEG scan, a dropped ICC profile).
    public var warnings: [Warning]
    /// The square of the upright input the output shows, in its pixels; nil for a mask.
    public var crop: Crop?
    /// The faces ``CropChoice/faces(_:)`` found, in upright input pixels; nil for the
    /// other crops.
    public var faces: [Face]?
    /// What the picture read was, as far as options can act on it; nil for a mask.
    public var picture: PictureFacts?
    /// How ``Output/faceSize`` framed the square: a face, a group, or no face found (the
    /// full-side attention square); nil without `faceSize`, and for a mask.
    public var framing: Framing?
    /// The input's colour profile and what was done with it; nil when it has none, and
    /// for a mask.
    public var colour: ColourReport?
    /// The frames the output holds and how long they play; nil for a still output (a
    /// still input, one frame taken from an animation, or a format that cannot move).
    public var animation: Animation?

    public init(
      side: Int, warnings: [Warning], crop: Crop? = nil, faces: [Face]? = nil,
      picture: PictureFacts? = nil, framing: Framing? = nil, colour: ColourReport? = nil,
      animation: Animation? = nil
    ) {
      self.side = side
      self.warnings = warnings
      self.crop = crop
      self.faces = faces
      self.picture = picture
      self.framing = framing
      self.colour = colour
      self.animation = animation
    }
  }

  /// What an animated output holds: its frames, how long they play together, and how
  /// many times (as the input said).
  public struct Animation: Equatable, Hashable, Sendable {
    /// Frames written, every one the input's (none dropped or merged).
    public var frames: Int
    /// The sum of the frames' delays, in milliseconds, as browsers play them: a frame of
    /// 10 ms or less is 100 ms.
    public var durationMilliseconds: Int
    /// How many times it plays in all; 0 is forever.
    public var loopCount: Int

    public init(frames: Int, durationMilliseconds: Int, loopCount: Int) {
      self.frames = frames
      self.durationMilliseconds = durationMilliseconds
      self.loopCount = loopCount
    }
  }

  /// What a render learnt about its input that decides whether an option can act on it, so
  /// that a caller who keeps it (hexmask's rerun records) can tell two option sets that
  /// make the same bytes from this input: `keepColorProfile` with no profile, `autoOrient`
  /// with no turn, `strict` on a clean picture, a crop axis along which the picture is not
  /// longer, frame 0 of a still.
  public struct PictureFacts: Equatable, Hashable, Sendable {
    /// The upright picture's size, in its pixels, as the render turned it.
    public var width: Int
    public var height: Int
    /// True when it carries an ICC profile.
    public var hasColorProfile: Bool
    /// True when its EXIF orientation turns or mirrors it, applied or not.
    public var isTurned: Bool
    /// True when every row was decoded, without a warning: strict mode finds nothing.
    public var isClean: Bool
    /// True when it is known to be one picture: a still format, or a GIF, APNG or WebP found
    /// to hold one frame. False for an animation, and for a frame chosen from a GIF, APNG or
    /// WebP, whose later frames are then not looked for.
    public var isStill: Bool

    public init(
      width: Int, height: Int, hasColorProfile: Bool, isTurned: Bool, isClean: Bool,
      isStill: Bool = false
    ) {
      self.width = width
      self.height = height
      self.hasColorProfile = hasColorProfile
      self.isTurned = isTurned
      self.isClean = isClean
      self.isStill = isStill
    }
  }
}

extension HexMask {
  /// One output file made in memory: its bytes, and the render's ``Report``, the one
  /// report a render of a file, a descriptor or bytes gives, still or animated.
  ///
  /// ```swift
  /// let avatar = try HexMask.render(upload)
  /// if avatar.warnings.contains(where: { $0.kind == .damagedInput }) { … }
  /// ```
  public struct Rendered: Equatable, Sendable {
    /// The output file, in the format of `Output.kind`.
    public var bytes: [UInt8]
    /// What the render did; the properties below read it.
    public var report: Report

    /// Side of the square output, in pixels.
    public var side: Int {
      get { report.side }
      set { report.side = newValue }
    }
    /// Problems that did not stop the output; a damaged input that still decoded is one.
    public var warnings: [Warning] {
      get { report.warnings }
      set { report.warnings = newValue }
    }
    /// The square of the upright input the output shows, in its pixels.
    public var crop: Crop? {
      get { report.crop }
      set { report.crop = newValue }
    }
    /// The faces ``CropChoice/faces(_:)`` found, in upright input pixels; nil for the
    /// other crops.
    public var faces: [Face]? {
      get { report.faces }
      set { report.faces = newValue }
    }
    /// What the picture read was (``Report/picture``).
    public var picture: PictureFacts? {
      get { report.picture }
      set { report.picture = newValue }
    }
    /// How ``Output/faceSize`` framed the square (``Report/framing``); nil without it.
    public var framing: Framing? {
      get { report.framing }
      set { report.framing = newValue }
    }
    /// The input's colour profile and what was done with it (``Report/colour``).
    public var colour: ColourReport? {
      get { report.colour }
      set { report.colour = newValue }
    }
    /// The frames and their duration when the output is animated; nil for a still.
    public var animation: Animation? {
      get { report.animation }
      set { report.animation = newValue }
    }

    public init(bytes: [UInt8], report: Report) {
      self.bytes = bytes
      self.report = report
    }

    public init(
      bytes: [UInt8], side: Int, warnings: [Warning], crop: Crop? = nil, faces: [Face]? = nil,
      framing: Framing? = nil, colour: ColourReport? = nil, animation: Animation? = nil
    ) {
      self.init(
        bytes: bytes,
        report: Report(
          side: side, warnings: warnings, crop: crop, faces: faces, framing: framing,
          colour: colour, animation: animation))
    }
  }
}

extension HexMask.Error: CustomStringConvertible {
  /// The failure in plain words, for logs of programs that use the library. (The `hexmask`
  /// command makes its own messages from the cases' data, naming its options.)
  public var description: String {
    switch self {
    case .invalidValue(let value): value.description
    case .decoding(let error): "cannot read the input: \(error.reason)"
    case .encoding(let error): "cannot write the output: \(error.reason)"
    case .warningInStrictMode(let warning): "the input decodes only with a warning: \(warning)"
    case .shape(let error): error.description
    case .output(let error): error.description
    }
  }
}

extension HexMask.ShapeError: CustomStringConvertible {
  /// What does not fit, in plain words.
  public var description: String {
    switch self {
    case .cornerTooLarge(let corner, let maximum, let side):
      "a corner radius of \(corner) px is too large: at most \(maximum) px fits a \(side) px "
        + "canvas with this line and number of sides"
    case .lineTooWide(let line, let side):
      "a line of \(line) px leaves no room for the shape in a \(side) px canvas"
    }
  }
}
