import CFileShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The cores this process may use: the default for `--jobs`.
///
/// Not the machine's count, which is what a Slurm task, a `taskset` or a container with a
/// CPU limit would otherwise get: the CPUs the process may run on (`sched_getaffinity`),
/// and no more than a cgroup v2 CPU quota allows (`cpu.max` of the process's cgroup or
/// any above it, rounded up), at least 1.
let availableCores = coresAllowed(
  affinity: affinityCount(), quota: cgroupQuota(),
  machine: sysconf(Int32(_SC_NPROCESSORS_ONLN)))

/// The smallest of what the affinity mask, the quota and the machine allow, at least 1;
/// nil means "no limit from there".
func coresAllowed(affinity: Int?, quota: Double?, machine: Int) -> Int {
  var cores = max(1, machine)
  if let affinity, affinity > 0 { cores = min(cores, affinity) }
  // A quota of 2.5 CPUs keeps 3 threads busy part of the time: round up, as Go and the
  // JVM do.
  if let quota, quota > 0, quota < Double(cores) { cores = max(1, Int(quota.rounded(.up))) }
  return cores
}

/// The CPUs in this thread's affinity mask (the process's, unless a thread changed its
/// own); nil when it cannot be read.
func affinityCount() -> Int? {
  let count = hm_cpus_allowed()
  return count > 0 ? Int(count) : nil
}

/// The smallest CPU quota of this process's cgroup v2 and the cgroups above it; nil when
/// none is set or there is no cgroup v2.
private func cgroupQuota() -> Double? {
  cgroupFolders().compactMap { folder in
    smallTextFile(folder + "/cpu.max").flatMap(cgroupQuota)
  }.min()
}

/// The folders of this process's cgroup v2 (`0::/a/b` in /proc/self/cgroup) and of the
/// cgroups above it, innermost first; none without cgroup v2. A limit set on any of them
/// holds for the process.
func cgroupFolders() -> [String] {
  #if os(Linux)
    linuxCgroupFolders()
  #else
    []  // cgroups are Linux's; macOS has none
  #endif
}

/// ``cgroupFolders()`` as Linux tells them, in /proc and /sys/fs/cgroup.
private func linuxCgroupFolders() -> [String] {
  guard let membership = smallTextFile("/proc/self/cgroup"),
    let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
  else { return [] }
  var folder = "/sys/fs/cgroup" + line.dropFirst(3)
  var folders: [String] = []
  while folder.hasPrefix("/sys/fs/cgroup") {
    folders.append(folder)
    guard let slash = folder.lastIndex(of: "/"), folder != "/sys/fs/cgroup" else { break }
    folder = String(folder[..<slash])
  }
  return folders
}

/// The CPUs the text of a cgroup v2 `cpu.max` file allows ("200000 100000" → 2.0); nil
/// for "max 100000" (no limit) or anything else.
func cgroupQuota(_ text: String) -> Double? {
  let fields = text.split(whereSeparator: \.isWhitespace)
  guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]),
    quota > 0, period > 0, quota.isFinite, period.isFinite
  else { return nil }
  return quota / period
}

/// The text of a small file of /proc or /sys (at most 64 KiB is read); nil when it cannot be
/// read. Written with read(2) so that the command needs no Foundation, whose ICU data alone
/// would make the static binary four times larger.
func smallTextFile(_ path: String) -> String? {
  let descriptor = path.withFileName { open($0, O_RDONLY | O_CLOEXEC) }
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var bytes = [UInt8](repeating: 0, count: 1 << 16)
  var filled = 0
  while filled < bytes.count {
    let count = bytes.withUnsafeMutableBytes {
      read(descriptor, $0.baseAddress.map { $0 + filled }, $0.count - filled)
    }
    if count < 0 && errno == EINTR { continue }
    guard count >= 0 else { return nil }
    if count == 0 { break }
    filled += count
  }
  return String(decoding: bytes[..<filled], as: UTF8.self)
}
