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
  let orientation = metadata.orientation(autoOrient: autoOrient)
  let turned = orientation.needsWholePicture ? wholeBytes(width, height, 4) : 0
  guard whole > 0 || turned > 0 else { return nil }
  let (total, overflow) = whole.addingReportingOverflow(turned)
  return try memory.reserve(
    overflow ? Int.max : total, for: PictureSize(width: width, height: height))
}

/// `width × height × bytesPerPixel`, or `Int.max` when that does not fit an `Int` (a
/// caller's pixel limit may allow any size a header can claim): too much for any budget.
func wholeBytes(_ width: Int, _ height: Int, _ bytesPerPixel: Int) -> Int {
  let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
  let (bytes, overflowAgain) = pixels.multipliedReportingOverflow(by: bytesPerPixel)
  return overflow || overflowAgain ? Int.max : bytes
}
