import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The library's failures carry data (sizes, limits, typed causes) and become sentences only
// here, in the options' words, where the command knows which option changes each.

extension FileFailure.Cause {
  /// The reason in words, naming the options that can change it: the library's errors
  /// carry data, and only here become sentences.
  var words: String {
    switch self {
    case .system(let words), .unnamable(let words): words
    case .outputIsFolder: "is a folder; name a file, or use --out-dir to write into a folder"
    case .outputIsFolderInBatch:
      "is a folder; move it away, or name the outputs otherwise with --name"
    case .closedPipe: "cannot write: \(String(cString: strerror(EPIPE)))"
    case .unknownFormat:
      "cannot tell the format from the name: use \(OutputFormat.nameExtensions), or --format"
    case .image(.decoding(let error)) where error.pixels != nil:
      error.pixels.map {
        "image is \($0.width)×\($0.height) = \($0.width * $0.height) pixels, more than "
          + "--max-pixels \($0.limit)"
      } ?? error.reason
    // A memory refusal names the option that sets the limit, whatever stage it comes from.
    case .image(.decoding(let error)) where error.memory != nil,
      .image(.encoding(let error)) where error.memory != nil:
      "\(error.reason) (--memory-limit)"
    case .image(.decoding(let error)) where error.animation != nil:
      error.animation.map { "\(error.reason) (\($0.option))" } ?? error.reason
    case .image(.decoding(let error)), .image(.encoding(let error)): error.reason
    case .image(.warningInStrictMode(let warning)): "\(warning.description) (--strict)"
    case .image(.shape(let error)): error.words
    case .shapeAsTyped(let error, let typed): error.words(typed: typed)
    // The options' own ranges are checked while parsing; this is the library's last word.
    case .image(.invalidValue(let value)): value.description
    case .image(.output(let error)): error.words
    }
  }

  /// True when the options, not the file, are at fault: a single-file run exits with 2.
  var isUsage: Bool {
    switch self {
    case .image(.shape), .shapeAsTyped, .image(.output), .image(.invalidValue), .outputIsFolder,
      .outputIsFolderInBatch, .unknownFormat, .unnamable:
      true
    case .image, .system, .closedPipe: false
    }
  }
}

extension ShapeError {
  /// What does not fit, in the options' words, in pixels.
  var words: String { words(typed: nil) }

  /// ``words``, with the value as the user typed it when that was a percentage.
  func words(typed: HexMask.Length?) -> String {
    func value(_ resolved: Double) -> String {
      guard case .percent(let percent) = typed else { return pixels(resolved) }
      return "\(pixels(percent))% (\(pixels(resolved)) px)"
    }
    return switch self {
    case .cornerTooLarge(let corner, let maximum, let side):
      "--corner \(value(corner)) is too large: at most \(pixels(maximum)) fits a \(side) px "
        + "canvas with this line and number of sides"
    case .lineTooWide(let line, let side):
      "--line \(value(line)) leaves no room for the shape in a \(side) px canvas: it must be "
        + "less than \(side)"
    }
  }
}

extension OutputError {
  /// What cannot be written, in the options' words.
  var words: String {
    switch self {
    case .tooManyPixels(let side, let limit):
      "a \(side)×\(side) output has more pixels than the limit of \(limit) (--max-pixels)"
    case .tooLargeForFormat(let side, let format, let maximum):
      "a \(format.displayName) can be at most \(maximum) pixels a side, "
        + "not \(side)"
    case .maskMustBePNG(let format): "--mask-only writes a gray PNG, not \(format.displayName)"
    case .backgroundNotOpaque: Contradiction.backgroundNotOpaque.words
    // The command passes only settings an output uses (with a warning for the others),
    // so this says only what went wrong if it ever did not.
    case .unusedField(let field, let format):
      "--\(field.rawValue) has no effect on \(format.displayName) output"
    case .faceSizeWithoutFaces: Contradiction.faceSizeWithoutFaceGravity(nil).words
    }
  }
}

extension HexMask.ImageError.AnimationLimit {
  /// The option that sets this limit: `--max-frames` for the frame count, `--max-pixels`
  /// for the pixels of all frames together (16 × it).
  var option: String {
    switch self {
    case .frames: "--max-frames"
    case .pixelsInAll: "\(HexMask.Input.animationPixelsFactor) × --max-pixels"
    }
  }
}
