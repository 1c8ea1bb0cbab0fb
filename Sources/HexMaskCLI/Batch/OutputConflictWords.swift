extension OutputConflict {
  /// One conflict in words: `'a/x.jpg' and 'b/x.png' would both write 'out/x.png'`.
  var explanation: String {
    let names = inputs.map(quotedName)
    if overwritesInput {
      let what =
        overwritesList
        ? "the --files-from list" : overwritesModel ? "the face model" : "an input file"
      let written = isRecord ? "its rerun record " : ""
      return
        "\(names.joined(separator: ", ")) would write \(written)\(quotedName(output)), "
        + "which is \(what)"
    }
    let list =
      names.count == 2
      ? names.joined(separator: " and ")
      : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    return "\(list) would \(names.count == 2 ? "both" : "all") write \(quotedName(output))"
  }
}
