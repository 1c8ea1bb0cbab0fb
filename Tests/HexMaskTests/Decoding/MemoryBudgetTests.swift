import Foundation
import Testing

@testable import HexMask

/// The memory budget whole-picture decoders share: what it grants, when it makes a
/// request wait, and the typed error for a request it can never grant.
@Suite struct MemoryBudgetTests {
  @Test func reservationsCountUntilReleasedOrShrunk() throws {
    let budget = MemoryBudget(limit: 100)
    var first: MemoryReservation? = try budget.reserve(60)
    let second = try budget.reserve(40)
    #expect(budget.bytesInUse == 100)
    first?.shrink(to: 10)
    #expect(budget.bytesInUse == 50)
    first = nil
    #expect(budget.bytesInUse == 40)
    withExtendedLifetime(second) {}
  }

  /// A render's budget adds its outputs' encoding to the first reservation its readers
  /// make, in the same request, and holds it until the render lets its budget go.
  @Test func aRendersFirstReadingTakesItsEncodingInTheSameRequest() throws {
    let shared = MemoryBudget(limit: 1000)
    var render: MemoryBudget? = shared.forRender { picture in picture.width * picture.height }
    var reading: MemoryReservation? = try render?.reserve(
      100, for: PictureSize(width: 10, height: 20))
    #expect(shared.bytesInUse == 300)
    #expect(reading?.bytes == 100)
    reading?.shrink(to: 40)
    #expect(shared.bytesInUse == 240)
    // A second reading (a look's decoder let go, the render's own) takes only its bytes.
    reading = nil
    let second = try render?.reserve(50, for: PictureSize(width: 10, height: 20))
    #expect(shared.bytesInUse == 250)
    try render?.reserveEncoding(999)  // held already: nothing more
    #expect(shared.bytesInUse == 250)
    withExtendedLifetime(second) {}
    render = nil
    #expect(shared.bytesInUse == 50)
  }

