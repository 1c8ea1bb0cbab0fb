import Synchronization

// What a render does about colour, decided once per picture before any writer exists, by
// one rule: every output either carries the input's ICC profile or has sRGB pixels. A
// profile is never dropped with the pixels left in its numbers, so a viewer, which reads
// untagged numbers as sRGB, always shows the colours the input meant.

extension HexMask {
  /// What the colour of a render came to, for reports and the rows of a batch.
  public struct ColourReport: Equatable, Hashable, Sendable {
    /// What was done with the input's ICC profile.
    public enum Action: String, Equatable, Hashable, Sendable {
      /// The profile was copied into the output; the pixels are the input's numbers.
      case kept
      /// The pixels were converted to sRGB through the profile.
      case converted
      /// The profile is sRGB in all but name: the pixels were left as they are and the
      /// output says sRGB (or, stripped, nothing, which viewers read as sRGB).
      case srgb
      /// lcms2 could not use the profile (a ``Warning/Kind/profileUnusable`` warning): the
      /// pixels were left as they are, and the profile left out.
      case unusable
    }

    /// The input profile's description ("Display P3"); nil when it has none.
    public var profile: String?
    public var action: Action

    public init(profile: String?, action: Action) {
      self.profile = profile
      self.action = action
    }
  }

  /// The colour side of a ``RenderPlan``: the conversion applied to the resized rows, and
  /// what the output says about its colours.
  struct ColourPlan {
    /// Converts resized rows to sRGB; nil leaves them as they are.
    var transform: ColourTransform?
    /// The ICC profile written into the output.
    var profile: [UInt8]?
    /// Turns the sRGB colours hexmask draws (border, background) into the kept profile's
    /// numbers, so that a viewer reading them through it shows them as asked; nil when the
    /// output is sRGB (or untagged), or lcms2 cannot write into the profile.
    var intoProfile: ColourTransform?
    /// Say sRGB in the format's own way (a PNG `sRGB` chunk, an AVIF `nclx` box).
    var tagsSRGB = false
    /// nil when the input has no profile (or for a mask).
    var report: ColourReport?
    var warnings: [Warning] = []

    /// The plan for a picture whose metadata says `metadata`, written as `output` says.
    /// Every profile is read by lcms2 once (transforms are cached by profile bytes): one
    /// it cannot use is dropped with a warning in every mode and format, so whether a
    /// damaged profile passes never depends on where it is written.
    init(metadata: ImageMetadata, output: Output) {
      guard let profile = metadata.iccProfile, !output.maskOnly else { return }
      let tag = output.keepColorProfile
      if metadata.convertedToSRGB {
        // The decoder already converted (a CMYK JPEG through its profile).
        report = ColourReport(profile: profileDescription(profile), action: .converted)
        tagsSRGB = tag
        return
      }
      let transform: ColourTransform
      do throws(ColourProfileError) {
        transform = try ColourTransform.shared(iccProfile: profile)
        if let reason = mismatch(transform.input, isGray: metadata.isGray) {
          throw ColourProfileError(kind: .unsupportedColourSpace, reason: reason)
        }
      } catch {
        report = ColourReport(profile: profileDescription(profile), action: .unusable)
        warnings = [
          Warning(.profileUnusable, "ICC profile not used (\(error.reason)); colours may be off")
        ]
        return
      }
      let writable = profileRefusal(profile, format: output.format) == nil
      if output.colorSpace == .keep && output.keepColorProfile && writable {
        self.profile = profile
        intoProfile = try? ColourTransform.sharedInverse(iccProfile: profile)
        report = ColourReport(profile: transform.description, action: .kept)
        return
      }
      tagsSRGB = tag
      if transform.matchesSRGB {
        report = ColourReport(profile: transform.description, action: .srgb)
      } else {
        self.transform = transform
        report = ColourReport(profile: transform.description, action: .converted)
      }
    }

    /// Why a profile of `kind` cannot describe pixels that are gray or colour as `isGray`
    /// says (nil: either), as browsers ignore such a profile; nil when it can.
    private func mismatch(_ kind: ColourTransform.Input, isGray: Bool?) -> String? {
      switch (kind, isGray) {
      case (.cmyk, _): "a CMYK ICC profile on pixels that are not CMYK"
      case (.gray, false?): "a gray ICC profile on colour pixels"
      case (.rgb, true?): "an RGB ICC profile on gray pixels"
      default: nil
      }
    }

    /// `colour`, given in sRGB, in the numbers of the output's colour space.
    func inOutputSpace(_ colour: RGBAColor) -> RGBAColor {
      guard let intoProfile else { return colour }
      var pixel = [colour.red, colour.green, colour.blue, colour.alpha]
      pixel.withUnsafeMutableBufferPointer { intoProfile.convert($0) }
      return RGBAColor(red: pixel[0], green: pixel[1], blue: pixel[2], alpha: colour.alpha)
    }
  }

  /// Why `profile` cannot describe the pixels of an output of `format` (nil: it can): an
  /// RGB profile libpng accepts for PNG, any RGB profile for the other formats.
  static func profileRefusal(_ profile: [UInt8], format: OutputFormat) -> String? {
    format == .png ? pngProfileRefusal(profile, gray: false) : rgbProfileRefusal(profile)
  }

  /// The description of a profile lcms2 can read (nil otherwise, or when it has none),
  /// without building a transform: for reports of profiles that are only copied.
  static func profileDescription(_ profile: [UInt8]) -> String? {
    ColourTransform.describe(iccProfile: profile)
  }
}

extension HexMask.ColourTransform {
  /// The transforms built so far, by profile bytes and CMYK inversion: a batch of phone
  /// photos shares one profile, and building a transform costs far more than converting a
  /// 256-pixel row. A few entries, the oldest replaced first.
  private static let cache = Mutex<[(key: Key, transform: HexMask.ColourTransform)]>([])
  private static let cacheSize = 8

  private struct Key: Equatable {
    var profile: [UInt8]
    var invertedCMYK: Bool
    /// sRGB into the profile rather than the profile into sRGB.
    var inverse = false
  }

  /// A transform for `iccProfile`, built once per profile and shared: every transform is
  /// safe to share between threads (see the type's documentation).
  static func shared(iccProfile: [UInt8], invertedCMYK: Bool = false)
    throws(HexMask.ColourProfileError) -> HexMask.ColourTransform
  {
    try cached(Key(profile: iccProfile, invertedCMYK: invertedCMYK)) {
      () throws(HexMask.ColourProfileError) in
      try HexMask.ColourTransform(iccProfile: iccProfile, invertedCMYK: invertedCMYK)
    }
  }

  /// A transform from sRGB into the RGB profile `iccProfile`, built once per profile.
  static func sharedInverse(iccProfile: [UInt8]) throws(HexMask.ColourProfileError)
    -> HexMask.ColourTransform
  {
    try cached(Key(profile: iccProfile, invertedCMYK: false, inverse: true)) {
      () throws(HexMask.ColourProfileError) in
      try HexMask.ColourTransform(sRGBInto: iccProfile)
    }
  }

  private static func cached(
    _ key: Key, build: () throws(HexMask.ColourProfileError) -> HexMask.ColourTransform
  ) throws(HexMask.ColourProfileError) -> HexMask.ColourTransform {
    if let found = cache.withLock({ $0.first { $0.key == key }?.transform }) { return found }
    // Built outside the lock: two threads may both build one, and the second is dropped.
    let built = try build()
    cache.withLock { entries in
      guard !entries.contains(where: { $0.key == key }) else { return }
      if entries.count == cacheSize { entries.removeFirst() }
      entries.append((key, built))
    }
    return built
  }
}
