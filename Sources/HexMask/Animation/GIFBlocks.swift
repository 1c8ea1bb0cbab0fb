import CGIF

/// Reads blocks up to the next frame's image descriptor and returns the frame's header;
/// nil at the trailer. Extensions on the way set `control` (for that frame) and
/// `loopCount`; the rest are skipped block by block, so a huge comment costs time in
/// proportion to its bytes, never memory.
///
/// An ICC profile (ImageMagick's ICCRGBG1012 extension) is skipped too: Chromium ignores
/// it (Fixtures/animation/icc-p3.gif decodes to the same pixels with and without its
/// colour conversion, while the same profile in a PNG changes them), so the GIF's pixels
/// are taken as sRGB, as a browser shows them.
func readHeader(
  _ gif: UnsafeMutablePointer<GifFileType>, input: GIFInput, global: GIFPalette,
  control: inout GIFControl, loopCount: inout Int, frame: Int
) throws(ImageError) -> GIFFrameHeader? {
  let place = frame == 0 ? "before the first frame" : "after frame \(frame - 1)"
  while true {
    var type = UNDEFINED_RECORD_TYPE
    let before = input.delivered
    if DGifGetRecordType(gif, &type) == GIF_ERROR {
      input.endedBetweenBlocks = input.delivered == before && input.readError == nil
      input.endedInJunk = gif.pointee.Error == D_GIF_ERR_WRONG_RECORD
      throw ImageError.gif(code: gif.pointee.Error, place: place, input: input)
    }
    switch type {
    case IMAGE_DESC_RECORD_TYPE:
      if DGifGetImageDesc(gif) == GIF_ERROR {
        throw ImageError.gif(code: gif.pointee.Error, place: "in frame \(frame)", input: input)
      }
      let image = gif.pointee.Image
      var header = GIFFrameHeader()
      header.left = Int(image.Left)
      header.top = Int(image.Top)
      header.width = Int(image.Width)
      header.height = Int(image.Height)
      header.interlaced = image.Interlace
      header.palette = image.ColorMap.map { GIFPalette($0) } ?? global
      header.control = control
      control = GIFControl()
      // giflib keeps a record of every frame's descriptor (for DGifSlurp): dropping it
      // keeps memory flat however many frames come.
      GifFreeSavedImages(gif)
      gif.pointee.SavedImages = nil
      gif.pointee.ImageCount = 0
      return header
    case EXTENSION_RECORD_TYPE:
      try readExtension(gif, input: input, control: &control, loopCount: &loopCount, place: place)
    case TERMINATE_RECORD_TYPE:
      return nil
    default:
      input.endedInJunk = true
      throw ImageError(.corrupt, "corrupt GIF: unknown block type \(place)")
    }
  }
}

private func readExtension(
  _ gif: UnsafeMutablePointer<GifFileType>, input: GIFInput, control: inout GIFControl,
  loopCount: inout Int, place: String
) throws(ImageError) {
  var code: Int32 = 0
  var block: UnsafeMutablePointer<GifByteType>?
  if DGifGetExtension(gif, &code, &block) == GIF_ERROR {
    throw ImageError.gif(code: gif.pointee.Error, place: place, input: input)
  }
  // giflib hands each data block with its length in byte 0.
  func data(_ block: UnsafeMutablePointer<GifByteType>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: block + 1, count: Int(block[0]))
  }
  func next() throws(ImageError) {
    if DGifGetExtensionNext(gif, &block) == GIF_ERROR {
      throw ImageError.gif(code: gif.pointee.Error, place: place, input: input)
    }
  }
  switch (code, block) {
  case (GRAPHICS_EXT_FUNC_CODE, let first?):
    guard let parsed = GIFControl(block: data(first)) else {
      throw ImageError(
        .corrupt, "corrupt GIF: a graphic control extension of \(first[0]) bytes \(place)")
    }
    control = parsed
    try next()
  case (APPLICATION_EXT_FUNC_CODE, let first?):
    let name = String(decoding: data(first), as: UTF8.self)
    try next()
    if name == "NETSCAPE2.0" || name == "ANIMEXTS1.0" {
      // Sub-block 1 is the loop count: N repeats after the first play, 0 forever.
      if let loop = block, loop[0] >= 3, loop[1] == 1 {
        let repeats = Int(loop[2]) | Int(loop[3]) << 8
        loopCount = repeats == 0 ? 0 : repeats + 1
      }
    }
  default:
    break
  }
  // The rest of the extension's blocks.
  while block != nil { try next() }
}
