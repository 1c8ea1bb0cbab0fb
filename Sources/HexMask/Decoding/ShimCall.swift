import CImageShims

/// Calls one function of the C shims with a message buffer, and throws what it reports.
///
/// `format` ("PNG" or "JPEG") names the format in the reason; `writing` makes every
/// failure a `.writeFailed`.
///
/// ```swift
/// try callShim(format: "PNG") { hm_png_reader_start(reader, $0, $1) }
/// ```
func callShim(
  format: String, writing: Bool = false,
  _ body: (UnsafeMutablePointer<CChar>?, Int) -> hm_status
) throws(ImageError) {
  let failure: ImageError? = withUnsafeTemporaryAllocation(
    of: CChar.self, capacity: Int(HM_MESSAGE_SIZE)
  ) { buffer in
    buffer.initialize(repeating: 0)
    let status = body(buffer.baseAddress, buffer.count)
    guard status != HM_OK else { return nil }
    let message = buffer.baseAddress.map { String(cString: $0) } ?? ""
    return ImageError(status: status, message: message, format: format, writing: writing)
  }
  if let failure { throw failure }
}

/// The warnings a shim handle has collected, of `kind`, worded like error reasons.
func shimWarnings(
  _ kind: Warning.Kind, count: Int32, _ warning: (Int32) -> UnsafePointer<CChar>?
) -> [Warning] {
  (0..<count).compactMap { index in
    warning(index).map { Warning(kind, userMessage(String(cString: $0))) }
  }
}

/// A Swift copy of `size` bytes a shim handle owns; nil when `bytes` is NULL or `size` is 0.
func copyBytes(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8]? {
  guard let bytes, size > 0 else { return nil }
  return Array(UnsafeBufferPointer(start: bytes, count: size))
}

/// Library messages start with a capital and may end with a period or newline;
/// reasons start lower case and end bare. Acronyms ("IDAT", "CMYK") keep their case.
func userMessage(_ text: String) -> String {
  var message = Substring(text)
  while let last = message.last, last == "." || last.isWhitespace { message.removeLast() }
  guard let first = message.first, first.isUppercase else { return String(message) }
  let second = message.dropFirst().first
  if second == nil || second?.isLowercase == true || second == " " {
    return first.lowercased() + message.dropFirst()
  }
  return String(message)
}

extension ImageError {
  /// The error for a failed shim call.
  init(status: hm_status, message: String, format: String, writing: Bool) {
    let text = userMessage(message)
    let kind: Kind
    let reason: String
    switch status {
    case HM_ERR_READ:
      (kind, reason) = (.unreadable, "read error: \(text)")
    case HM_ERR_TRUNCATED:
      (kind, reason) = (.corrupt, "truncated \(format): \(text)")
    case HM_ERR_UNSUPPORTED:
      (kind, reason) = (.unsupported, text)
    case HM_ERR_TOO_LARGE:
      (kind, reason) = (.tooLarge, text)
    case HM_ERR_WRITE:
      (kind, reason) = (.writeFailed, "cannot write \(format): \(text)")
    case HM_ERR_USAGE:
      (kind, reason) = (.unreadable, text)
    default:
      let named = text.lowercased().contains(format.lowercased())
      (kind, reason) = (.corrupt, named ? text : "corrupt \(format): \(text)")
    }
    self.init(writing ? .writeFailed : kind, reason)
  }

  /// The error for an image with more pixels than the caller allows.
  static func tooManyPixels(width: Int, height: Int, maxPixels: Int) -> ImageError {
    ImageError(
      .tooLarge,
      "image is \(width)×\(height) = \(width * height) pixels, more than the limit of \(maxPixels)",
      pixels: ImageError.PixelLimit(width: width, height: height, limit: maxPixels))
  }
}
