import HexMask

/// One command-line option: everything the parser, the usage line and `--help` need to know.
///
/// The fields are plain data so that other views of the same table (a man page, shell
/// completions) can be generated from it; only `value.assign` holds code.
///
/// ```swift
/// OptionDescription(
///   long: "sides", value: .wholeNumber(named: "N", in: 3...64) { $0.options.shape.sides = $1 },
///   help: "Number of sides of the polygon.", group: .shape, defaultValue: "6")
/// ```
struct OptionDescription: Sendable {
  /// The name after `--`, e.g. `sides`.
  var long: String
  /// The letter after `-`, e.g. `h`, if the option has a short spelling.
  var short: Character?
  /// Whether the option takes a value, what kind, and where it goes in the job.
  var value: OptionValue
  /// One or two sentences for `--help`, starting with a capital letter.
  var help: String
  /// The `--help` section the option is listed in.
  var group: OptionGroup
  /// The value used when the option is absent, as `--help` shows it; `nil` shows none.
  var defaultValue: String?

  init(
    long: String, short: Character? = nil, value: OptionValue, help: String,
    group: OptionGroup, defaultValue: String? = nil
  ) {
    self.long = long
    self.short = short
    self.value = value
    self.help = help
    self.group = group
    self.defaultValue = defaultValue
  }

  /// `--sides`: the spelling used in messages.
  var longName: String { "--\(long)" }
  /// `-h`, if there is a short spelling.
  var shortName: String? { short.map { "-\($0)" } }
}

/// The sections of `--help`, in the order they are printed.
enum OptionGroup: String, CaseIterable, Sendable {
  /// Geometry of the polygon and its border.
  case shape = "Shape"
  /// Size and placement of the canvas cut from the photo.
  case canvas = "Canvas"
  /// What is read, and how much of it is trusted.
  case input = "Input"
  /// What is written: colours and files.
  case output = "Output"
  /// Many inputs, one output folder (`--out-dir`).
  case batch = "Batch"
  /// Help and version.
  case general = "General"
}

/// The kinds of value an option takes; messages and generated documentation depend on it.
enum ValueKind: Equatable, Sendable {
  /// No value: the option alone has an effect.
  case flag
  /// An integer in `range`.
  case wholeNumber(ClosedRange<Int>)
  /// A finite length, zero or more: pixels (`12`) or a percentage of the canvas side (`8%`).
  case length
  /// A finite angle in degrees, any sign.
  case degrees
  /// A colour as `RGBAColor(parsing:)` reads it.
  case color
  /// One of a few fixed words.
  case choice([String])
  /// A file or folder name, not empty.
  case path
  /// Two fractions 0…1 separated by a comma, e.g. `0.3,0.25`.
  case point
  /// One fraction more than 0 and at most 1, e.g. `0.4`.
  case fraction
  /// A PNG compression preset or zlib level.
  case compression
  /// An output name template as `NameTemplate(parsing:)` reads it.
  case nameTemplate
  /// `I/N`: shard I of N, 0 ≤ I < N.
  case shard
  /// One whole number in `range`, or several separated by commas.
  case sizes(ClosedRange<Int>)
  /// An amount of memory: bytes, or a number with K, M, G or T (`512M`).
  case memory
  /// A frame of an animation: a whole number from 0, or `first` (0).
  case frame
}

/// Whether an option takes a value, and how that value is checked and stored in a `Job`.
struct OptionValue: Sendable {
  /// What the value looks like.
  var kind: ValueKind
  /// The placeholder shown in `--help`, e.g. `N`; empty for flags.
  var name: String
  /// Checks the text after the option and stores it; `option` is the spelling the user typed.
  var assign:
    @Sendable (_ job: inout Job, _ text: String, _ option: String) throws(CommandError) -> Void

  /// True when the option takes no value.
  var isFlag: Bool { kind == .flag }

  /// An option that takes no value.
  static func flag(_ set: @escaping @Sendable (inout Job) -> Void) -> OptionValue {
    OptionValue(kind: .flag, name: "") { job, _, _ in set(&job) }
  }

