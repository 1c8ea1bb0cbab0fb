/// What a rows-at-a-time decoder (PNG, JPEG) takes from `memory` before it allocates
/// anything that grows with the area: `whole` bytes its library holds for the whole
/// picture (Adam7's image, a progressive JPEG's coefficients), and the upright copy of a
/// `width × height` picture that an EXIF turn of 3–8 needs (`OrientedDecoder`, when
/// `autoOrient`). One reservation for both, so a render never waits for a second one
/// while holding the first. Nil when there is nothing to take or no budget.
///
/// ```swift
/// reservation = try reserveWholeDecode(
///   whole: coefficients, width: 4000, height: 3000, metadata: metadata, autoOrient: true,
///   memory: budget)
/// ```
func reserveWholeDecode(
  whole: Int, width: Int, height: Int, metadata: ImageMetadata, autoOrient: Bool,
  memory: MemoryBudget?
) throws(ImageError) -> MemoryReservation? {
  let orientation = autoOrient ? metadata.exif.map(Orientation.fromExif) ?? .up : .up
  // Sides are at most 2³¹ and the pixels within the pixel limit: no overflow in Int64.
  let turned = orientation.needsWholePicture ? width * height * 4 : 0
  guard whole + turned > 0 else { return nil }
  return try memory.reserve(whole + turned)
}