  /// Decode and encode that fit the limit apart but not together are refused at the door,
  /// in one message naming both.
  @Test func decodeAndEncodeOverTheLimitTogetherAreRefusedTogether() throws {
    let shared = MemoryBudget(limit: 1000)
    let render = shared.forRender { _ in 600 }
    let error = try #require(
      thrownError { () throws(ImageError) in
        _ = try render.reserve(600, for: PictureSize(width: 1, height: 1))
      })
    #expect(error.memory == ImageError.MemoryLimit(needed: 1200, limit: 1000))
    #expect(error.reason.contains("to decode and encode"))
    #expect(shared.bytesInUse == 0)
    let overflowing = shared.forRender { _ in Int.max }
    #expect(
      thrownError { () throws(ImageError) in
        _ = try overflowing.reserve(1, for: PictureSize(width: 1, height: 1))
      }?.memory?.needed == Int.max)
  }

  /// A render whose picture is read row by row reserved nothing: its encoding is taken on
  /// its own, once.
  @Test func aRenderThatReadNothingWholeTakesItsEncodingAlone() throws {
    let shared = MemoryBudget(limit: 1000)
    var render: MemoryBudget? = shared.forRender { _ in 600 }
    try render?.reserveEncoding(300)
    try render?.reserveEncoding(300)
    #expect(shared.bytesInUse == 300)
    render = nil
    #expect(shared.bytesInUse == 0)
  }

  @Test func moreThanTheWholeLimitFailsAtOnceNamingIt() throws {
    let budget = MemoryBudget(limit: 512 << 20)
    let needed = 1_288_490_189  // 1.2 GiB
    let error = try #require(
      thrownError { () throws(ImageError) in _ = try budget.reserve(needed) })
    #expect(error.kind == .tooLarge)
    #expect(error.memory == ImageError.MemoryLimit(needed: needed, limit: 512 << 20))
    #expect(error.reason == "needs 1.2 GiB to decode, more than the memory limit of 512 MiB")
    #expect(budget.bytesInUse == 0)
  }

  @Test(arguments: [0, -1, Int.min])
  func aLimitOfNothingGrantsNothingButNeverCrashes(limit: Int) throws {
    let budget = MemoryBudget(limit: limit)
    #expect(thrownError { () throws(ImageError) in _ = try budget.reserve(1) } != nil)
  }

  /// A request that does not fit waits until another reservation is released, then runs.
  @Test func aRequestThatDoesNotFitYetWaitsForARelease() throws {
    let budget = MemoryBudget(limit: 100)
    var held: MemoryReservation? = try budget.reserve(70)
    let granted = Flag()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      // Taken and given back before the main thread hears of it.
      granted.set((try? budget.reserve(50)) != nil)
      done.signal()
    }
    // The waiting thread cannot have been granted 50 while 70 of 100 are held.
    #expect(done.wait(timeout: .now() + 0.2) == .timedOut)
    #expect(!granted.value)
    held = nil
    #expect(done.wait(timeout: .now() + 60) == .success)
    #expect(granted.value)
    #expect(budget.bytesInUse == 0)
    withExtendedLifetime(held) {}
  }

  /// Requests are granted in the order they came: many small ones cannot starve a large
  /// one that fits the whole budget.
  @Test func aLargeRequestIsNotOvertakenBySmallOnes() throws {
    let budget = MemoryBudget(limit: 100)
    var small: MemoryReservation? = try budget.reserve(10)
    let order = Order()
    let largeDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let large = try? budget.reserve(100)
      order.append("large")
      withExtendedLifetime(large) {}
      largeDone.signal()
    }
    // The large request is queued (within a minute, or the test fails instead of hanging).
    let queuedBy = Date().addingTimeInterval(60)
    while budget.waiting == 0 && Date() < queuedBy { usleep(1000) }
    try #require(budget.waiting == 1)
    let smallDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let next = try? budget.reserve(10)
      order.append("small")
      withExtendedLifetime(next) {}
      smallDone.signal()
    }
    #expect(smallDone.wait(timeout: .now() + 0.2) == .timedOut)
    small = nil
    #expect(largeDone.wait(timeout: .now() + 60) == .success)
    #expect(smallDone.wait(timeout: .now() + 60) == .success)
    #expect(order.items == ["large", "small"])
    withExtendedLifetime(small) {}
  }

  @Test(arguments: [
    (512 << 20, "512 MiB"), (1_288_490_189, "1.2 GiB"), (1 << 30, "1 GiB"), (1023, "1023 bytes"),
    (1, "1 byte"), (1536, "1.5 KiB"), (1_610_612_736, "1.5 GiB"), (Int.max, "8388608 TiB"),
    (16383 * 16383 * 4, "1 GiB"), (1023 << 20, "1023 MiB"),
  ])
  func amountsReadAsPeopleWriteThem(bytes: Int, words: String) {
    #expect(byteAmount(bytes) == words)
  }
}

/// A Bool set by one thread and read by another.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = false
  var value: Bool { lock.withLock { stored } }
  func set(_ value: Bool) { lock.withLock { stored = value } }
}

/// Names appended by several threads, in the order they came.
private final class Order: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  var items: [String] { lock.withLock { stored } }
  func append(_ item: String) { lock.withLock { stored.append(item) } }
}

extension MemoryBudgetTests {
  /// A header may claim any size a caller's pixel limit allows: the memory it needs never
  /// wraps around to a small number, it becomes more than any budget.
  @Test func wholeDecodesNeverOverflow() throws {
    #expect(wholeBytes(8000, 8000, 4) == 256_000_000)
    #expect(wholeBytes(1 << 31, 1 << 31, 4) == Int.max)
    #expect(wholeBytes(Int.max, 2, 1) == Int.max)
    let budget = MemoryBudget(limit: 1 << 30)
    var metadata = ImageMetadata()
    metadata.exif = nil
    #expect(throws: ImageError.memory(needed: Int.max, limit: 1 << 30)) {
      _ = try reserveWholeDecode(
        whole: Int.max, width: 1 << 31, height: 1 << 31, metadata: metadata, autoOrient: true,
        memory: budget)
    }
    #expect(budget.bytesInUse == 0)
  }
}
