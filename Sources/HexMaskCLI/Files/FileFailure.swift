import HexMask

/// Why one file could not be made: the file a message names, and what went wrong, by kind.
/// ``CommandError`` turns it into words and an exit status, in one place.
///
/// ```swift
/// throw FileFailure(file: "out.png", .outputIsFolder)
/// ```
struct FileFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file the message is about, as the user spelled it (`<stdin>`, `<stdout>`).
  var file: String
  var cause: Cause

  enum Cause: Equatable, Sendable {
    /// The library's error: decoding, the shape and strict mode are about the input, the
    /// output stage and encoding about the output.
    case image(HexMask.Error)
    /// The file system said no; the words say what was attempted and why.
    case system(String)
    /// OUTPUT names a folder.
    case outputIsFolder
    /// A batch output names a folder (`--out-dir` is already given, so no hint to use it).
    case outputIsFolderInBatch
    /// Neither `--format` nor the output's extension names a format.
    case unknownFormat
    /// A batch input whose output cannot be named; the words say why.
    case unnamable(String)
    /// The shape does not fit, and the option that does not fit was given as a percentage
    /// (`typed`), which the words show beside the pixels it came to.
    case shapeAsTyped(ShapeError, typed: HexMask.Length)
    /// Standard output is a pipe its reader closed (SIGPIPE ignored, so the write said
    /// EPIPE): the reader wanted no more.
    case closedPipe
  }

  init(file: String, _ cause: Cause) {
    self.file = file
    self.cause = cause
  }

  /// A file-system failure described in words.
  init(file: String, reason: String) {
    self.init(file: file, .system(reason))
  }

  /// This failure, with a shape that does not fit told in the words `shape` was typed in.
  func typed(as shape: HexMask.Shape) -> FileFailure {
    guard case .image(.shape(let error)) = cause else { return self }
    let typed =
      switch error {
      case .cornerTooLarge: shape.corner
      case .lineTooWide: shape.line
      }
    guard let typed, case .percent = typed else { return self }
    return FileFailure(file: file, .shapeAsTyped(error, typed: typed))
  }

  /// One line, lower case, no trailing period.
  var reason: String { cause.words }

  /// `file: reason`.
  var description: String { "\(file): \(reason)" }
}
