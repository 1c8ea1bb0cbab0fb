import CGIF

/// What a GIF says about one frame before its pixels: where it goes, its colours, and what
/// its Graphics Control Extension asks for.
struct GIFFrameHeader {
  /// The frame's rectangle on the canvas as stored (it may reach past the canvas).
  var left = 0
  var top = 0
  var width = 0
  var height = 0
  var interlaced = false
  /// The colours of indices 0…255 as straight RGBA8 (the local table, else the global
  /// one). Indices past the table's end are opaque black, as in Chromium's decoder (Wuffs).
  var palette = GIFPalette()
  var control = GIFControl()
}

/// A Graphics Control Extension: it applies to the next frame only.
struct GIFControl {
  /// The palette index drawn as "leave the canvas as it is".
  var transparentIndex: Int?
  var disposal = GIFDisposal.none
  /// The delay as stored, in hundredths of a second.
  var delayCentiseconds = 0

  /// Parses the extension's one data block: 4 bytes (flags, delay, transparent index);
  /// Chromium refuses a file whose block has any other size, and so does hexmask.
  init?(block: UnsafeBufferPointer<UInt8>) {
    guard block.count == 4 else { return nil }
    let flags = block[0]
    transparentIndex = flags & 1 != 0 ? Int(block[3]) : nil
    disposal = GIFDisposal(code: Int(flags >> 2) & 7)
    delayCentiseconds = Int(block[1]) | Int(block[2]) << 8
  }

  init() {}

  /// The delay as browsers play it (``shownMilliseconds(stored:)``): GIF's 0 and 1
  /// centiseconds are both 100 ms.
  var delayMilliseconds: Int { shownMilliseconds(stored: delayCentiseconds * 10) }
}

/// What happens to a frame's rectangle before the next frame is drawn.
enum GIFDisposal: Equatable {
  /// 0 (unspecified) and 1 (do not dispose): the frame stays.
  case none
  /// 2: the rectangle is cleared. Browsers clear it to transparent, ignoring the
  /// background colour index, and so does hexmask.
  case background
  /// 3: the canvas goes back to what it was before the frame was drawn. 4 is read as 3
  /// too, as Chromium's decoder (Wuffs) and Firefox do: some old encoders wrote it.
  case previous

  init(code: Int) {
    switch code {
    case 2: self = .background
    case 3, 4: self = .previous
    default: self = .none
    }
  }
}

/// 256 RGBA8 colours, indexed by a GIF's palette index.
struct GIFPalette {
  /// 1024 bytes: RGBA for each index.
  private(set) var rgba = [UInt8](repeating: 0, count: 1024)

  init() {
    for index in 0..<256 { rgba[index * 4 + 3] = 255 }
  }

  /// The palette of giflib's `map` (nil: no table, every index opaque black).
  init(_ map: UnsafeMutablePointer<ColorMapObject>?) {
    self.init()
    guard let map, let colours = map.pointee.Colors else { return }
    for index in 0..<min(max(Int(map.pointee.ColorCount), 0), 256) {
      let colour = colours[index]
      rgba[index * 4] = colour.Red
      rgba[index * 4 + 1] = colour.Green
      rgba[index * 4 + 2] = colour.Blue
    }
  }
}

/// The canvas row that the `stored`-th row of an interlaced frame of `height` rows goes
/// to: GIF stores rows 0, 8, 16, … then 4, 12, … then 2, 6, … then the odd ones.
package func interlacedRow(_ stored: Int, height: Int) -> Int {
  let passes = [(first: 0, step: 8), (first: 4, step: 8), (first: 2, step: 4), (first: 1, step: 2)]
  var rest = stored
  for pass in passes {
    let rows = pass.first < height ? (height - pass.first + pass.step - 1) / pass.step : 0
    if rest < rows { return pass.first + rest * pass.step }
    rest -= rows
  }
  return stored  // past the last row: the caller has already counted the rows
}

extension GIFDisposal {
  /// The same disposal on the canvas every frame reader shares.
  var onCanvas: FrameCanvas.Disposal {
    switch self {
    case .none: .none
    case .background: .background
    case .previous: .previous
    }
  }
}
