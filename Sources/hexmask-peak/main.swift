// hexmask-peak PROGRAM ARGUMENT…: runs PROGRAM with the same standard streams, waits for
// it, prints its peak resident memory in KB (wait4's ru_maxrss) on a last line of standard
// output, and exits with its status. A test's own process cannot measure this: a child it
// spawns starts in the test's (large) memory before exec, and Linux counts that memory in
// the child's peak; spawned from this small process, the peak is the program's own.
// Not a product; not installed.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard let program = arguments.first else {
  let usage = Array("usage: hexmask-peak PROGRAM [ARGUMENT...]\n".utf8)
  _ = usage.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(2)
}
let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
var pid: pid_t = 0
let spawned = posix_spawn(&pid, program, nil, nil, argv, environ)
guard spawned == 0 else {
  let message = Array(
    "hexmask-peak: cannot run \(program): \(String(cString: strerror(spawned)))\n".utf8)
  _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(127)
}
var status: Int32 = 0
var usage = rusage()
while wait4(pid, &status, 0, &usage) < 0 {
  guard errno == EINTR else { exit(127) }
}
print(usage.ru_maxrss)
// WIFEXITED and WEXITSTATUS, which Swift does not import; a signal is reported as 128 + it.
exit(status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f))
