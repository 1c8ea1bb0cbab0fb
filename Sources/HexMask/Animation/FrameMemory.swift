/// What a frame reader holds while it composites, priced from its header before any of it
/// is allocated, and taken from the shared budget in one reservation (a second one,
/// waiting for memory while the first is held, could wait for ever). Every frame reader
/// (GIF, APNG, animated WebP) prices itself here, by the same rule: `canvases` whole
/// RGBA canvases (the one shown, the copy "restore to previous" needs, the first frame a
/// render keeps), plus `working` bytes its decoding holds at most at once. Each frame
/// reader's initialiser takes `memory:` with no default, so none is opened without a word
/// on its budget (nil says: none).
///
/// ```swift
/// reservation = try reserveFrameReading(
///   width: 1500, height: 1500, canvases: 2, working: compressedLimit, memory: budget)
/// ```
func reserveFrameReading(
  width: Int, height: Int, canvases: Int, working: Int, memory: MemoryBudget?
) throws(ImageError) -> MemoryReservation? {
  let (total, overflow) = wholeBytes(width, height, 4 * canvases).addingReportingOverflow(
    max(0, working))
  return try memory.reserve(
    overflow ? Int.max : total,
    for: PictureSize(width: width, height: height, isAnimation: true))
}

/// Refuses `counted` frames of a `width`×`height` canvas (those a header declares, or as
/// many as the render reads when fewer) over `maxFrames`, or over `maxTotalPixels` in all:
/// the one rule every reader that knows its count before decoding (APNG, animated WebP,
/// JPEG XL) checks it by, worded alike.
func checkFrameLimits(
  counted: Int, width: Int, height: Int, maxFrames: Int, maxTotalPixels: Int
) throws(ImageError) {
  guard counted <= maxFrames else { throw .tooManyFrames(limit: maxFrames) }
  let (total, overflow) = wholeBytes(width, height, 1).multipliedReportingOverflow(by: counted)
  guard !overflow, total <= maxTotalPixels else {
    throw .tooManyPixelsInAll(frames: counted, width: width, height: height, limit: maxTotalPixels)
  }
}
