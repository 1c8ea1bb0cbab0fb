import HexMask

/// What a batch will do: each input with the outputs it writes (one per size, next to each
/// other), and the conflicts that must be resolved before anything is written.
///
/// ```swift
/// let plan = BatchPlan(inputs: inputs, template: .standard, outputFolder: "out")
/// guard plan.conflicts.isEmpty else { … }
/// ```
struct BatchPlan: Equatable, Sendable {
  /// One entry per input and size, in input order, the sizes of an input together.
  var items: [BatchItem]
  /// Outputs that two inputs would write, or that would overwrite an input; a batch with
  /// conflicts must not start.
  var conflicts: [OutputConflict]
  /// An output the name template would put among hexmask's rerun records (`.hexmask/…` in
  /// the output folder), relative to it: the template is wrong for every input, so a batch
  /// with one must not start either.
  var outputAmongRecords: String?

  /// Names every input's output at each of `sizes` (nil: the square's own size) with
  /// `template` under `outputFolder` and checks that no two share an output and no output
  /// or record is one of the inputs, the `--files-from` list (`list`: its identity) or a
  /// cascade file of the face model (`model`: their identities).
  ///
  /// - Complexity: O(n) expected, with one `stat` per input and per existing output or
  ///   record.
  init(
    inputs: [BatchInput], template: NameTemplate, outputFolder: String, sizes: [Int?] = [nil],
    list: FileIdentity? = nil, model: Set<FileIdentity> = [], recordFolder: String? = nil
  ) {
    let prefix = outputFolder.hasSuffix("/") ? outputFolder : outputFolder + "/"
    let records = recordFolder.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    var amongRecords: String?
    items = inputs.flatMap { input in
      // The input's path as `{dir}/{name}.{ext}` sees it: the same for every size and name.
      let fileName = lastComponent(of: input.path)
      let shardKey =
        input.folder.map { $0.isEmpty ? String(fileName) : $0 + "/" + fileName } ?? input.path
      return sizes.map { size in
        var item = BatchItem(input: input.path, output: "", size: size, shardKey: shardKey)
        if let relative = Self.name(
          &item, from: input, template: template, prefix: prefix, records: records)
        {
          amongRecords = amongRecords ?? relative
        }
        return item
      }
    }
    outputAmongRecords = amongRecords
    conflicts = Self.conflicts(
      among: items, inputs: Set(inputs.compactMap(\.identity)), list: list, model: model)
  }

  /// Gives `item` its output under `prefix` (the output folder and a slash) and its record
  /// under `records` (`--records` and a slash; nil: `.hexmask` in the output folder), or
  /// the reason it has none. Returns the output's path when it would be among the records.
  @discardableResult
  private static func name(
    _ item: inout BatchItem, from input: BatchInput, template: NameTemplate, prefix: String,
    records: String?
  ) -> String? {
    if let problem = input.problem {
      item.problem = problem
      return nil
    }
    guard let relative = template.outputPath(for: input, size: item.size) else {
      let reason =
        input.folder == nil
        ? "cannot mirror a path that climbs with '..' under the output folder"
        : "the name template \(quotedName(template.text)) gives no usable file name"
      item.problem = FileFailure(file: input.path, .unnamable(reason))
      return nil
    }
    if records == nil, relative == recordFolderName || relative.hasPrefix(recordFolderName + "/") {
      let reason =
        "the output \(quotedName(relative)) would be among hexmask's rerun records in "
        + "'\(recordFolderName)'"
      item.problem = FileFailure(file: input.path, .unnamable(reason))
      return relative
    }
    item.output = prefix + relative
    item.record = (records ?? prefix + recordFolderName + "/") + relative + ".rec"
    return nil
  }

  /// Outputs two items would write, and outputs or records that are inputs (`inputs`: their
  /// files' identities), the list or the model.
  private static func conflicts(
    among items: [BatchItem], inputs inputKeys: Set<FileIdentity>, list: FileIdentity?,
    model: Set<FileIdentity>
  ) -> [OutputConflict] {
    var conflicts: [OutputConflict] = []
    var firstWriter: [String: Int] = [:]
    var conflictIndex: [String: Int] = [:]
    for (index, item) in items.enumerated() where item.problem == nil {
      if let existing = conflictIndex[item.output] {
        conflicts[existing].inputs.append(item.input)
      } else if let first = firstWriter[item.output] {
        conflictIndex[item.output] = conflicts.count
        conflicts.append(
          OutputConflict(output: item.output, inputs: [items[first].input, item.input]))
      } else {
        firstWriter[item.output] = index
      }
    }
    // Only a file that exists can be an input: read each folder written to once, and look
    // closer only at the names found there (none at all in a new folder). A record is
    // written as an output is, so it must not replace an input either.
    var existing: [Substring: Set<Substring>] = [:]
    for item in items where item.problem == nil {
      for written in [item.output] + (item.record.map { [$0] } ?? []) {
        let name = lastComponent(of: written)
        let folder = written[..<name.startIndex]
        if existing[folder] == nil { existing[folder] = Set(namesInFolder(String(folder))) }
        guard existing[folder]?.contains(name) == true,
          let file = FileStatus(path: written, following: true)?.identity,
          inputKeys.contains(file) || file == list || model.contains(file)
        else { continue }
        var conflict = OutputConflict(output: written, inputs: [item.input], overwritesInput: true)
        conflict.overwritesList = file == list
        conflict.overwritesModel = model.contains(file)
        conflict.isRecord = written != item.output
        conflicts.append(conflict)
      }
    }
    return conflicts
  }
}

/// The hidden folder inside the output folder that holds the ``RunRecord``s, mirroring the
/// outputs.
let recordFolderName = ".hexmask"

/// One input of a batch and the file it writes.
struct BatchItem: Equatable, Sendable {
  /// The photo to read.
  var input: String
  /// The PNG to write; empty when `problem` is set.
  var output: String
  /// Why the input fails before it is read (an unreadable folder, an unusable name).
  var problem: FileFailure?
  /// Where the ``RunRecord`` of the output is kept; nil: keep none, and an existing output
  /// counts as up to date.
  var record: String?
  /// The output's `--size`; nil: the square's own size.
  var size: Int?
  /// What `--shard` hashes: the input's path as the output name sees it (inside its folder
  /// argument, or as named), the same for all its sizes, so one process makes them all.
  var shardKey = ""

  init(
    input: String, output: String, problem: FileFailure? = nil, record: String? = nil,
    size: Int? = nil, shardKey: String = ""
  ) {
    self.input = input
    self.output = output
    self.size = size
    self.shardKey = shardKey
    self.problem = problem
    self.record = record
  }
}

/// Inputs that would write the same output, or an output that is itself an input.
struct OutputConflict: Equatable, Sendable {
  /// The output path in question.
  var output: String
  /// The inputs that would write it, in input order.
  var inputs: [String]
  /// True when `output` is an existing input file that writing would replace.
  var overwritesInput = false
  /// True when that file is the `--files-from` list.
  var overwritesList = false
  /// True when that file is a cascade file of the face model.
  var overwritesModel = false
  /// True when `output` is the input's rerun record rather than its picture.
  var isRecord = false

  init(output: String, inputs: [String], overwritesInput: Bool = false) {
    self.output = output
    self.inputs = inputs
    self.overwritesInput = overwritesInput
  }
}
