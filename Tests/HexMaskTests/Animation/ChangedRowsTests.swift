import Foundation
import TestSupport
import Testing

@testable import HexMask

/// A frame costs what it reaches of the output: the readers say which rectangle of the
/// canvas changed, the rectangle is turned upright, and each output redraws only the rows
/// that rectangle reaches through its filter, keeping the rest of the frame before. Each
/// step is checked against brute force, and the whole against the still render of every
/// frame of every animation fixture, at several sizes, turned, and several sizes at once.
@Suite struct ChangedRowsTests {
  static let animations: [String] = {
    let folder = Fixtures.path("animation")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".gif") || $0.hasSuffix(".png") || $0.hasSuffix(".webp") }
      .sorted()
  }()

  /// The upright rectangle of a stored one is where its pixels show, in every orientation.
  @Test(arguments: Orientation.allCases)
  func theUprightRectangleIsWhereTheStoredPixelsShow(_ orientation: Orientation) {
    let (width, height) = (5, 3)
    let (uprightWidth, uprightHeight) = orientation.uprightSize(width: width, height: height)
    for rows in [0..<1, 1..<3, 0..<3, 2..<3] {
      for columns in [0..<1, 1..<4, 4..<5, 0..<5] {
        var shown: [(x: Int, y: Int)] = []
        for y in 0..<uprightHeight {
          for x in 0..<uprightWidth {
            let stored = orientation.storedPixel(x: x, y: y, width: width, height: height)
            if rows.contains(stored.y) && columns.contains(stored.x) { shown.append((x, y)) }
          }
        }
        let upright = orientation.upright(
          rows: rows, columns: columns, width: width, height: height)
        let shownRows = (shown.map(\.y).min() ?? 0)..<((shown.map(\.y).max() ?? -1) + 1)
        let shownColumns = (shown.map(\.x).min() ?? 0)..<((shown.map(\.x).max() ?? -1) + 1)
        #expect(upright.rows == shownRows, "\(orientation) \(rows) \(columns)")
        #expect(upright.columns == shownColumns, "\(orientation) \(rows) \(columns)")
      }
    }
  }

  /// A canvas of noise (half of it translucent) and a copy with `changes` painted over.
  static func canvases(
    width: Int, height: Int, changes: [(x: Int, y: Int)]
  ) -> (before: [UInt8], after: [UInt8]) {
    var generator = SplitMix64(seed: 7)
    var before = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &generator)
    }
    for pixel in stride(from: 3, to: before.count, by: 8) { before[pixel] = 255 }
    var after = before
    for change in changes {
      let pixel = (change.y * width + change.x) * 4
      after[pixel] ^= 0x5A
      after[pixel + 3] = 255 - after[pixel + 3]
    }
    return (before, after)
  }

  static func resizedRows(
    _ canvas: [UInt8], width: Int, crop: CropSquare, side: Int, skipping: Range<Int>? = nil
  ) throws -> (rows: [[UInt8]], readAll: Bool) {
    try canvas.withUnsafeBufferPointer { pixels in
      let picture = TurnedCanvas(pixels, storedWidth: width, orientation: .up, metadata: .init())
      let resized = ResizedDecoder(picture, crop: crop, side: side)
      var rows: [[UInt8]] = []
      var row = [UInt8](repeating: 0, count: side * 4)
      let drawn = skipping ?? 0..<side
      try resized.skip(to: drawn.lowerBound)
      for _ in drawn {
        try row.withUnsafeMutableBufferPointer { try resized.readRow(into: $0) }
        rows.append(row)
      }
      try resized.skip(to: side)
      return (rows, resized.hasReadEverySourceRow)
    }
  }

  /// Changing pixels changes no output row outside the rows the resize says they reach,
  /// and a resize that skips to a row makes the rows from it as reading every row does,
  /// leaving the source where reading every row does: shrinking, at the crop's size and
  /// enlarging, for crops at the edges and inside.
  @Test(arguments: [
    (CropSquare(left: 0, top: 0, side: 47), 20), (CropSquare(left: 14, top: 0, side: 47), 47),
    (CropSquare(left: 5, top: 0, side: 40), 90), (CropSquare(left: 0, top: 7, side: 40), 13),
  ])
  func onlyTheRowsAChangeReachesChange(crop: CropSquare, side: Int) throws {
    let (width, height) = (61, 47)
    let places: [[(x: Int, y: Int)]] = [
      [(0, 0)], [(30, 20)], [(60, 46)], [(3, 5), (50, 9)], [(20, 44)], [(60, 10)],
    ]
    for changes in places {
      let (before, after) = Self.canvases(width: width, height: height, changes: changes)
      let old = try Self.resizedRows(before, width: width, crop: crop, side: side).rows
      let new = try Self.resizedRows(after, width: width, crop: crop, side: side)
      let reach = try after.withUnsafeBufferPointer { pixels in
        let picture = TurnedCanvas(pixels, storedWidth: width, orientation: .up, metadata: .init())
        return ResizedDecoder(picture, crop: crop, side: side).outputRows(
          reachedBy: changes.map(\.y).min()!..<(changes.map(\.y).max()! + 1),
          columns: changes.map(\.x).min()!..<(changes.map(\.x).max()! + 1))
      }
      let changed = (0..<side).filter { old[$0] != new.rows[$0] }
      #expect(changed.allSatisfy(reach.contains), "\(changes) \(crop) → \(side): \(reach)")
      if !changed.isEmpty {
        let skipped = try Self.resizedRows(
          after, width: width, crop: crop, side: side, skipping: reach)
        #expect(skipped.rows == Array(new.rows[reach]), "\(changes) \(crop) → \(side)")
        #expect(skipped.readAll == new.readAll)
      }
    }
  }

  /// Every pixel that differs from the frame before lies in the rectangle the reader says
  /// changed, in every GIF and APNG fixture (disposal to background and to previous, frames
  /// outside the canvas, blending); the first frame's is the whole canvas.
  @Test(arguments: animations.filter { !$0.hasSuffix(".webp") })
  func theChangedRectangleHoldsEveryChangedPixel(_ name: String) throws {
    let bytes = try Fixtures.bytes("animation/\(name)")
    try withBytesFile(bytes) { file in
      let opened: (any FrameSource)? =
        ImageFormat(sniffing: bytes) == .gif
        ? try? GIFFrames(
          file: file, maxPixels: 1 << 24, maxFrames: 1000, maxTotalPixels: 1 << 30, memory: nil)
        : try? APNGFrames(
          file: file, signatureBytes: 0, maxPixels: 1 << 24, maxFrames: 1000, memory: nil)
      guard let frames = opened else { return }  // damaged on purpose
      var previous: [UInt8]?
      while let frame = try? frames.nextFrame() {
        let canvas = Array(frame.canvas)
        let changed = try #require(frame.changed, "\(name) frame \(frame.index)")
        if let previous {
          for pixel in 0..<(canvas.count / 4)
          where canvas[pixel * 4..<pixel * 4 + 4] != previous[pixel * 4..<pixel * 4 + 4] {
            let (x, y) = (pixel % frames.canvasWidth, pixel / frames.canvasWidth)
            #expect(
              changed.rowRange.contains(y) && changed.columnRange.contains(x),
              "\(name) frame \(frame.index): (\(x), \(y)) outside \(changed)")
          }
        } else {
          #expect(changed.rowRange == 0..<frames.canvasHeight)
          #expect(changed.columnRange == 0..<frames.canvasWidth)
        }
        previous = canvas
      }
    }
  }

  /// Each frame of every animation fixture, rendered as an animation (each output drawing
  /// only what changed) and as a still of that frame (drawn whole): the same pixels, at a
  /// shrinking size, an enlarging one, and both at once.
  @Test(arguments: animations)
  func everyFrameIsTheStillOfThatFrame(_ name: String) throws {
    let bytes = try Fixtures.bytes("animation/\(name)")
    var output = HexMask.Output()
    output.kind = .png(.init())
    guard let animated = try? HexMask.render(bytes, sizes: [19, 150], output: output),
      animated[0].animation != nil
    else { return }  // a still, or damaged on purpose
    for (size, rendered) in zip([19, 150], animated) {
      let frames = try AnimatedRenderTests.frames(of: rendered.bytes)
      for index in frames.canvases.indices {
        var input = HexMask.Input()
        input.frame = index
        output.size = size
        let still = try HexMask.render(bytes, output: output, input: input)
        #expect(
          try decodePNG(still.bytes).image.pixels == frames.canvases[index],
          "\(name) at \(size), frame \(index)")
      }
    }
  }
}
