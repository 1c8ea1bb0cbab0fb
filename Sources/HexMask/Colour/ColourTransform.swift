import CLCMS2
import Synchronization

extension HexMask {
  /// Why lcms2 could not use an ICC profile: a warning (or, with `Input.strict`, a failure) for
  /// the picture, never a trap.
  struct ColourProfileError: Swift.Error, Equatable, Sendable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
      /// lcms2 could not parse the bytes (truncated, damaged, not a profile).
      case unreadable
      /// A profile of a colour space hexmask's pixels are not in (Lab, XYZ, n-colour, ...).
      case unsupportedColourSpace
      /// The profile parsed but lcms2 could not build a transform from it to sRGB.
      case noTransform
    }
    var kind: Kind
    /// One line, lower case: lcms2's own message where it gave one.
    var reason: String
    var description: String { reason }
  }

  /// Converts 8-bit pixels described by an ICC profile to sRGB, with lcms2, the relative
  /// colorimetric intent and black point compensation (libvips' default transform).
  ///
  /// The pixels it converts are laid out as hexmask's decoders deliver them:
  /// - an RGB profile: RGBA rows, converted in place; alpha is copied, not transformed.
  /// - a gray profile: RGBA rows whose R = G = B, converted in place to sRGB-curve gray (D65
  ///   white), so gray stays gray; or 1-byte gray rows. A 256-entry table, since 8-bit gray to
  ///   8-bit gray has only 256 inputs.
  /// - a CMYK profile: 4-byte CMYK rows (Adobe's inverted ones with `invertedCMYK`), converted
  ///   in place to opaque RGBA, as ``convertCMYKToRGBA(_:inverted:)`` does without a profile.
  ///
  /// One transform may be shared by any number of threads: it is built with
  /// `cmsFLAGS_NOCACHE` (lcms2's one-pixel cache is the only state `cmsDoTransform` writes)
  /// on a context of its own, whose error handler records messages instead of printing them.
  ///
  /// ```swift
  /// let transform = try ColourTransform(iccProfile: profile)
  /// row.withUnsafeMutableBufferPointer { transform.convert($0) }
  /// ```
  final class ColourTransform: @unchecked Sendable {
    /// What the profile describes, and so which rows ``convert(_:)`` expects.
    enum Input: Sendable, Equatable {
      case rgb, gray, cmyk
    }
    let input: Input
    /// The profile's description tag ("Display P3", "Compatible with Adobe RGB (1998)"), for
    /// warnings and reports; nil when it has none.
    let description: String?
    /// Whether converting changes no sample by more than one level on a 16-step grid of every
    /// channel (RGB) or every gray level: the profile is sRGB (or sRGB-curve gray) in all but
    /// name, so the pixels can stay as they are and only the tag needs deciding.
    /// Set once, at the end of `init` (the probe needs a whole transform); never written after.
    private(set) var matchesSRGB = false

    private let context: cmsContext
    /// For RGB and CMYK; nil for gray, which uses `grayTable`.
    private let transform: cmsHTRANSFORM?
    private let grayTable: [UInt8]
    private let log: Unmanaged<ErrorLog>

    /// - Parameters:
    ///   - iccProfile: the profile's bytes, as read from the file.
    ///   - invertedCMYK: for a CMYK profile, whether the rows hold 255 − ink (Adobe JPEGs).
    /// - Throws: ``ColourProfileError`` when lcms2 cannot read or use the profile.
    convenience init(iccProfile: [UInt8], invertedCMYK: Bool = false)
      throws(ColourProfileError)
    {
      try self.init { (context, log) throws(ColourProfileError) in
        try Self.build(iccProfile, invertedCMYK, context, log)
      }
    }

    /// The other way: RGBA rows in sRGB into the numbers of the RGB profile `iccProfile`, for
    /// the colours hexmask draws onto a picture that keeps its profile.
    convenience init(sRGBInto iccProfile: [UInt8]) throws(ColourProfileError) {
      try self.init { (context, log) throws(ColourProfileError) in
        try Self.buildFromSRGB(iccProfile, context, log)
      }
    }

    private init(
      building: (cmsContext, ErrorLog) throws(ColourProfileError) -> (
        Input, cmsHTRANSFORM?, [UInt8], String?
      )
    ) throws(ColourProfileError) {
      let log = Unmanaged.passRetained(ErrorLog())
      guard let context = cmsCreateContext(nil, log.toOpaque()) else {
        log.release()
        throw ColourProfileError(kind: .noTransform, reason: "lcms2 could not create a context")
      }
      // Without this handler lcms2 would print to stderr; it never aborts either way.
      cmsSetLogErrorHandlerTHR(context) { context, _, message in
        guard let context, let user = cmsGetContextUserData(context) else { return }
        let text = message.map { String(cString: $0) } ?? "unknown lcms2 error"
        Unmanaged<ErrorLog>.fromOpaque(user).takeUnretainedValue().record(text)
      }
      do throws(ColourProfileError) {
        (self.input, self.transform, self.grayTable, self.description) = try building(
          context, log.takeUnretainedValue())
      } catch {
        cmsDeleteContext(context)
        log.release()
        throw error
      }
      self.context = context
      self.log = log
      self.matchesSRGB = probeMatchesSRGB()
    }

    deinit {
      if let transform { cmsDeleteTransform(transform) }
      cmsDeleteContext(context)
      log.release()
    }

    /// Converts `row` in place: RGBA for `.rgb` and `.gray`, 4-byte CMYK becoming RGBA for
    /// `.cmyk`. Bytes after the last whole pixel are left alone.
    func convert(_ row: UnsafeMutableBufferPointer<UInt8>) {
      let pixels = row.count / 4
      guard pixels > 0, let base = row.baseAddress else { return }
      switch input {
      case .gray:
        // R = G = B from gray decoders, so gray stays gray; a colour picture that carries a
        // gray profile gets its tone curve on each channel rather than losing its colour.
        for index in 0..<pixels * 4 where index & 3 != 3 {
          base[index] = grayTable[Int(base[index])]
        }
      case .rgb, .cmyk:
        guard let transform else { return }
        // lcms2 reads each pixel before writing it, with equal 4-byte strides, so in place is
        // safe (the tests check a whole row against one call per pixel). Runs of 2^20 pixels
        // keep the count within lcms2's 32 bits however long the row.
        for start in stride(from: 0, to: pixels, by: 1 << 20) {
          let count = min(1 << 20, pixels - start)
          cmsDoTransform(transform, base + start * 4, base + start * 4, cmsUInt32Number(count))
        }
        if input == .cmyk {
          for index in 0..<pixels { base[index * 4 + 3] = 255 }
        }
      }
    }

    /// Converts 1-byte gray samples in place, for a `.gray` transform; other kinds leave
    /// `samples` alone.
    func convertGray(_ samples: UnsafeMutableBufferPointer<UInt8>) {
      guard input == .gray else { return }
      for index in samples.indices { samples[index] = grayTable[Int(samples[index])] }
    }

    /// Converts a grid of colours (every gray level for gray) and compares them with their
    /// inputs; CMYK never matches.
    private func probeMatchesSRGB() -> Bool {
      switch input {
      case .cmyk:
        return false
      case .gray:
        return grayTable.enumerated().allSatisfy { abs(Int($1) - $0) <= 1 }
      case .rgb:
        let levels = stride(from: 0, through: 255, by: 17).map { UInt8($0) }
        var probe: [UInt8] = []
        for r in levels {
          for g in levels {
            for b in levels { probe += [r, g, b, 255] }
          }
        }
        var converted = probe
        converted.withUnsafeMutableBufferPointer { convert($0) }
        return zip(probe, converted).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
      }
    }

    /// The description of `iccProfile` when lcms2 can read it, without building a transform.
    static func describe(iccProfile bytes: [UInt8]) -> String? {
      guard bytes.count >= 128, let size = cmsUInt32Number(exactly: bytes.count),
        let context = cmsCreateContext(nil, nil)
      else { return nil }
      defer { cmsDeleteContext(context) }
      // Silent: lcms2 would otherwise hand errors to its default handler.
      cmsSetLogErrorHandlerTHR(context) { _, _, _ in }
      let opened = bytes.withUnsafeBytes { cmsOpenProfileFromMemTHR(context, $0.baseAddress, size) }
      guard let profile = opened else { return nil }
      defer { cmsCloseProfile(profile) }
      return profileDescription(profile)
    }

    // MARK: Building

    /// The profile in `bytes`, opened on `context` (the caller closes it).
    private static func open(_ bytes: [UInt8], _ context: cmsContext, _ log: ErrorLog)
      throws(ColourProfileError) -> cmsHPROFILE
    {
      // lcms2 reads sizes as 32-bit; a profile larger than that is no profile.
      guard !bytes.isEmpty, let size = cmsUInt32Number(exactly: bytes.count) else {
        throw ColourProfileError(kind: .unreadable, reason: "empty or oversized ICC profile")
      }
      // lcms2 reads tags only when asked, so it accepts a profile cut short after the tags a
      // transform needs; the header's own size (big-endian, bytes 0–3) tells it is damaged.
      let declared = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
      guard bytes.count >= 128, declared <= bytes.count else {
        throw ColourProfileError(
          kind: .unreadable,
          reason: "truncated ICC profile: \(bytes.count) of \(max(declared, 128)) bytes")
      }
      let opened = bytes.withUnsafeBytes { cmsOpenProfileFromMemTHR(context, $0.baseAddress, size) }
      guard let source = opened else {
        throw ColourProfileError(
          kind: .unreadable, reason: log.reason(or: "unreadable ICC profile"))
      }
      return source
    }

    private static func buildFromSRGB(_ bytes: [UInt8], _ context: cmsContext, _ log: ErrorLog)
      throws(ColourProfileError) -> (Input, cmsHTRANSFORM?, [UInt8], String?)
    {
      let target = try open(bytes, context, log)
      defer { cmsCloseProfile(target) }
      guard cmsGetColorSpace(target) == cmsSigRgbData,
        let source = cmsCreate_sRGBProfileTHR(context)
      else {
        throw ColourProfileError(kind: .unsupportedColourSpace, reason: "not an RGB ICC profile")
      }
      defer { cmsCloseProfile(source) }
      let flags = cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA
      guard
        let transform = cmsCreateTransformTHR(
          context, source, hexmask_TYPE_RGBA_8, target, hexmask_TYPE_RGBA_8,
          cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(flags))
      else {
        throw ColourProfileError(
          kind: .noTransform, reason: log.reason(or: "lcms2 cannot convert into this profile"))
      }
      return (.rgb, transform, [], profileDescription(target))
    }

    private static func build(
      _ bytes: [UInt8], _ invertedCMYK: Bool, _ context: cmsContext, _ log: ErrorLog
    ) throws(ColourProfileError) -> (Input, cmsHTRANSFORM?, [UInt8], String?) {
      let source = try open(bytes, context, log)
      defer { cmsCloseProfile(source) }
      let description = profileDescription(source)
      let intent = cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC)
      let flags = cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE)

      switch cmsGetColorSpace(source) {
      case cmsSigRgbData:
        let transform = try makeTransform(
          context, source, hexmask_TYPE_RGBA_8, cmsCreate_sRGBProfileTHR(context),
          hexmask_TYPE_RGBA_8, intent, flags | cmsUInt32Number(cmsFLAGS_COPY_ALPHA), log)
        return (.rgb, transform, [], description)
      case cmsSigCmykData:
        // No COPY_ALPHA: CMYK has no extra channel, and lcms2 refuses mismatched ones; alpha
        // is set to opaque after the transform.
        let format = invertedCMYK ? hexmask_TYPE_CMYK_8_REV : hexmask_TYPE_CMYK_8
        let transform = try makeTransform(
          context, source, format, cmsCreate_sRGBProfileTHR(context), hexmask_TYPE_RGBA_8,
          intent, flags, log)
        return (.cmyk, transform, [], description)
      case cmsSigGrayData:
        let transform = try makeTransform(
          context, source, hexmask_TYPE_GRAY_8, sGrayProfile(context), hexmask_TYPE_GRAY_8,
          intent, flags, log)
        defer { cmsDeleteTransform(transform) }
        var table = (0...255).map { UInt8($0) }
        table.withUnsafeMutableBufferPointer {
          cmsDoTransform(transform, $0.baseAddress, $0.baseAddress, 256)
        }
        return (.gray, nil, table, description)
      default:
        throw ColourProfileError(
          kind: .unsupportedColourSpace,
          reason: "ICC profile of a colour space other than RGB, gray or CMYK")
      }
    }

    /// A transform from `source` to `destination` (closed here, as lcms2 copies what it needs).
    private static func makeTransform(
      _ context: cmsContext, _ source: cmsHPROFILE, _ inFormat: cmsUInt32Number,
      _ destination: cmsHPROFILE?, _ outFormat: cmsUInt32Number, _ intent: cmsUInt32Number,
      _ flags: cmsUInt32Number, _ log: ErrorLog
    ) throws(ColourProfileError) -> cmsHTRANSFORM {
      guard let destination else {
        throw ColourProfileError(kind: .noTransform, reason: log.reason(or: "no sRGB profile"))
      }
      defer { cmsCloseProfile(destination) }
      guard
        let transform = cmsCreateTransformTHR(
          context, source, inFormat, destination, outFormat, intent, flags)
      else {
        throw ColourProfileError(
          kind: .noTransform, reason: log.reason(or: "lcms2 could not build a transform to sRGB"))
      }
      return transform
    }

    /// The description tag in English (lcms2 falls back to the first language there is),
    /// trimmed; nil when empty or missing.
    private static func profileDescription(_ profile: cmsHPROFILE) -> String? {
      let size = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", nil, 0)
      guard size > 1, size <= 4096 else { return nil }
      var buffer = [CChar](repeating: 0, count: Int(size))
      _ = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, size)
      let text = String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let trimmed = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
      return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// Gray with the sRGB tone curve and D65 white: what an sRGB viewer shows for R = G = B.
    private static func sGrayProfile(_ context: cmsContext) -> cmsHPROFILE? {
      // IEC 61966-2-1's curve as lcms2's parametric type 4: Y = (aX + b)^γ for X ≥ d, else cX.
      let parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
      guard let curve = cmsBuildParametricToneCurve(context, 4, parameters) else { return nil }
      defer { cmsFreeToneCurve(curve) }
      var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
      return cmsCreateGrayProfileTHR(context, &white, curve)
    }
  }

  /// The messages lcms2 reports on a transform's context, kept for the error that follows.
  final class ErrorLog: Sendable {
    private let messages = Mutex<[String]>([])

    func record(_ message: String) {
      messages.withLock { $0.append(message) }
    }

    /// The last message, lower-cased at its start, or `fallback` when lcms2 said nothing.
    func reason(or fallback: String) -> String {
      guard let last = messages.withLock({ $0.last }), let first = last.first else {
        return fallback
      }
      return first.lowercased() + last.dropFirst()
    }
  }
}
