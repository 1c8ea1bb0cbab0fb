import HexMask

/// A problem that did not stop one file, kept typed until it is printed: the words are
/// made in ``description``, once, and two warnings are the same when their kinds are.
enum FileWarning: Hashable, Sendable, CustomStringConvertible {
  /// The library's, about the picture (a damaged input, a profile left out).
  case render(HexMask.Warning)
  /// A batch could not write the output's rerun record (the failure's words), so the next
  /// run rebuilds it.
  case recordNotWritten(String)

  var description: String {
    switch self {
    case .render(let warning): warning.description
    case .recordNotWritten(let failure): "the next run will rebuild this output: \(failure)"
    }
  }
}
