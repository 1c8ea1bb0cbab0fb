/// Puts an ICC profile back together from the JPEG APP2 segments it was split into.
///
/// Each segment's payload (after "ICC_PROFILE\0") is a sequence number (1-based), the
/// number of segments, and the next piece of the profile. Segments may come in any
/// order. A sequence that does not add up — counts that disagree, a number that is 0,
/// above the count, repeated with other bytes, or missing — drops the whole profile
/// with a warning: guessing would attach wrong colours to the image, while without a
/// profile viewers assume sRGB. An exact copy of a segment is harmless and ignored
/// (Pillow's `icc-after-SOF.jpg` repeats its one segment after the frame header).
///
/// ```swift
/// let (profile, warning) = reassembleICCProfile([[1, 2] + head, [2, 2] + tail])
/// // profile == head + tail, warning == nil
/// ```
///
/// - Complexity: O(total bytes + n log n) for n segments.
func reassembleICCProfile(_ payloads: [[UInt8]], tooMany: Bool = false) -> (
  profile: [UInt8]?, warning: String?
) {
  guard !payloads.isEmpty || tooMany else { return (nil, nil) }
  func dropped(_ reason: String) -> ([UInt8]?, String?) {
    (nil, "ICC profile \(reason); profile dropped")
  }
  if tooMany {
    return dropped("is split into more than 255 segments")
  }
  guard payloads.allSatisfy({ $0.count >= 2 }) else {
    return dropped("segment is too short to hold its number")
  }
  let count = Int(payloads[0][1])
  guard payloads.allSatisfy({ Int($0[1]) == count }) else {
    return dropped("segments disagree on their count")
  }
  var pieces: [Int: ArraySlice<UInt8>] = [:]
  for payload in payloads {
    let number = Int(payload[0])
    guard (1...max(count, 1)).contains(number), count > 0 else {
      return dropped("segment number \(number) is outside 1…\(count)")
    }
    let piece = payload[2...]
    if let earlier = pieces[number], earlier != piece {
      return dropped("segment \(number) appears twice")
    }
    pieces[number] = piece
  }
  if let missing = (1...count).first(where: { pieces[$0] == nil }) {
    return dropped("segment \(missing) of \(count) is missing")
  }
  let profile = (1...count).flatMap { pieces[$0] ?? [] }
  guard !profile.isEmpty else { return dropped("is empty") }
  return (profile, nil)
}
