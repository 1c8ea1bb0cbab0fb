import HexMask

extension Job {
  /// Reads a command line (without the program name) into a job, using `optionTable`.
  ///
  /// Options and the two files may come in any order. An option's value follows it
  /// (`--sides 8`) or is joined with `=` (`--sides=8`), or for a short option written right
  /// after its letter (`-j2`); the word after an option is its value even when it starts with
  /// `-` (`--rotation -30`). Short flags may be bundled (`-rq` is `-r -q`, `-rj2` is
  /// `-r -j 2`), as getopt reads them. `-` alone is a file (standard input or output) and
  /// `--` makes every later argument a file. A repeated option: the last one wins.
  /// `--help` and `--version` need no files. With `--out-dir` every file is an input of a
  /// batch; the other batch options need `--out-dir`.
  ///
  /// ```swift
  /// let job = try Job(parsing: ["--corner=4", "in.jpg", "out.png"])
  /// // job.options.shape.corner == .pixels(4)
  /// ```
  ///
  /// - Throws: the first problem found, as a usage error (exit status 2).
  init(parsing arguments: [String], options table: [OptionDescription] = optionTable)
    throws(CommandError)
  {
    self.init()
    var files: [String] = []
    var batchOnly: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        files.append(contentsOf: remaining)
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        files.append(argument)
        continue
      }
      for use in try Self.options(in: argument, table: table) {
        let (option, name, attached) = use
        let value: String
        if option.value.isFlag {
          guard attached == nil else { throw .unexpectedValue(option: name) }
          value = ""
        } else if let attached {
          value = attached
        } else if let next = remaining.popFirst() {
          value = next
        } else {
          throw .missingValue(option: name)
        }
        // Every option holds one value: another one replaces the first, with a warning.
        if !option.value.isFlag {
          if let earlier = givenValues[option.long], earlier != value {
            replacedValues.append(ReplacedValue(option: option.long, value: earlier, by: value))
          }
          givenValues[option.long] = value
        }
        try option.value.assign(&self, value, name)
        givenOptions.insert(option.long)
        if option.group == .batch && !["out-dir", "force"].contains(option.long) {
          batchOnly.append(name)
        }
      }
    }
    guard action == .render else { return }
    if givenOptions.contains("gravity") && givenOptions.contains("focus") {
      throw .contradiction(.gravityAndFocus)
    }
    // Only the faces crop finds a face to frame; the others would ignore it silently.
    if givenOptions.contains("face-size") && !faceCrop {
      if givenOptions.contains("focus") { throw .contradiction(.faceSizeAndFocus) }
      throw .contradiction(.faceSizeWithoutFaceGravity(gravityWord))
    }
    // An empty word (an unset shell variable in quotes) names no file; say so before it
    // reaches the file system as "No such file or directory".
    guard !files.contains("") else { throw .emptyFileName }
    if batch.outputFolder != nil {
      guard !files.isEmpty || batch.listFile != nil else { throw .missingInputs }
      guard !files.contains("-") else { throw .standardInputInBatch }
      guard svgOutput == nil else { throw .notInBatch(option: "--svg") }
      inputs = files
      action = .renderBatch
      if let template = batch.nameTemplate {
        try checkSizePlaceholder(in: template.text, role: "--name")
        try checkFormat(ofName: template.text, extension: template.literalExtension)
      }
      try checkOutputPixels()
      try checkKind(of: namedFormat)
      return
    }
    if let option = batchOnly.first { throw .needsOutputFolder(option: option) }
    // One file: the threads deflate bands of its PNG (batch mode spends them on files).
    // A machine may have more cores than one PNG may be deflated with.
    options.output.threads = min(
      batch.jobs ?? availableCores, HexMask.Output.threadsRange.upperBound)
    if let svgOutput { try checkSizePlaceholder(in: svgOutput, role: "--svg") }
    if !options.sizes.isEmpty && files.count < 2 {
      // A canvas of a given size needs no picture for its mask or its SVG.
      if options.choices.maskOnly && files.count == 1 {
        output = files[0]
        action = .renderMask
        try checkSizePlaceholder(in: output, role: "OUTPUT")
        try checkFormat(ofName: output, extension: fileExtension(of: output))
        try checkOutputPixels()
        return
      }
      if svgOutput != nil && files.isEmpty {
        action = .writeShape
        return
      }
    }
    guard files.count >= 2 else { throw .missingFiles(count: files.count) }
    guard files.count == 2 else { throw .tooManyArguments(extra: files[2]) }
    input = files[0]
    output = files[1]
    if output == "-" && svgOutput == "-" { throw .twoStandardOutputs }
    try checkSizePlaceholder(in: output, role: "OUTPUT")
    if output != "-" { try checkFormat(ofName: output, extension: fileExtension(of: output)) }
    try checkOutputPixels()
    // A mask in another format is the render's error, with its own words.
    try checkKind(of: pictureFormat)
  }

  /// Refuses an output name whose extension (`ext`, nil when the name has none or it is
  /// not known before the files are) contradicts `--format` (`--format png out.jpg`), and
  /// a `--name` whose extension names no format hexmask writes, which would fail every
  /// file in turn.
  private func checkFormat(ofName name: String, extension ext: String?) throws(CommandError) {
    guard let ext else { return }
    let named = OutputFormat(fileExtension: ext)
    if let format = options.format, let named, named != format {
      throw .contradiction(.formatAndName(format, name: name, named: named))
    }
    if named == nil && options.format == nil && action == .renderBatch {
      throw .contradiction(.templateNamesNoFormat(template: name, ext: ext))
    }
  }

  /// Refuses, by the library's rule (``HexMask/Output/Choices/kind(for:)``), options that
  /// contradict the kind of a `format` output (nil: not known yet): a translucent
  /// `--background` for JPEG, `--colors` for a format with no palette, `--mask-only` for
  /// another format than PNG. Every file would fail alike, so it is a usage error.
  private func checkKind(of format: OutputFormat?) throws(CommandError) {
    guard let format else { return }
    do throws(OutputError) {
      _ = try options.choices.kind(for: format)
    } catch {
      throw .contradiction(.refused(error))
    }
  }

  /// Refuses an output name (`role`: OUTPUT, `--svg` or `--name`) that cannot tell the
  /// sizes' files apart (several sizes, no `{size}`), or has `{size}` and no size to put
  /// there.
  private func checkSizePlaceholder(in name: String, role: String) throws(CommandError) {
    let hasPlaceholder = name.contains(sizePlaceholder)
    if options.sizes.count > 1 && !hasPlaceholder {
      throw .sizeNotInName(name: name, role: role)
    }
    if options.sizes.isEmpty && hasPlaceholder { throw .sizeWithoutSizes(name: name, role: role) }
  }

  /// Refuses a `--size` whose picture would have more pixels than `--max-pixels`, the limit
  /// inputs have too, before anything is read: the largest size is 4.3 gigapixels. Only the
  /// SVG alone (`.writeShape`) draws no pixels.
  private func checkOutputPixels() throws(CommandError) {
    // `--size` is at most 65 500, so its square fits an Int.
    guard let side = options.sizes.max(), side * side > options.input.maxPixels else { return }
    throw .tooManyOutputPixels(side: side, maxPixels: options.input.maxPixels)
  }

  /// The options one argument starting with `-` names, each with the spelling messages use
  /// and the value the argument holds for it, if any: `--sides=8` → `--sides` with `8`;
  /// `-j2` → `-j` with `2`; `-rq` → `-r` and `-q`; `-rj` → `-r`, and `-j` takes the next word.
  ///
  /// - Throws: `unknownOption` naming the whole argument when any of it is not an option, so
  ///   `-sides` still suggests `--sides`.
  private static func options(in argument: String, table: [OptionDescription])
    throws(CommandError) -> [(option: OptionDescription, name: String, value: String?)]
  {
    let isLong = argument.hasPrefix("--")
    let equals = isLong ? argument.firstIndex(of: "=") : nil
    let name = String(argument[..<(equals ?? argument.endIndex)])
    var unknown: CommandError {
      .unknownOption(name, suggestions: suggestions(for: name, among: table.map(\.longName)))
    }
    if isLong {
      guard let option = table.first(where: { $0.longName == name }) else { throw unknown }
      return [(option, name, equals.map { String(argument[argument.index(after: $0)...]) })]
    }
    var uses: [(option: OptionDescription, name: String, value: String?)] = []
    var letters = argument.dropFirst()
    while let letter = letters.popFirst() {
      guard let option = table.first(where: { $0.short == letter }) else { throw unknown }
      if option.value.isFlag {
        uses.append((option, "-\(letter)", nil))
      } else {
        // The rest of the argument is the value (`-j2`); nothing left: the next word is.
        uses.append((option, "-\(letter)", letters.isEmpty ? nil : String(letters)))
        break
      }
    }
    return uses
  }
}

/// The extension of the last component of `path` (after its last dot, not a leading one);
/// nil when there is none.
func fileExtension(of path: String) -> String? {
  let name = lastComponent(of: path)
  guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
  return String(name[name.index(after: dot)...])
}
