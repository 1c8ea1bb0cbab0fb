import Testing

/// The lanes of the suite: `make test` skips the suites tagged `slow`, and `make check` runs
/// everything.
extension Tag {
  /// Takes seconds, not milliseconds, even optimised: builds a package, sweeps a corpus,
  /// renders big pictures or runs many processes.
  @Tag public static var slow: Self
  /// Runs a built program (the `hexmask` command or a helper) in a process of its own and
  /// checks what it printed, wrote and returned.
  @Tag public static var endToEnd: Self
}
