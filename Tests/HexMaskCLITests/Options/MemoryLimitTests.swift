import Foundation
import Testing

@testable import HexMaskCLI

/// `--memory-limit`: how its values read, its default, and what a batch does with it.
@Suite struct MemoryLimitTests {
  @Test(arguments: [
    ("512M", 512 << 20), ("2G", 2 << 30), ("2g", 2 << 30), ("1.5GiB", 3 << 29),
    ("1048576", 1 << 20), ("10KB", 10 << 10), ("1t", 1 << 40), ("0.5k", 512),
  ])
  func amountsInBinaryUnits(text: String, bytes: Int) {
    #expect(memoryAmount(text) == bytes)
  }

  @Test(arguments: [
    "0", "0M", "-5", "-1G", "1e308", "1e3", "nan", "inf", "garbage", "", "M", "1..5G", "12Q",
    "99999999999999999999T", "0x10", " 5M",
  ])
  func otherTextIsNoAmount(text: String) {
    #expect(memoryAmount(text) == nil)
  }

  @Test func theDefaultIsAQuarterOfTheLowerOfMachineAndCgroup() {
    #expect(defaultMemoryLimit(physical: 16 << 30, cgroup: 2 << 30) == 512 << 20)
    #expect(defaultMemoryLimit(physical: 16 << 30, cgroup: nil) == 4 << 30)
    #expect(defaultMemoryLimit(physical: 1 << 30, cgroup: 8 << 30) == 256 << 20)
    #expect(defaultMemoryLimit(physical: nil, cgroup: nil) == 1 << 30)
  }
}
