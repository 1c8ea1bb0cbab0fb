import HexMask

/// What actually makes one output, written out so that two command lines that make the
/// same bytes give the same text: the text a ``RunRecord``'s digest is taken over.
///
/// Values are resolved for the output's canvas side and format before they are written, by
/// the library's own rules (``MaskShape``, ``HexMask/outputSide(size:upscale:squareSide:)``,
/// ``HexMask/Input/frameChoice(for:facts:)``): `--corner` and `--line` as the pixels the shape
/// uses (so `--corner 10 --line 5` given explicitly equals the defaults wherever they fit),
/// the rotation as the shape is drawn (``HexMask/Shape/drawnRotation``: on a hexagon `450`,
/// `30` and `-270` are `90`), `--focus 0.5,0.5` as the centre square it picks, the seed layout's
/// crop as its top-left square whatever `--gravity` or `--focus` say. Options that cannot
/// change this output are left out: `--quality` unless JPEG or lossy WebP or AVIF,
/// `--lossless` unless WebP or AVIF, `--compression` unless PNG, `--no-upscale` without `--size`, the picture's
/// options for a mask (`--face-size` too, and with the seed layout, and `--frame`: every
/// frame has the same mask), `--frame 0` on an output that cannot move (its first frame
/// anyway), the border colour without a border, `--max-pixels` and `--max-frames` (limits:
/// an output that was written was within them) and the thread count.
///
/// Each line is `key value` in a fixed order with fixed spellings (numbers in decimal,
/// `Double`s as their bit patterns), never a type's `description`, which a new toolchain
/// or library version may print differently.
///
/// ```swift
/// effectiveRecipe(of: RenderSettings(), side: 427, format: .png)
/// // "format png\nside 427\nsize own\nsides 6\nline 4014000000000000\n…"
/// ```
///
/// With the facts of the `picture` it is made from (kept in its record), the recipe is exact
/// for that picture: the side is the one the options give it, and a `--size` equal to its
/// own side is its own size; `--strip` without a profile, `--no-rotate` without an EXIF
/// turn, `--strict` on a picture read whole without a warning, `--frame 0` on a still, and a
/// `--gravity` or `--focus` along an axis the picture is not longer in (y on a landscape,
/// both on a square) change nothing and are left out. With `--face-size` the side is the output's
/// own (the framed square's depends on the faces) and `--size` is kept as given.
func effectiveRecipe(
  of settings: RenderSettings, side: Int, format: OutputFormat,
  picture: HexMask.PictureFacts? = nil
) -> String {
  var lines: [String] = []
  func add(_ key: String, _ value: String) { lines.append("\(key) \(value)") }
  let output = settings.output
  // The kind as the library's rule makes it: what it leaves unused is left out. A
  // contradiction is refused before any output is made, so its recipe is never recorded.
  let kind = (try? settings.choices.kind(for: format).kind) ?? HexMask.Output.Kind(format)
  let mask = kind.isMask
  var side = side
  add("format", mask ? "mask" : format.rawValue)
  // A framed face's own side depends on the faces, not on the picture's facts: the side
  // is the one the output was made at (its record's), and `--size` counts as given.
  let framed = output.faceSize != nil && !mask && settings.shape.layout != .seed
  if let picture, !framed {
    let own = min(picture.width, picture.height)
    side = HexMask.outputSide(size: output.size, upscale: output.upscale, squareSide: own)
    add("side", String(side))
    add("size", side == own ? "own" : "scaled")
  } else {
    add("side", String(side))
    if let size = output.size {
      add("size", String(size))
      add("upscale", output.upscale ? "yes" : "no")
    } else {
      add("size", "own")
    }
  }
  add("sides", String(settings.shape.sides))
  add("layout", settings.shape.layout.rawValue)
  if let shape = try? MaskShape(settings.shape, canvasSide: side) {
    add("line", bits(shape.lineWidth))
    add("corner", bits(shape.polygon.cornerRadius))
    add("rotation", bits(shape.polygon.rotation))
    if shape.lineWidth > 0 && !mask { add("border", hex(settings.shape.borderColor)) }
  } else {
    // The render refuses these values at this side, so no output was made with them: any
    // stable text does, as long as it differs from every text of a shape that fits.
    let line = settings.shape.line.map(length) ?? "-"
    add("unfitting", "\(line) \(settings.shape.corner.map(length) ?? "-")")
  }
  func quality(_ quality: HexMask.Output.Quality) -> String {
    switch quality {
    case .lossy(let value): String(value)
    case .lossless: "lossless"
    }
  }
  func png(_ compression: HexMask.PNGCompression, _ palette: HexMask.Output.Palette?) {
    if let palette {
      // A palette PNG's rows are unfiltered: only the level it deflates at counts.
      add("compression", "palette \(compression.paletteLevel)")
      add("colors", String(palette.colors))
      if palette.dither { add("dither", "ordered") }
    } else {
      add("compression", "\(compression.filter) \(compression.level) \(compression.strategy)")
    }
  }
  switch kind {
  case .png(let settings): png(settings.compression, settings.palette)
  case .mask(let settings): png(settings.compression, settings.palette)
  case .jpeg(let settings): add("quality", String(settings.quality))
  case .webp(let settings): add("quality", quality(settings.quality))
  case .avif(let settings):
    add("quality", quality(settings.quality))
    add("effort", String(settings.effort(side: side)))
    // AV1 encoders make other bytes from version to version: a new libheif or libaom
    // rebuilds the AVIFs.
    add("encoder", AVIFWriter.encoderVersion ?? "none")
  case .jxl(let settings):
    add("quality", quality(settings.quality))
    // libjxl's efforts start at 1: 0 makes 1's bytes.
    add("effort", String(max(1, settings.effort ?? JXLWriter.defaultEffort)))
    // A new libjxl makes other bytes: it rebuilds the JPEG XLs.
    add("encoder", "libjxl \(jxlVersion)")
  }
  if !mask {
    // The seed layout always takes the top-left square, the one `--gravity northwest`
    // picks, so switching `--gravity` or `--focus` with it rebuilds nothing.
    add(
      "crop",
      settings.shape.layout == .seed
        ? "gravity northwest"
        : picture.map { crop(output.crop, on: $0, framed: framed) } ?? crop(output.crop))
    // Only with a face framed, so that the recipes of every other output stay as they were.
    if framed, let faceSize = output.faceSize { add("face-size", bits(faceSize)) }
    // JPEG has no transparency: without --background it is flattened onto white.
    add("background", kind.background.map(hex) ?? "none")
    if picture?.hasColorProfile ?? true {
      // "strip" alone was the profile dropped with the pixels unconverted: a stripped
      // output now converts first, so its records must not vouch for those.
      let colour = output.keepColorProfile ? output.colorSpace.rawValue : "strip srgb"
      add("profile", colour)
    }
    if picture?.isTurned ?? true { add("orient", settings.input.autoOrient ? "exif" : "stored") }
    // The frame as the library resolves it: only where it makes other bytes than no choice
    // (not frame 0 of a still, nor of an output that cannot move), so that the recipes of
    // every other output stay as they were.
    if let frame = settings.input.frameChoice(for: kind, facts: picture) {
      add("frame", String(frame))
    }
  }
  // Strict decoding writes the same bytes, but a rerun with --strict must still read the
  // inputs again to refuse the damaged ones: unless every row was read without a warning.
  if !(picture?.isClean ?? false) { add("strict", settings.input.strict ? "yes" : "no") }
  return lines.joined(separator: "\n") + "\n"
}

