import CLCMS2

// An HEIF or AVIF may describe its colours with an `nclx` box (code points of ITU-T H.273)
// instead of an ICC profile: an AVIF from a phone or a web encoder says "Display P3
// primaries, sRGB transfer" that way. Browsers honour it, so hexmask turns it into the ICC
// profile it means; from there the usual rule holds (kept, or converted to sRGB).

extension HexMask {
  /// What an `nclx` box says about colour: its primaries' code point and chromaticities
  /// (libheif decodes them from the code), and its transfer's code point.
  struct NCLXColour: Sendable {
    var primaries: Int
    var transfer: Int
    /// Red, green, blue and white x, y.
    var red: (x: Double, y: Double)
    var green: (x: Double, y: Double)
    var blue: (x: Double, y: Double)
    var white: (x: Double, y: Double)

    /// True when it says sRGB: BT.709 primaries and the sRGB transfer, or unspecified.
    var isSRGB: Bool { [1, 2].contains(primaries) && [2, 13].contains(transfer) }

    /// The tone curve of the transfer as lcms2's parametric curve (type, parameters); nil
    /// for one an 8-bit sRGB picture cannot show (PQ and HLG are HDR) or that hexmask does
    /// not know.
    var curve: (type: Int32, parameters: [Double])? {
      switch transfer {
      case 2, 13: (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
      // BT.709, BT.601 and BT.2020: the inverse of their camera curve, as browsers take it.
      case 1, 6, 14, 15: (4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])
      case 4: (1, [2.2])
      case 5: (1, [2.8])
      case 8: (1, [1])
      default: nil
      }
    }

    /// Names for the usual primaries, for the profile's description.
    var primariesName: String {
      switch primaries {
      case 1, 2: "BT.709"
      case 9: "BT.2020"
      case 11: "DCI-P3"
      case 12: "Display P3"
      case 22: "EBU 3213"
      default: "code \(primaries)"
      }
    }

    var transferName: String {
      switch transfer {
      case 2, 13: "sRGB"
      case 1, 6, 14, 15: "BT.709"
      case 4: "gamma 2.2"
      case 5: "gamma 2.8"
      case 8: "linear"
      case 16: "PQ"
      case 18: "HLG"
      default: "code \(transfer)"
      }
    }
  }

  /// The ICC profile that says what `nclx` says, or why there is none: nil for sRGB (the
  /// picture needs none), a reason for a transfer hexmask cannot describe.
  static func iccProfile(for nclx: NCLXColour) -> Result<[UInt8]?, ColourProfileError> {
    if nclx.isSRGB { return .success(nil) }
    let description = "\(nclx.primariesName) primaries, \(nclx.transferName) transfer (nclx)"
    guard let curve = nclx.curve else {
      return .failure(
        ColourProfileError(
          kind: .unsupportedColourSpace,
          reason: "an nclx box with the \(nclx.transferName) transfer, which hexmask cannot convert"
        ))
    }
    guard let context = cmsCreateContext(nil, nil) else {
      return .failure(ColourProfileError(kind: .noTransform, reason: "lcms2 could not start"))
    }
    defer { cmsDeleteContext(context) }
    cmsSetLogErrorHandlerTHR(context) { _, _, _ in }
    let bytes = curve.parameters.withUnsafeBufferPointer { parameters -> [UInt8]? in
      guard let tone = cmsBuildParametricToneCurve(context, curve.type, parameters.baseAddress)
      else { return nil }
      defer { cmsFreeToneCurve(tone) }
      var white = cmsCIExyY(x: nclx.white.x, y: nclx.white.y, Y: 1)
      var primaries = cmsCIExyYTRIPLE(
        Red: cmsCIExyY(x: nclx.red.x, y: nclx.red.y, Y: 1),
        Green: cmsCIExyY(x: nclx.green.x, y: nclx.green.y, Y: 1),
        Blue: cmsCIExyY(x: nclx.blue.x, y: nclx.blue.y, Y: 1))
      var curves: [OpaquePointer?] = [tone, tone, tone]
      guard let profile = cmsCreateRGBProfileTHR(context, &white, &primaries, &curves) else {
        return nil
      }
      defer { cmsCloseProfile(profile) }
      if let text = cmsMLUalloc(context, 1) {
        defer { cmsMLUfree(text) }
        _ = cmsMLUsetASCII(text, "en", "US", description)
        _ = cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(text))
      }
      var size: cmsUInt32Number = 0
      guard cmsSaveProfileToMem(profile, nil, &size) != 0, size >= 128 else { return nil }
      var saved = [UInt8](repeating: 0, count: Int(size))
      guard
        saved.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &size) })
          != 0
      else { return nil }
      // lcms2 stamps the time of saving (header bytes 24–35): zero it, so the same picture
      // always gives the same profile, and so the same output bytes.
      saved.replaceSubrange(24..<36, with: repeatElement(0, count: 12))
      return saved
    }
    guard let bytes else {
      return .failure(
        ColourProfileError(kind: .noTransform, reason: "lcms2 could not describe \(description)"))
    }
    return .success(bytes)
  }
}
