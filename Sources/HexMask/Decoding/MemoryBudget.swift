#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HexMask {
  /// Memory that decodes of whole pictures (HEIF, AVIF, lossless WebP, WebP decoded at its
  /// own size, progressive JPEG, Adam7 PNG, and the upright copy of a picture an EXIF
  /// orientation turns) share: give one budget to every render of a batch, and a picture
  /// that does not fit yet waits until others give theirs back.
  ///
  /// Rows-at-a-time decodes (baseline JPEG, non-interlaced PNG, upright) take nothing from
  /// it: their memory follows the width, not the area. A picture needing more than the
  /// whole `limit` fails at once with
  /// `ImageError.memory`; one that fits the whole budget always runs eventually, since
  /// requests are served in the order they came and a render holds only one at a time.
  ///
  /// ```swift
  /// var input = HexMask.Input()
  /// input.memoryBudget = HexMask.MemoryBudget(limit: 512 << 20)   // shared by all threads
  /// ```
  public final class MemoryBudget: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// Bytes that may be taken at once; 0 lets nothing be decoded whole. A render refuses a
    /// negative limit with ``HexMask/Error/invalidValue(_:)``.
    public let limit: Int
    /// Guards `inUse`, `nextTicket` and `serving`; `changed` wakes waiting requests.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var inUse = 0
    /// Requests are numbered as they come and granted in that order, so a large one is
    /// never overtaken forever by small ones.
    private var nextTicket = 0
    private var serving = 0

    public init(limit: Int) {
      self.limit = limit
      pthread_mutex_init(lock, nil)
      pthread_cond_init(changed, nil)
    }

    deinit {
      pthread_cond_destroy(changed)
      pthread_mutex_destroy(lock)
      lock.deallocate()
      changed.deallocate()
    }

    /// Bytes taken now, by all renders together.
    public var bytesInUse: Int {
      pthread_mutex_lock(lock)
      defer { pthread_mutex_unlock(lock) }
      return inUse
    }

    /// Requests waiting for their turn or for memory.
    var waiting: Int {
      pthread_mutex_lock(lock)
      defer { pthread_mutex_unlock(lock) }
      return nextTicket - serving
    }

    public var description: String { "MemoryBudget(limit: \(limit))" }

    public static func == (left: MemoryBudget, right: MemoryBudget) -> Bool { left === right }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Takes `bytes`, waiting (without spinning) until they fit; throws at once when they
    /// can never fit. The bytes come back when the returned reservation is released.
    func reserve(_ bytes: Int) throws(ImageError) -> MemoryReservation {
      let bytes = max(0, bytes)
      guard bytes <= limit else { throw ImageError.memory(needed: bytes, limit: limit) }
      pthread_mutex_lock(lock)
      let ticket = nextTicket
      nextTicket += 1
      while ticket != serving || inUse + bytes > limit {
        pthread_cond_wait(changed, lock)
      }
      inUse += bytes
      serving += 1
      pthread_cond_broadcast(changed)  // the next ticket may fit too
      pthread_mutex_unlock(lock)
      return MemoryReservation(budget: self, bytes: bytes)
    }

    /// Gives back `bytes` taken earlier and wakes the requests waiting for them.
    fileprivate func giveBack(_ bytes: Int) {
      guard bytes > 0 else { return }
      pthread_mutex_lock(lock)
      inUse -= bytes
      pthread_cond_broadcast(changed)
      pthread_mutex_unlock(lock)
    }
  }
}

/// `HexMask.MemoryBudget` by its short name inside the package.
package typealias MemoryBudget = HexMask.MemoryBudget

/// Bytes held from a ``HexMask/MemoryBudget`` until this is released (or shrunk): a
/// decoded picture keeps its reservation as long as it keeps its pixels.
final class MemoryReservation {
  private let budget: MemoryBudget
  private(set) var bytes: Int

  fileprivate init(budget: MemoryBudget, bytes: Int) {
    self.budget = budget
    self.bytes = bytes
  }

  /// Keeps only `bytes` (when fewer than held): the decoder's working memory is freed,
  /// the pixels stay.
  func shrink(to bytes: Int) {
    let kept = min(max(0, bytes), self.bytes)
    budget.giveBack(self.bytes - kept)
    self.bytes = kept
  }

  deinit { budget.giveBack(bytes) }
}

extension MemoryBudget? {
  /// A reservation of `bytes`, or nil when there is no budget to take them from.
  func reserve(_ bytes: Int) throws(ImageError) -> MemoryReservation? {
    guard let budget = self else { return nil }
    return try budget.reserve(bytes)
  }
}