/// A `Double` by its bits, zero's sign dropped: exact, and the same on every machine.
private func bits(_ value: Double) -> String {
  String((value == 0 ? 0 : value).bitPattern, radix: 16)
}

private func length(_ length: HexMask.Length) -> String {
  switch length {
  case .pixels(let value): "\(bits(value))px"
  case .percent(let value): "\(bits(value))%"
  }
}

private func hex(_ color: RGBAColor) -> String {
  [color.red, color.green, color.blue, color.alpha].map { byte in
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
  }.joined()
}

/// The crop as the square it picks: `--focus 0.5,0.5` picks the centre square (``CropSquare``
/// rounds down so that it does), so it is written as `--gravity center`.
private func crop(_ crop: HexMask.CropChoice) -> String {
  switch crop {
  case .gravity(let gravity): "gravity \(gravity.rawValue)"
  case .focus(let x, let y) where x == 0.5 && y == 0.5: "gravity center"
  case .focus(let x, let y): "focus \(bits(x)) \(bits(y))"
  // The model's identity is in the recipe: another opencv-data rebuilds these outputs.
  case .faces(let model): "gravity face \(model.identity)"
  case .attention: "gravity attention"
  }
}

/// The crop as the square it picks on `picture`: only the axis the picture is longer in
/// can move the square (none on a square picture, whatever the crop, unless a face is
/// `framed` in a smaller square), so the other is left out. A gravity is its anchor on
/// that axis (`north` on a landscape is `center`), a focus its fraction, 0.5 being the
/// centre.
private func crop(_ choice: HexMask.CropChoice, on picture: HexMask.PictureFacts, framed: Bool)
  -> String
{
  guard picture.width != picture.height else {
    switch choice {
    case .gravity, .focus: return "whole"
    case .faces, .attention: return framed ? crop(choice) : "whole"
    }
  }
  let landscape = picture.width > picture.height
  switch choice {
  case .gravity(let gravity):
    let word = gravity.rawValue
    let (start, end) = landscape ? ("west", "east") : ("north", "south")
    return word.contains(start) ? "start" : word.contains(end) ? "end" : "middle"
  case .focus(let x, let y):
    let fraction = landscape ? x : y
    return fraction == 0.5 ? "middle" : "at \(bits(fraction))"
  case .faces, .attention: return crop(choice)
  }
}
