import Foundation
import Synchronization
import Testing

@testable import HexMaskCLI

#if canImport(Glibc)
  import Glibc
#endif

/// The default `--jobs` follows what the process may use, not the machine's core count.
@Suite struct AvailableCoresTests {
  @Test func theSmallestLimitWinsAndAtLeastOneCoreRemains() {
    #expect(coresAllowed(affinity: nil, quota: nil, machine: 64) == 64)
    #expect(coresAllowed(affinity: 4, quota: nil, machine: 64) == 4)
    #expect(coresAllowed(affinity: 8, quota: 2.5, machine: 64) == 3)
    #expect(coresAllowed(affinity: 2, quota: 6, machine: 64) == 2)
    #expect(coresAllowed(affinity: 0, quota: 0.1, machine: 0) == 1)
  }

  @Test func cgroupQuotasAreRead() {
    #expect(cgroupQuota("200000 100000\n") == 2)
    #expect(cgroupQuota("50000 100000") == 0.5)
    #expect(cgroupQuota("max 100000\n") == nil)
    #expect(cgroupQuota("") == nil)
    #expect(cgroupQuota("-1 100000") == nil)
  }

  #if os(Linux)
    /// Pins the calling thread to CPU 0 with `sched_setaffinity(2)`, declared here because
    /// glibc shows it to Swift only with _GNU_SOURCE.
    @_silgen_name("sched_setaffinity")
    private static func setAffinity(_ pid: Int32, _ size: Int, _ mask: UnsafeRawPointer) -> Int32

    private func pinToFirstCPU() -> Bool {
      var mask = [UInt64](repeating: 0, count: 16)  // 1024 CPUs, as glibc's cpu_set_t
      mask[0] = 1
      return Self.setAffinity(0, mask.count * 8, &mask) == 0
    }

    /// A thread pinned to one CPU, as `taskset -c 0` or a Slurm task would pin hexmask,
    /// counts one.
    @Test func aPinnedThreadCountsOneCore() {
      let counted = Mutex<Int?>(nil)
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        // What `taskset -c 0` does, through the C library's own call.
        if pinToFirstCPU() { counted.withLock { $0 = affinityCount() } }
        done.signal()
      }
      thread.start()
      #expect(done.wait(timeout: .now() + 60) == .success, "the pinned thread never finished")
      #expect(counted.withLock { $0 } == 1)
    }
  #endif
}
