extension HexMask {
  /// The trained cascades ``CropChoice/faces(_:)`` detects with: OpenCV's frontal-face cascades
  /// (`haarcascade_frontalface_*.xml` from `opencv-data`) and, tried only where they find
  /// no face, pet cascades (`haarcascade_frontalcatface.xml`). Read once and shared: a
  /// model is immutable, and every render may use it from any thread.
  ///
  /// ```swift
  /// let model = try HexMask.FaceModel(faceCascades: [defaultXML], petCascades: [catXML])
  /// var output = HexMask.Output()
  /// output.crop = .faces(model)
  /// ```
  public final class FaceModel: Sendable, Hashable, CustomStringConvertible {
    let faceCascades: [Cascade]
    let petCascades: [Cascade]
    /// Names the cascades' exact bytes (FNV-1a, 64 bits, over each file and its length):
    /// a different model file gives a different identity, so reruns can tell.
    public let identity: String

    /// Reads the cascades' XML. Throws ``FaceModelError`` naming the first one that is
    /// not a Haar cascade hexmask can evaluate, and why.
    public init(faceCascades: [[UInt8]], petCascades: [[UInt8]] = []) throws(FaceModelError) {
      guard !faceCascades.isEmpty else {
        throw FaceModelError(cascade: 0, reason: "no face cascade was given")
      }
      var parsed: [Cascade] = []
      for (index, bytes) in (faceCascades + petCascades).enumerated() {
        do {
          parsed.append(try Cascade(xml: bytes))
        } catch {
          throw FaceModelError(cascade: index, reason: error.reason)
        }
      }
      self.faceCascades = Array(parsed.prefix(faceCascades.count))
      self.petCascades = Array(parsed.dropFirst(faceCascades.count))
      identity = (faceCascades + [[]] + petCascades).map(fnv1a).joined(separator: "-")
    }

    public var description: String { "FaceModel(\(identity))" }

    public static func == (a: FaceModel, b: FaceModel) -> Bool { a.identity == b.identity }
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
  }

  /// Why a cascade cannot be used: `cascade` counts the face cascades first, then the pets'.
  public struct FaceModelError: Swift.Error, Equatable, Sendable, CustomStringConvertible {
    public var cascade: Int
    public var reason: String
    public var description: String { "cascade \(cascade + 1): \(reason)" }
  }

  /// A face found in the picture, in upright input pixels.
  public struct Face: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// True for a pet's face (found only where no human face was).
    public var isPet: Bool

    public init(x: Int, y: Int, width: Int, height: Int, isPet: Bool = false) {
      (self.x, self.y, self.width, self.height, self.isPet) = (x, y, width, height, isPet)
    }
  }

  /// The square of the upright input the output shows, in its pixels: `x` columns from
  /// the left, `y` rows from the top, `side` pixels wide and high.
  public struct Crop: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var side: Int

    public init(x: Int, y: Int, side: Int) { (self.x, self.y, self.side) = (x, y, side) }
  }
}

/// FNV-1a over the bytes, then the count: 16 hex digits.
private func fnv1a(_ bytes: [UInt8]) -> String {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in bytes {
    hash ^= UInt64(byte)
    hash &*= 0x100_0000_01b3
  }
  hash ^= UInt64(bytes.count)
  hash &*= 0x100_0000_01b3
  let digits = String(hash, radix: 16)
  return String(repeating: "0", count: 16 - digits.count) + digits
}

extension HexMask.FaceModel {
  /// The long side faces are looked for at: the look's own (``Look/longSide``), where a
  /// face of 2 % of the long side is still the cascade's 20 pixels. At 256, as before,
  /// nothing under 8 % was found: a person a few metres away, anyone in a group.
  static let detectionSide = Look.longSide
  /// The long side pets are looked for at: a pet's face fills its avatar (the fixtures'
  /// cats are a third of the short side), and at 160 pixels faces down to a fifth of it
  /// are still the cat cascade's 24 pixels, for 40 % of the windows at 256. Pets are
  /// looked for in every photo without a human face, so their cost counts.
  static let petDetectionSide = 160
  /// The step between window sizes, OpenCV's default. With two-pixel steps and three
  /// neighbours the crop needs it: on the detect fixtures' 40 upright faces, 1.1 finds 39
  /// at 256 (and at 320), 1.12 finds 37, 1.15 38 (32 at 320), 1.2 21.
  static let scaleFactor = 1.1
  /// The least spread of gray levels (standard deviation, in levels) a face's window has:
  /// eyes, brows and a mouth make one far from flat (the fixtures' faces spread 35 to 50;
  /// a face in dim light still about 20). Flatter windows (sky, walls, out-of-focus
  /// backgrounds, a phone photo's smooth areas) are not run through the cascade at all,
  /// which OpenCV does only for a window of a single level. It saves about a third of the
  /// look's work on an ordinary photo.
  static let flatFace = 10.0

  /// The faces in `look` (a small upright copy), in its pixels: every face cascade's
  /// groups, overlapping ones merged (the larger kept); where there are none, the pets'.
  package func faces(in look: SmallPicture) -> [HexMask.Face] {
    for (cascades, isPet) in [(faceCascades, false), (petCascades, true)] where !cascades.isEmpty {
      // A window costs about a tenth of a microsecond (eight at a time); at 256 pixels
      // a photo has some 10⁵ of them.
      let small = look.shrunk(longSide: isPet ? Self.petDetectionSide : Self.detectionSide)
      let back = Double(look.width) / Double(max(small.width, 1))
      let gray = GrayPicture(width: small.width, height: small.height, pixels: small.gray)
      // Pets' faces are fur, not skin.
      let gate = isPet ? nil : SkinGate(small)
      var found: [PixelBox] = []
      for cascade in cascades {
        // Pets' cascades find fewer windows per face (the cat cascade 4 to 13 on the
        // fixtures): they need OpenCV's own one-pixel steps.
        for box in cascade.detect(
          in: gray, scaleFactor: Self.scaleFactor, minNeighbors: 3, coarse: !isPet,
          minDeviation: isPet ? 0 : Self.flatFace, gate: gate, everyOtherScale: !isPet)
        where !found.contains(where: { overlap($0, box) > 0.3 }) {
          found.append(box)
        }
      }
      if !found.isEmpty {
        func scaled(_ value: Int) -> Int { Int((Double(value) * back).rounded()) }
        return found.map {
          HexMask.Face(
            x: scaled($0.x), y: scaled($0.y), width: scaled($0.width), height: scaled($0.height),
            isPet: isPet)
        }
      }
    }
    return []
  }
}

/// Intersection over union of two boxes.
func overlap(_ a: PixelBox, _ b: PixelBox) -> Double {
  let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
  let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
  guard w > 0, h > 0 else { return 0 }
  let inter = Double(w * h)
  return inter / (Double(a.width * a.height + b.width * b.height) - inter)
}
