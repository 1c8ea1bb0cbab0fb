import HexMask

extension Job {
  /// Refuses, before anything is read or written, a single-file command whose outputs
  /// (OUTPUT, `--svg`) name its input or each other, however spelled: `./`, `..`, a symbolic
  /// link, a hard link. Standard input and output (`-`) are never files here.
  func checkOutputsAreDistinct() throws(CommandError) {
    let inputKey = action == .render && input != "-" ? FileKey(existing: input) : nil
    let outputKey =
      (action == .render || action == .renderMask) && output != "-"
      ? FileKey(output: output) : nil
    if let outputKey, outputKey == inputKey { throw .outputIsInput(path: output, role: "output") }
    guard let svg = svgOutput, svg != "-" else { return }
    let svgKey = FileKey(output: svg)
    if svgKey == inputKey { throw .outputIsInput(path: svg, role: "the --svg output") }
    if svgKey == outputKey { throw .svgIsOutput(path: svg) }
  }
}
