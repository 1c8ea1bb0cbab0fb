/// Refuses an output whose encoding would need more memory than the budget's whole limit,
/// before any row is written: the writers that hold whole pictures (WebP, AVIF, palette PNG)
/// check their need as decoding does. It is checked, not reserved: a render already holds
/// its decoder's reservation, and waiting in the budget's queue for a second one could wait
/// forever.
///
/// ```swift
/// try checkEncodingMemory(needed, for: "a 3000×3000 AVIF", purpose: "to encode", memory: budget)
/// ```
func checkEncodingMemory(
  _ needed: Int, for picture: String, purpose: String, memory: MemoryBudget?
) throws(ImageError) {
  guard let memory, needed > memory.limit else { return }
  throw ImageError(
    .tooLarge,
    "\(picture) needs \(byteAmount(needed)) \(purpose), more than the memory limit of "
      + byteAmount(memory.limit),
    memory: ImageError.MemoryLimit(needed: needed, limit: memory.limit))
}
