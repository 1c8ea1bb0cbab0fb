import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes an amount of memory such as `512M`, `2G`, `1.5GiB` or `1048576` names: a
/// positive decimal number and an optional binary unit (K, M, G or T, each 1024 times the
/// one before, optionally followed by `B` or `iB`, in any case). nil for anything else,
/// zero, a negative amount, or more than an `Int` can count (`1e308`).
func memoryAmount(_ text: String) -> Int? {
  let units: [(suffix: String, factor: Double)] = [
    ("t", 0x1p40), ("g", 0x1p30), ("m", 0x1p20), ("k", 0x1p10), ("", 1),
  ]
  var number = Substring(text.lowercased())
  for spelling in ["ib", "b"] where number.hasSuffix(spelling) {
    number = number.dropLast(spelling.count)
    break
  }
  guard let unit = units.first(where: { number.hasSuffix($0.suffix) }) else { return nil }
  number = number.dropLast(unit.suffix.count)
  guard !number.isEmpty, number.allSatisfy({ "0123456789.".contains($0) }),
    let value = Double(number), value.isFinite
  else { return nil }
  let bytes = (value * unit.factor).rounded(.up)
  // Checked before converting: an Int holds less than 2⁶³.
  guard bytes >= 1, bytes < 0x1p62 else { return nil }
  return Int(bytes)
}

/// The memory budget when `--memory-limit` is not given: a quarter of the memory this
/// process may use, that is of the machine's physical memory or, when lower, of the
/// cgroup v2 limit (`memory.max` of the process's cgroup or any above it, as a container
/// sets). A quarter leaves room for the rest of each render (rows, encoders) and for the
/// other programs on the machine.
func defaultMemoryLimit(physical: Int? = physicalMemory(), cgroup: Int? = cgroupMemoryLimit())
  -> Int
{
  let usable = [physical, cgroup].compactMap { $0 }.filter { $0 > 0 }.min() ?? (4 << 30)
  return max(1, usable / 4)
}

/// The machine's physical memory in bytes; nil when it cannot be read.
func physicalMemory() -> Int? {
  let pages = sysconf(Int32(_SC_PHYS_PAGES))
  let size = sysconf(Int32(_SC_PAGESIZE))
  guard pages > 0, size > 0 else { return nil }
  let (bytes, overflow) = pages.multipliedReportingOverflow(by: size)
  return overflow ? nil : bytes
}

/// The smallest `memory.max` of this process's cgroup v2 and the cgroups above it; nil
/// when none is set ("max") or there is no cgroup v2.
func cgroupMemoryLimit() -> Int? {
  cgroupFolders().compactMap { folder in
    smallTextFile(folder + "/memory.max")
      .flatMap { Int($0.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
      .flatMap { $0 > 0 ? $0 : nil }
  }.min()
}