  /// An integer value in `range`.
  static func wholeNumber(
    named name: String, in range: ClosedRange<Int>,
    _ set: @escaping @Sendable (inout Job, Int) -> Void
  ) -> OptionValue {
    let kind = ValueKind.wholeNumber(range)
    return OptionValue(kind: kind, name: name) { job, text, option throws(CommandError) in
      guard let number = Int(text), range.contains(number) else {
        throw .invalidValue(text, option: option, kind: kind)
      }
      set(&job, number)
    }
  }

  /// A frame number, 0-based, or the word `first` (frame 0) in any case. Only digits (and
  /// the sign `Int` reads) are numbers: `1.5`, `1e3`, `nan` and `last` are refused.
  static func frame(named name: String, _ set: @escaping @Sendable (inout Job, Int) -> Void)
    -> OptionValue
  {
    OptionValue(kind: .frame, name: name) { job, text, option throws(CommandError) in
      if text.lowercased() == "first" {
        set(&job, 0)
        return
      }
      guard let number = Int(text), number >= 0 else {
        throw .invalidValue(text, option: option, kind: .frame)
      }
      set(&job, number)
    }
  }

  /// A length, finite and not negative: pixels, or a percentage of the canvas side.
  static func length(named name: String, _ set: @escaping @Sendable (inout Job, Length) -> Void)
    -> OptionValue
  {
    OptionValue(kind: .length, name: name) { job, text, option throws(CommandError) in
      let isPercent = text.hasSuffix("%")
      guard let number = decimalNumber(isPercent ? String(text.dropLast()) : text), number >= 0
      else {
        throw .invalidValue(text, option: option, kind: .length)
      }
      set(&job, isPercent ? .percent(number) : .pixels(number))
    }
  }

  /// An angle in degrees, finite.
  static func degrees(named name: String, _ set: @escaping @Sendable (inout Job, Double) -> Void)
    -> OptionValue
  {
    OptionValue(kind: .degrees, name: name) { job, text, option throws(CommandError) in
      guard let number = decimalNumber(text) else {
        throw .invalidValue(text, option: option, kind: .degrees)
      }
      set(&job, number)
    }
  }

  /// A colour: `#rgb`, `#rrggbb`, `#rrggbbaa` or a CSS name.
  static func color(named name: String, _ set: @escaping @Sendable (inout Job, RGBAColor) -> Void)
    -> OptionValue
  {
    OptionValue(kind: .color, name: name) { job, text, option throws(CommandError) in
      guard let color = RGBAColor(parsing: text) else {
        throw .invalidValue(text, option: option, kind: .color)
      }
      set(&job, color)
    }
  }

  /// A colour, or `none` for no colour at all (nil), which is what the option's default
  /// says: `--background none` asks for the default.
  static func colorOrNone(
    named name: String, _ set: @escaping @Sendable (inout Job, RGBAColor?) -> Void
  ) -> OptionValue {
    OptionValue(kind: .color, name: name) { job, text, option throws(CommandError) in
      if text.lowercased() == "none" {
        set(&job, nil)
        return
      }
      guard let color = RGBAColor(parsing: text) else {
        throw .invalidValue(text, option: option, kind: .color)
      }
      set(&job, color)
    }
  }

  /// A file or folder name; only the empty string is refused.
  /// A PNG compression: `fast`, `default`, `small` or a zlib level `0`…`9`.
  static func compression(
    named name: String, _ set: @escaping @Sendable (inout Job, PNGCompression) -> Void
  ) -> OptionValue {
    OptionValue(kind: .compression, name: name) { job, text, option throws(CommandError) in
      guard let compression = PNGCompression(argument: text) else {
        throw .invalidValue(text, option: option, kind: .compression)
      }
      set(&job, compression)
    }
  }

  /// A point as fractions of the width and height: `X,Y`, each 0…1.
  static func point(
    named name: String, _ set: @escaping @Sendable (inout Job, Double, Double) -> Void
  ) -> OptionValue {
    OptionValue(kind: .point, name: name) { job, text, option throws(CommandError) in
      let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2, let x = decimalNumber(parts[0]), let y = decimalNumber(parts[1]),
        (0...1).contains(x), (0...1).contains(y)
      else {
        throw .invalidValue(text, option: option, kind: .point)
      }
      set(&job, x, y)
    }
  }

