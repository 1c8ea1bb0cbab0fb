#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HexMask {
  /// The largest upright decode (in pixels) kept whole in memory so that one decode serves
  /// both the look and the render: 4 MP, 16 MiB. A phone photo for an avatar decodes at
  /// 1/4 (1008 × 756) and stays under it; a larger output decodes again instead.
  static let decodeOnceLimit = 4 << 20

  /// Looks at a small copy of the picture in `source` and decides where the square of a
  /// crop that depends on it (``CropChoice/faces(_:)``, ``CropChoice/attention``) goes, with
  /// the faces found (nil for attention). Where one decode serves both the look and the
  /// render, it is returned as `picture`, upright, to render from; otherwise `picture` is
  /// nil and `source` is back where it was, to decode again.
  ///
  /// One decode serves both when the outputs are no larger than the look's need and its
  /// decode is small enough to keep (``decodeOnceLimit``), or is a picture its decoder
  /// holds whole anyway (HEIF, WebP); and the look's decode serves the render when it
  /// equals the render's (``servesRender(_:need:)``). Otherwise a large picture is
  /// decoded twice, because the square must be known before the render's first row and
  /// the look needs the whole picture: keeping a large decode whole until the look is done
  /// would make memory follow the area instead of the width. A JPEG's extra decode is the
  /// look's small one (1/4 of a phone photo), a PNG's a full one (PNG cannot shrink on load); a HEIF's or
  /// WebP's look may use a thumbnail or libwebp's scaling the render's decode does not, so
  /// taking the look from the render's decode there could move the square.
  static func lookAndChoose(
    _ source: CFile, need: PictureNeed, crop: CropChoice, shape: Shape, input: Input
  ) throws(ImageError) -> (decision: CropDecision, faces: [Face]?, picture: (any ImageDecoder)?) {
    let start = ftello(source)
    func rewind() throws(ImageError) { try HexMask.rewind(source, to: start) }
    // The look is always made from the look's own decode, whatever the outputs' sizes, so
    // a picture gets the same square at every output size, and again on a rerun with other
    // sizes (a 1/2 decode averaged down finds slightly other boxes than a 1/4 one). Outputs
    // no larger than the look's need (avatars) render from that very decode, kept when
    // small; its decoder (and the memory it reserved) is gone before a second decode
    // reserves any. Larger outputs decode again for the render.
    var whole = need
    whole.square = nil
    whole.scalesWhole = true
    whole.largestSide = Look.need.largestSide
    if let largest = need.largestSide, let lookSide = Look.need.largestSide, largest <= lookSide,
      let kept = try keepWhole(source, need: whole, input: input)
    {
      let look = Look(
        picture: try SmallPicture(averaging: kept.view(), longSide: Look.longSide),
        width: kept.width, height: kept.height)
      let chosen = choose(look, crop: crop, shape: shape)
      return (chosen.decision, chosen.faces, kept.view())
    }
    // Too large to keep: a small decode of its own to look at, then the render's, unless
    // the look's decode is the render's picture already.
    try rewind()
    let lookDecode = try openDecoder(
      file: source, maxPixels: input.maxPixels, need: Look.need, memory: input.memoryBudget,
      autoOrient: input.autoOrient, frames: FrameChoice(input))
    let look = try Look(stored: lookDecode, autoOrient: input.autoOrient)
    let chosen = choose(look, crop: crop, shape: shape)
    if let again = servesRender(lookDecode, need: need) {
      return (chosen.decision, chosen.faces, again)
    }
    try rewind()
    return (chosen.decision, chosen.faces, nil)
  }

  /// The look's decode again, from its first row, when it gives the render exactly what
  /// the render's own decode for `need` would; nil otherwise. That is when the look's
  /// decoder held the whole picture at its stored size (a HEIF without a thumbnail large
  /// enough for the look, a WebP too small to scale) and the render would not decode
  /// smaller (its largest side is no smaller than the look's): then a HEIF's render finds
  /// no thumbnail either, and a WebP's window would be unscaled, cut from the same pixels
  /// with a margin the resizer never reaches past (``DecodeWindow``).
  private static func servesRender(_ decoded: any ImageDecoder, need: PictureNeed)
    -> (any ImageDecoder)?
  {
    guard let whole = decoded as? WholePicture, isWholeAtStoredSize(whole),
      let lookSide = Look.need.largestSide, need.largestSide.map({ $0 >= lookSide }) ?? true
    else { return nil }
    return whole.rewound()
  }

  /// The upright picture `source` decodes to for `need`, when it is small enough to keep
  /// (``decodeOnceLimit``) and no smaller than a look would be (otherwise a small output
  /// would find fewer faces than a large one); nil otherwise. `view` makes a decoder of
  /// it, and `width` × `height` is the full upright size it stands for.
  private static func keepWhole(_ source: CFile, need: PictureNeed, input: Input)
    throws(ImageError) -> (view: () -> WholePicture, width: Int, height: Int)?
  {
    let opened = try openDecoder(
      file: source, maxPixels: input.maxPixels, need: need, memory: input.memoryBudget,
      autoOrient: input.autoOrient, frames: FrameChoice(input))
    let orientation = opened.metadata.orientation(autoOrient: input.autoOrient)
    let upright = openOriented(opened, orientation: orientation)
    let (fullWidth, fullHeight) = opened.uprightStoredSize(orientation)
    let longEnough =
      max(upright.width, upright.height) >= min(Look.smallestDecode, max(fullWidth, fullHeight))
    if let whole = opened as? WholePicture, orientation == .up, servesLook(whole, need: need) {
      return ({ whole.rewound() }, fullWidth, fullHeight)
    }
    let (pixels, overflow) = upright.width.multipliedReportingOverflow(by: upright.height)
    guard longEnough, !overflow, pixels <= decodeOnceLimit,
      let buffer = PixelBuffer(zeroedCount: pixels * 4)
    else { return nil }
    var row = [UInt8](repeating: 0, count: upright.width * 4)
    for y in 0..<upright.height {
      try upright.readRow(into: &row)
      let base = y * upright.width * 4
      _ = UnsafeMutableBufferPointer(rebasing: buffer.bytes[base..<(base + row.count)])
        .update(fromContentsOf: row)
    }
    // Upright now: the render must not turn it again, and the crop it reports is in
    // upright pixels.
    var metadata = opened.metadata
    metadata.isUpright = true
    (metadata.storedWidth, metadata.storedHeight) = (fullWidth, fullHeight)
    let (width, height, warnings, isOpaque) =
      (upright.width, upright.height, upright.warnings, opened.isOpaque)
    return (
      {
        WholePicture(
          width: width, height: height, pixels: buffer, metadata: metadata,
          warnings: warnings, isOpaque: isOpaque)
      }, fullWidth, fullHeight
    )
  }

  /// True when `whole`, the render's decode for `need`, is what the look's own decode
  /// would be, so it serves both however large it is: the whole picture at its stored size,
  /// held whole in memory anyway (a HEIF, a WebP), and the render no larger than the look
  /// (at most its largest side), so the look would find no thumbnail or scaling the render
  /// did not. Larger renders decode for the look apart (``servesRender(_:need:)``).
  private static func servesLook(_ whole: WholePicture, need: PictureNeed) -> Bool {
    guard let side = need.largestSide, let lookSide = Look.need.largestSide else { return false }
    return isWholeAtStoredSize(whole) && side <= lookSide
  }

  /// True when `whole` is the whole picture at its stored size: no thumbnail, no scaling,
  /// no window.
  private static func isWholeAtStoredSize(_ whole: WholePicture) -> Bool {
    whole.chosenSquare == nil && whole.width == whole.metadata.storedWidth
      && whole.height == whole.metadata.storedHeight
  }

  /// The square `crop` picks in `look`, as a focus, and the faces it found (in input pixels).
  /// Where it found faces, the decision carries them too (``CropDecision/faces(x:y:found:)``),
  /// so that a framing (``Output/faceSize``) can cut around them.
  static func choose(_ look: Look, crop: CropChoice, shape: Shape) -> (
    decision: CropDecision, faces: [Face]?
  ) {
    var faces: [Face]? = nil
    var square: CropSquare? = nil
    if case .faces(let model) = crop {
      let found = model.faces(in: look.picture)
      if !found.isEmpty {
        square = look.picture.faceSquare(
          found.map { PixelBox(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
          sides: shape.sides, rotation: shape.drawnRotation)
      }
      faces = found.map { face in
        let box = look.inInput(
          PixelBox(x: face.x, y: face.y, width: face.width, height: face.height))
        return Face(
          x: box.x, y: box.y, width: box.width, height: box.height, isPet: face.isPet)
      }
    }
    // Attention is the crop itself, or what faces fall back to where none were found.
    let focus = look.focus(of: square ?? look.picture.attentionSquare())
    if square != nil, let faces {
      let found = CropDecision.FoundFaces(faces: faces, width: look.width, height: look.height)
      return (.faces(x: focus.x, y: focus.y, found: found), faces)
    }
    return (.focus(x: focus.x, y: focus.y), faces)
  }

  /// The square the render shows, in upright input pixels: the decision applied to the
  /// full upright size (the render applied it to the size it decoded at).
  static func cropInInput(
    stored: any ImageDecoder, orientation: Orientation, decision: CropDecision
  ) -> Crop {
    let (width, height) = stored.uprightStoredSize(orientation)
    let square = decision.square(width: width, height: height)
    return Crop(x: square.left, y: square.top, side: square.side)
  }

  /// Puts `file` back at `start` (where ``ftello`` said it was) to decode it again.
  static func rewind(_ file: CFile, to start: off_t) throws(ImageError) {
    clearerr(file)
    guard start >= 0, fseeko(file, start, SEEK_SET) == 0 else {
      throw ImageError(.unreadable, "cannot read the input again: \(systemError())")
    }
  }

  /// True when `file` can be read again from where it is (a file, bytes in memory), not a
  /// pipe.
  static func isSeekable(_ file: CFile) -> Bool {
    let here = ftello(file)
    return here >= 0 && fseeko(file, here, SEEK_SET) == 0
  }
}

extension HexMask {
  /// ``readingBytes(_:_:)`` for the pipeline with several outputs, whose failures say
  /// which output they are about.
  static func readingBytes<T>(
    targeted bytes: [UInt8], _ body: (CFile) throws(TargetedError) -> T
  ) throws(TargetedError) -> T {
    var targeted: TargetedError?
    do throws(Error) {
      return try readingBytes(bytes) { file throws(Error) -> T in
        do throws(TargetedError) {
          return try body(file)
        } catch {
          targeted = error
          throw error.error
        }
      }
    } catch {
      throw targeted ?? TargetedError(error: error, target: nil)
    }
  }
}
