#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HexMask {
  /// Looks at a small copy of the picture in `source` and turns a crop that depends on
  /// the picture (``CropChoice/faces(_:)``, ``CropChoice/attention``) into the focus of the
  /// square it chooses, with the faces found (nil for attention). `source` is left where
  /// it was, for the render to read it again.
  static func chooseSquare(_ source: CFile, shape: Shape, output: Output, input: Input)
    throws(ImageError) -> (crop: CropChoice, faces: [Face]?)
  {
    let start = ftello(source)
    let look = try Look(
      file: source, maxPixels: input.maxPixels, autoOrient: input.autoOrient,
      memory: input.memoryBudget)
    clearerr(source)
    guard start >= 0, fseeko(source, start, SEEK_SET) == 0 else {
      throw ImageError(.unreadable, "cannot read the input again: \(systemError())")
    }
    var faces: [Face]? = nil
    var square = look.picture.attentionSquare()
    if case .faces(let model) = output.crop {
      let found = model.faces(in: look.picture)
      if !found.isEmpty {
        square = look.picture.faceSquare(
          found.map { PixelBox(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
          sides: shape.sides, rotation: shape.rotation)
      }
      faces = found.map { face in
        let box = look.inInput(
          PixelBox(x: face.x, y: face.y, width: face.width, height: face.height))
        return Face(
          x: box.x, y: box.y, width: box.width, height: box.height, isPet: face.isPet)
      }
    }
    let focus = look.focus(of: square)
    return (.focus(x: focus.x, y: focus.y), faces)
  }

  /// The square the render shows, in upright input pixels: the crop's own rule applied to
  /// the full upright size (the render applied it to the size it decoded at).
  static func cropInInput(
    stored: any ImageDecoder, orientation: Orientation, shape: Shape, crop: CropChoice
  ) -> Crop {
    let metadata = stored.metadata
    var (width, height) =
      metadata.storedWidth > 0
      ? (metadata.storedWidth, metadata.storedHeight) : (stored.width, stored.height)
    if orientation.swapsAxes { swap(&width, &height) }
    let square =
      shape.layout == .seed
      ? CropSquare(left: 0, top: 0, side: min(width, height))
      : crop.square(width: width, height: height)
    return Crop(x: square.left, y: square.top, side: square.side)
  }

  /// True when `file` can be read again from where it is (a file, bytes in memory), not a
  /// pipe.
  static func isSeekable(_ file: CFile) -> Bool {
    let here = ftello(file)
    return here >= 0 && fseeko(file, here, SEEK_SET) == 0
  }

  /// The rest of `file`, refused past what a picture within the pixel limit could take.
  static func readRest(of file: CFile, maxPixels: Int) throws(ImageError) -> [UInt8] {
    let limit =
      maxPixels.multipliedReportingOverflow(by: 4).overflow ? Int.max : maxPixels * 4 + (64 << 20)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      if count == 0 {
        if ferror(file) != 0 {
          throw ImageError(.unreadable, "read error: \(systemError())")
        }
        return bytes
      }
      bytes += chunk[..<count]
      if bytes.count > limit {
        throw ImageError(.tooLarge, "the file is larger than any picture within the pixel limit")
      }
    }
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
