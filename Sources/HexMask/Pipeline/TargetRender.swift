extension HexMask {
  /// One output of a render from a shared decode: its resized picture, its row buffers,
  /// its writer, and how far down it is.
  struct TargetRender {
    /// Its reader of the render's ``SharedRows``; nil when it reads a canvas of its own.
    let branch: SharedRows.Branch?
    /// The decoded rows at its size.
    let picture: ResizedDecoder
    let writer: any ImageWriter
    var rows: RowPipeline
    /// The rows to draw; the others stay as the frame before drawn them (an animated
    /// writer keeps that frame), so a frame costs what it reaches of the output.
    let drawn: Range<Int>
    /// The animated writer that keeps the frame before; without one every row is drawn.
    let moving: MovingFrames?
    private(set) var rowsDone = 0

    init(
      branch: SharedRows.Branch?, picture: ResizedDecoder, writer: any ImageWriter,
      rows: RowPipeline, drawn: Range<Int>? = nil, moving: MovingFrames? = nil
    ) {
      self.branch = branch
      self.picture = picture
      self.writer = writer
      self.rows = rows
      self.moving = moving
      let side = picture.height
      let drawn = moving == nil ? 0..<side : drawn?.clamped(to: 0..<side) ?? 0..<side
      // Nothing to draw: straight to the end.
      self.drawn = drawn.isEmpty ? side..<side : drawn
    }

    var side: Int { picture.height }
    var isFinished: Bool { rowsDone == side }
    /// How far down the output is, from 0 to 1: the middle of the next row.
    var progress: Double { (Double(rowsDone) + 0.5) / Double(side) }

    /// Reads (unless only the mask is drawn), composites and writes the next row; a row
    /// outside ``drawn`` moves on to the next drawn one, or to the end.
    mutating func drawNextRow(readsPicture: Bool) throws(Error) {
      if !drawn.contains(rowsDone) {
        let next = rowsDone < drawn.lowerBound ? drawn.lowerBound : side
        if readsPicture {
          try decoding { () throws(ImageError) in try picture.skip(to: next) }
        }
        rows.skip(to: next)
        moving?.skip(to: next)
        rowsDone = next
        if isFinished { return }
      }
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
        if !unfinished.isEmpty { targets[index].branch?.close() }
      }
    }
    return last
  }
}
