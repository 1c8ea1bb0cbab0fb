import HexMask

/// A problem that did not stop one file, kept typed until it is printed: the words are
/// made in ``description``, once, and two warnings are the same when their kinds are.
enum FileWarning: Hashable, Sendable, CustomStringConvertible {
  /// The library's, about the picture (a damaged input, a profile left out).
  case render(HexMask.Warning)
  /// The library's ``HexMask/Warning/Kind/firstFrameOnly`` on a picture output, which
  /// `--frame` could take from another frame (a mask is the same for every frame).
  case firstFrameOnly(HexMask.Warning)
  /// A batch could not write the output's rerun record (the failure's words), so the next
  /// run rebuilds it.
  case recordNotWritten(String)

  /// The library's `warning` about a `mask` output or a picture.
  init(_ warning: HexMask.Warning, mask: Bool) {
    self = warning.kind == .firstFrameOnly && !mask ? .firstFrameOnly(warning) : .render(warning)
  }

  /// The words, on standard error and in `--json`, with the option that changes what the
  /// library describes: the library never names options.
  var description: String {
    switch self {
    case .render(let warning): warning.description
    case .firstFrameOnly(let warning): "\(warning.description) (--frame N picks another)"
    case .recordNotWritten(let failure): "the next run will rebuild this output: \(failure)"
    }
  }
}
