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
    /// A render's own budget (``forRender(encoding:)``) takes from `shared`, adding what
    /// `encoding` says the render's outputs need to the first reservation it makes, and
    /// holding that part in `encodingHeld` until the render ends.
    private let shared: MemoryBudget?
    private let encoding: ((PictureSize) -> Int)?
    private var encodingHeld: MemoryReservation?

    public init(limit: Int) {
      self.limit = limit
      shared = nil
      encoding = nil
      pthread_mutex_init(lock, nil)
      pthread_cond_init(changed, nil)
    }

    private init(shared: MemoryBudget, encoding: @escaping (PictureSize) -> Int) {
      limit = shared.limit
      self.shared = shared
      self.encoding = encoding
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
      if let shared { return try shared.reserve(bytes) }
      return try reserve(bytes, purpose: "to decode")
    }

    private func reserve(_ bytes: Int, purpose: String) throws(ImageError) -> MemoryReservation {
      let bytes = max(0, bytes)
      guard bytes <= limit else {
        throw ImageError.memory(needed: bytes, limit: limit, purpose: purpose)
      }
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

    /// The budget of one render that takes from this one: the first reservation any of its
    /// readers makes for a picture (``reserve(_:for:)``) takes `encoding(picture)` more,
    /// what the render's outputs will hold while they are encoded, in the same request, and
    /// keeps it until this budget is let go. A render so holds one reservation for its
    /// decode and its encode: two, the second waiting while the first is held, could wait
    /// for ever behind another render doing the same.
    ///
    /// ```swift
    /// let budget = shared.forRender { picture in 34 * picture.width * picture.height }
    /// ```
    func forRender(encoding: @escaping (PictureSize) -> Int) -> MemoryBudget {
      MemoryBudget(shared: shared ?? self, encoding: encoding)
    }

    /// `bytes` for reading `picture`; in a render's budget, the first such request takes
    /// the outputs' encoding too (``forRender(encoding:)``).
    func reserve(_ bytes: Int, for picture: PictureSize) throws(ImageError) -> MemoryReservation {
      guard let shared, let encoding, !holdsEncoding else { return try reserve(bytes) }
      let reading = max(0, bytes)
      let encodingBytes = max(0, encoding(picture))
      let (total, overflow) = reading.addingReportingOverflow(encodingBytes)
      let both = try shared.reserve(
        overflow ? Int.max : total,
        purpose: encodingBytes > 0 ? "to decode and encode" : "to decode")
      hold(both.split(keeping: reading))
      return both
    }

    /// Takes the outputs' `bytes` when no reader has taken them with its own (a picture
    /// read row by row takes nothing): then this render holds nothing else, and may wait.
    func reserveEncoding(_ bytes: Int, purpose: String = "to encode") throws(ImageError) {
      guard let shared, !holdsEncoding, bytes > 0 else { return }
      hold(try shared.reserve(bytes, purpose: purpose))
    }

    private var holdsEncoding: Bool {
      pthread_mutex_lock(lock)
      defer { pthread_mutex_unlock(lock) }
      return encodingHeld != nil
    }

    private func hold(_ reservation: MemoryReservation) {
      pthread_mutex_lock(lock)
      encodingHeld = reservation
      pthread_mutex_unlock(lock)
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

  /// Keeps `bytes` (when fewer than held) and hands the rest on as a reservation of its
  /// own: one request's bytes, kept for two purposes and let go separately.
  func split(keeping bytes: Int) -> MemoryReservation {
    let kept = min(max(0, bytes), self.bytes)
    let rest = MemoryReservation(budget: budget, bytes: self.bytes - kept)
    self.bytes = kept
    return rest
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
  /// A reservation of `bytes` for reading `picture` (in a render, its outputs' encoding
  /// comes with the first: ``HexMask/MemoryBudget/forRender(encoding:)``), or nil when
  /// there is no budget to take them from.
  func reserve(_ bytes: Int, for picture: PictureSize) throws(ImageError) -> MemoryReservation? {
    guard let budget = self else { return nil }
    return try budget.reserve(bytes, for: picture)
  }
}

/// The size of a picture a reader reserves memory for, and whether it is an animation
/// (whose outputs may move: their encoders hold more).
struct PictureSize {
  var width: Int
  var height: Int
  var isAnimation = false
}
