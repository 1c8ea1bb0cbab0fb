import HexMask

extension Job {
  /// Refuses, before anything is read or written, a single-file command whose outputs
  /// (OUTPUT, `--svg`) name its input or each other, however spelled: `./`, `..`, a symbolic
  /// link, a hard link. Standard input and output (`-`) are never files here.
  func checkOutputsAreDistinct() throws(CommandError) {
    let inputKey = action == .render && input != "-" ? FileKey(existing: input) : nil
    let outputs =
      action == .render || action == .renderMask ? outputFiles.filter { $0.path != "-" } : []
    let outputKeys = outputs.map { FileKey(output: $0.path) }
    for (output, key) in zip(outputs, outputKeys) where key != nil && key == inputKey {
      throw .outputIsInput(path: output.path, role: "output")
    }
    for svg in svgFiles where svg.path != "-" {
      let svgKey = FileKey(output: svg.path)
      if svgKey == inputKey { throw .outputIsInput(path: svg.path, role: "the --svg output") }
      if outputKeys.contains(svgKey) { throw .svgIsOutput(path: svg.path) }
    }
  }

}
