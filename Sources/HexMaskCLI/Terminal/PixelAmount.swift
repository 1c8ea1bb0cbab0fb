/// A pixel amount for messages: whole numbers plainly, others to two decimals — more for
/// amounts under 0.01, so they never print as 0.00 — rounded down so that a printed maximum
/// is always accepted. Amounts from 2⁵³ on, far beyond any canvas and all whole, print as
/// Swift prints a `Double` (`1e+308`), since an `Int` cannot hold them all.
func pixels(_ value: Double) -> String {
  guard value.isFinite, value.magnitude < 0x1p53 else { return "\(value)" }
  if value == value.rounded() { return String(Int(value)) }
  var decimals = 2
  while decimals < 12 && abs(value) * pow10(decimals) < 10 { decimals += 1 }
  let scale = pow10(decimals)
  let scaled = Int((value * scale).rounded(.down))
  let fraction = String(scaled % Int(scale))
  return
    "\(scaled / Int(scale)).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
}

private func pow10(_ exponent: Int) -> Double {
  (0..<exponent).reduce(1.0) { value, _ in value * 10 }
}
