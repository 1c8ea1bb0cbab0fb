/// What an encoder holds while it writes a `side`² picture: a fixed part (its library's
/// tables and threads) and a part that grows with the pixels. Measured by
/// `bench/memory_table.sh` (peak RSS over an idle render, on photos and on noise, every
/// side from 500 to 4000), each figure set at or above the largest peak seen.
///
/// ```swift
/// WebPWriter.cost(lossless: true).bytes(width: 2000, height: 2000)   // 156 MiB
/// ```
struct EncodingCost: Equatable {
  var fixed: Int
  var perPixel: Int

  /// An encoder that takes rows as they come (PNG, JPEG): its memory follows the width
  /// (a few MiB of rows and deflate windows), not counted against the budget, like a
  /// decoder's rows.
  static let streamed = EncodingCost(fixed: 0, perPixel: 0)

  /// The bytes for a `width × height` picture; `Int.max` (too much for any budget) when
  /// that does not fit an `Int`.
  func bytes(width: Int, height: Int) -> Int {
    guard perPixel > 0 || fixed > 0 else { return 0 }
    let (total, overflow) = wholeBytes(width, height, perPixel).addingReportingOverflow(fixed)
    return overflow ? Int.max : total
  }
}

extension HexMask.Output.Kind {
  /// What the writer of this kind holds for a `side`² output, `moving` when it takes every
  /// frame of an animation.
  func encodingBytes(side: Int, moving: Bool) -> Int {
    encodingCost(side: side, moving: moving).bytes(width: side, height: side)
  }

  /// What the writers of this kind hold for outputs of `sides`, all at once.
  func encodingBytes(sides: [Int], moving: Bool) -> Int {
    sides.reduce(0) { total, side in
      total.addingSaturated(encodingBytes(side: side, moving: moving))
    }
  }

  /// What an output of this kind is called in a message: "palette PNG", "animated WebP".
  func encodingName(moving: Bool) -> String {
    switch self {
    case .png(let png) where png.palette != nil: "palette PNG"
    case .png: moving ? "animated PNG" : "PNG"
    case .mask: "mask"
    case .jpeg: "JPEG"
    case .webp: moving ? "animated WebP" : "WebP"
    case .avif: "AVIF"
    case .jxl: moving ? "animated JPEG XL" : "JPEG XL"
    }
  }

  private func encodingCost(side: Int, moving: Bool) -> EncodingCost {
    if moving { return animationCost(self) }
    switch self {
    case .png(let png): return png.palette == nil ? .streamed : PalettePNGWriter.cost
    case .mask(let mask): return mask.palette == nil ? .streamed : PalettePNGWriter.cost
    case .jpeg: return JPEGWriter.cost(side: side)
    case .webp(let webp): return WebPWriter.cost(lossless: webp.quality == .lossless)
    case .avif(let avif): return AVIFWriter.cost(lossless: avif.quality == .lossless)
    case .jxl(let jxl): return JXLWriter.cost(effort: jxl.effort)
    }
  }
}

/// Refuses an output whose encoding would need more memory than the budget's whole limit,
/// before any row is written: the writers that hold whole pictures (WebP, AVIF, palette PNG,
/// animations) check their need as decoding does. It is checked, not reserved: a render
/// takes it from the budget at its door, together with its decode
/// (``HexMask/MemoryBudget/forRender(encoding:)``); this guards a writer made on its own.
///
/// ```swift
/// try checkEncodingMemory(needed, for: "a 3000×3000 AVIF", purpose: "to encode", memory: budget)
/// ```
func checkEncodingMemory(
  _ needed: Int, for picture: String, purpose: String, memory: MemoryBudget?
) throws(ImageError) {
  guard let memory, needed > memory.limit else { return }
  let amounts = neededAndLimit(needed, memory.limit)
  throw ImageError(
    .tooLarge,
    "\(picture) needs \(amounts.needed) \(purpose), more than the memory limit of "
      + amounts.limit,
    memory: ImageError.MemoryLimit(needed: needed, limit: memory.limit))
}

extension Int {
  /// `self + other`, or `Int.max` when that overflows: memory needs are summed this way,
  /// and one too large for any budget stays too large.
  func addingSaturated(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? Int.max : sum
  }
}
