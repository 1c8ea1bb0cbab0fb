#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// What `String(format:)` did for the command, without Foundation: Foundation's ICU data
// alone would make the static binary four times larger.

/// `value` with one digit after the point, rounded as printf's `%.1f` rounds it.
func oneDecimal(_ value: Double) -> String {
  var buffer = [CChar](repeating: 0, count: 400)  // %.1f of the largest Double: 310 bytes
  let length = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.1f", $0) }
  guard length > 0, Int(length) < buffer.count else { return "?" }
  return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// `value` (not negative) in base `radix`, with zeros in front up to `digits` digits.
func zeroPadded(_ value: Int, digits: Int, radix: Int = 10) -> String {
  let text = String(value, radix: radix)
  return String(repeating: "0", count: max(0, digits - text.count)) + text
}
