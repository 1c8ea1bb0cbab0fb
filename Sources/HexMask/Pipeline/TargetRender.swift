extension HexMask {
  /// One output of a render from a shared decode: its resized picture, its row buffers,
  /// its writer, and how far down it is.
  struct TargetRender {
    /// Its reader of the render's ``SharedRows``.
    let branch: SharedRows.Branch
    /// The decoded rows at its size.
    let picture: ResizedDecoder
    let writer: any ImageWriter
    var rows: RowPipeline
    private(set) var rowsDone = 0

    init(
      branch: SharedRows.Branch, picture: ResizedDecoder, writer: any ImageWriter,
      rows: RowPipeline
    ) {
      self.branch = branch
      self.picture = picture
      self.writer = writer
      self.rows = rows
    }

    var side: Int { picture.height }
    var isFinished: Bool { rowsDone == side }
    /// How far down the output is, from 0 to 1: the middle of the next row.
    var progress: Double { (Double(rowsDone) + 0.5) / Double(side) }

    /// Reads (unless only the mask is drawn), composites and writes the next row.
    mutating func drawNextRow(readsPicture: Bool) throws(Error) {
      if readsPicture {
        try decoding { () throws(ImageError) in try rows.read(from: picture) }
      }
      rows.draw()
      try encoding { () throws(ImageError) in try rows.write(to: writer) }
      rowsDone += 1
    }
  }

  /// Draws every row of every target, in turns: the next row is always the one of the
  /// target furthest behind relative to its size, so all read the shared decoded rows at
  /// the same pace and few rows are kept. A finished target stops holding rows, except
  /// the last, which strict mode reads on through.
  ///
  /// - Returns: the index of the target that finished last.
  static func drawInTurns(_ targets: inout [TargetRender], readsPicture: Bool)
    throws(TargetedError) -> Int
  {
    var unfinished = Array(targets.indices)
    var last = 0
    while let index = unfinished.min(by: { targets[$0].progress < targets[$1].progress }) {
      do throws(Error) {
        try targets[index].drawNextRow(readsPicture: readsPicture)
      } catch {
        if case .decoding = error { throw TargetedError(error: error, target: nil) }
        throw TargetedError(error: error, target: index)
      }
      if targets[index].isFinished {
        unfinished.removeAll { $0 == index }
        last = index
        if !unfinished.isEmpty { targets[index].branch.close() }
      }
    }
    return last
  }
}
