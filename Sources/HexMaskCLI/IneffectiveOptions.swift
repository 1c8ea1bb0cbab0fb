import HexMask

extension Job {
  /// The format of the picture this job writes, as the command line decides it: `--format`,
  /// else OUTPUT's extension for one file, PNG in a batch. Nil when no picture is written
  /// (only an SVG), or when the render will refuse the job anyway (a name that names no
  /// format, a mask asked for in another format than PNG).
  var pictureFormat: OutputFormat? {
    let format: OutputFormat?
    switch action {
    case .render, .renderMask: format = options.format ?? OutputFormat(forPath: output)
    case .renderBatch: format = options.format ?? .png
    default: format = nil
    }
    guard !options.output.maskOnly || format == .png else { return nil }
    return format
  }

  /// One warning, without the `hexmask: warning: ` prefix, for each option given on the
  /// command line that changes nothing in the picture written: `--quality` for PNG and
  /// lossless WebP, `--lossless` for PNG and JPEG, `--compression` for JPEG and WebP. A user
  /// who typed one expected it to matter, so saying it does not is worth a line.
  ///
  /// ```swift
  /// try Job(parsing: ["in.jpg", "out.png", "--quality", "80"]).ineffectiveOptionWarnings
  /// // ["--quality has no effect on PNG output"]
  /// ```
  var ineffectiveOptionWarnings: [String] {
    guard let format = pictureFormat else { return [] }
    let lossless = format == .webp && options.output.lossless
    var unused: [String] = []
    if format == .png || lossless { unused.append("quality") }
    if format != .webp { unused.append("lossless") }
    if format != .png { unused.append("compression") }
    let output = lossless ? "lossless WebP" : format.displayName
    return unused.filter(givenOptions.contains).map { "--\($0) has no effect on \(output) output" }
  }
}

extension OutputFormat {
  /// The name people write the format with: PNG, JPEG, WebP.
  var displayName: String {
    switch self {
    case .png: "PNG"
    case .jpeg: "JPEG"
    case .webp: "WebP"
    }
  }
}