  /// A share more than 0 and at most 1 (`0.4`): 0, a negative number, more than 1, `nan`
  /// and `inf` are refused.
  static func fraction(named name: String, _ set: @escaping @Sendable (inout Job, Double) -> Void)
    -> OptionValue
  {
    OptionValue(kind: .fraction, name: name) { job, text, option throws(CommandError) in
      guard let number = decimalNumber(text), number > 0, number <= 1 else {
        throw .invalidValue(text, option: option, kind: .fraction)
      }
      set(&job, number)
    }
  }

  /// Whole numbers in `range` separated by commas (`64,128,256`), at least one; a number
  /// listed twice counts once, the order is kept.
  static func sizes(
    named name: String, in range: ClosedRange<Int>,
    _ set: @escaping @Sendable (inout Job, [Int]) -> Void
  ) -> OptionValue {
    let kind = ValueKind.sizes(range)
    return OptionValue(kind: kind, name: name) { job, text, option throws(CommandError) in
      var sizes: [Int] = []
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        guard let size = Int(part), range.contains(size) else {
          throw .invalidValue(text, option: option, kind: kind)
        }
        if !sizes.contains(size) { sizes.append(size) }
      }
      set(&job, sizes)
    }
  }

  /// An amount of memory as `memoryAmount` reads it, more than zero.
  static func memory(named name: String, _ set: @escaping @Sendable (inout Job, Int) -> Void)
    -> OptionValue
  {
    OptionValue(kind: .memory, name: name) { job, text, option throws(CommandError) in
      guard let bytes = memoryAmount(text) else {
        throw .invalidValue(text, option: option, kind: .memory)
      }
      set(&job, bytes)
    }
  }

  /// `I/N` with 0 ≤ I < N, both whole numbers.
  static func shard(named name: String, _ set: @escaping @Sendable (inout Job, Shard) -> Void)
    -> OptionValue
  {
    OptionValue(kind: .shard, name: name) { job, text, option throws(CommandError) in
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
        count >= 1, (0..<count).contains(index)
      else {
        throw .invalidValue(text, option: option, kind: .shard)
      }
      set(&job, Shard(index: index, count: count))
    }
  }

  static func path(named name: String, _ set: @escaping @Sendable (inout Job, String) -> Void)
    -> OptionValue
  {
    OptionValue(kind: .path, name: name) { job, text, option throws(CommandError) in
      guard !text.isEmpty else { throw .invalidValue(text, option: option, kind: .path) }
      set(&job, text)
    }
  }

  /// An output name template with `{name}`, `{ext}` and `{dir}`.
  static func nameTemplate(
    named name: String, _ set: @escaping @Sendable (inout Job, NameTemplate) -> Void
  ) -> OptionValue {
    OptionValue(kind: .nameTemplate, name: name) { job, text, option throws(CommandError) in
      do throws(NameTemplateError) {
        set(&job, try NameTemplate(parsing: text))
      } catch {
        throw .invalidTemplate(text, option: option, reason: error.reason)
      }
    }
  }

  /// One of the raw values of `T`, e.g. `centered` or `seed` for `Layout`, in any case
  /// (`Seed`); `parse` reads the text instead when a value has other spellings too.
  static func choice<T: RawRepresentable & CaseIterable & Sendable>(
    of type: T.Type, named name: String? = nil,
    parse: @escaping @Sendable (String) -> T? = { text in
      T.allCases.first { $0.rawValue.lowercased() == text.lowercased() }
    },
    _ set: @escaping @Sendable (inout Job, T) -> Void
  ) -> OptionValue where T.RawValue == String {
    let words = T.allCases.map(\.rawValue)
    let kind = ValueKind.choice(words)
    return OptionValue(kind: kind, name: name ?? words.joined(separator: "|")) {
      job, text, option throws(CommandError) in
      guard let value = parse(text) else {
        throw .invalidValue(text, option: option, kind: kind)
      }
      set(&job, value)
    }
  }
}

/// A finite number written in decimal (`12`, `-0.5`, `1e3`); rejects `nan`, `inf` and the hex
/// floats `Double(_:)` would accept.
private func decimalNumber(_ text: String) -> Double? {
  guard text.allSatisfy({ "0123456789+-.eE".contains($0) }), let number = Double(text),
    number.isFinite
  else { return nil }
  return number
}
