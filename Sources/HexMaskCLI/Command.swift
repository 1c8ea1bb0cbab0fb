import HexMask

/// Runs the command line `arguments` (without the program name) and returns the exit status.
/// (Stub.)
public func runHexMask(_ arguments: [String]) -> Int32 {
  return 2
}
