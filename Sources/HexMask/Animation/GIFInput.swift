import CGIF

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where giflib's reads come from: first the bytes the caller already took from the file
/// to sniff its format, then the FILE itself. Reading through a callback (giflib's
/// `DGifOpen`) rather than a file descriptor keeps stdin, pipes and `fmemopen` streams
/// working, and keeps the FILE's own buffer in charge.
final class GIFInput {
  private let file: CFile
  private let prefix: [UInt8]
  private var prefixUsed = 0
  /// The `errno` of a failed read: a read error, as opposed to a file that ends early.
  private(set) var readError: Int32?
  /// Bytes handed to giflib so far.
  private(set) var delivered = 0
  /// A read came back short without an error: the file ended. giflib then reports where
  /// it stopped in its own words ("no screen descriptor" for a file cut in its colour
  /// table), which would call a cut file corrupt.
  private(set) var reachedEnd = false
  /// The file ended exactly where a block would start (set by the block reader): it lacks
  /// its trailer, not part of a block.
  var endedBetweenBlocks = false
  /// Where a block should start, a byte that starts none: what follows is no GIF.
  var endedInJunk = false

  init(file: CFile, prefix: [UInt8]) {
    self.file = file
    self.prefix = prefix
  }

  /// Fills `buffer` with up to `count` bytes; fewer at the end of the file or on an error.
  func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
    var done = 0
    while done < count && prefixUsed < prefix.count {
      buffer[done] = prefix[prefixUsed]
      done += 1
      prefixUsed += 1
    }
    if done < count {
      done += fread(buffer + done, 1, count - done, file)
      if done < count && ferror(file) != 0 { readError = errno }
    }
    if done < count && readError == nil { reachedEnd = true }
    delivered += done
    return done
  }
}

/// giflib's read callback: `UserData` is the `GIFInput` the reader keeps alive.
let readGIFInput: InputFunc = { gif, buffer, count in
  guard let gif, let buffer, count > 0, let user = gif.pointee.UserData else { return 0 }
  let input = Unmanaged<GIFInput>.fromOpaque(user).takeUnretainedValue()
  return Int32(input.read(into: buffer, count: Int(count)))
}

extension ImageError {
  /// The error for giflib's error `code`, where `place` says where it happened ("in the
  /// header", "in frame 3"); `input` tells a read error from a file that ends early.
  static func gif(code: Int32, place: String, input: GIFInput) -> ImageError {
    if let errorNumber = input.readError {
      return ImageError(
        .unreadable, "read error \(place): \(userMessage(String(cString: strerror(errorNumber))))")
    }
    if input.reachedEnd && code != D_GIF_ERR_NOT_GIF_FILE {
      return ImageError(.corrupt, "truncated GIF: unexpected end of file \(place)")
    }
    switch code {
    case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON:
      return ImageError(.corrupt, "truncated GIF: unexpected end of file \(place)")
    case D_GIF_ERR_NOT_GIF_FILE:
      return ImageError(.corrupt, "not a GIF file: no GIF87a or GIF89a signature")
    case D_GIF_ERR_IMAGE_DEFECT:
      return ImageError(.corrupt, "corrupt GIF: bad LZW code \(place)")
    case D_GIF_ERR_DATA_TOO_BIG:
      return ImageError(.corrupt, "corrupt GIF: more pixels than the frame's size \(place)")
    case D_GIF_ERR_WRONG_RECORD:
      return ImageError(.corrupt, "corrupt GIF: unknown block type \(place)")
    case D_GIF_ERR_NOT_ENOUGH_MEM:
      return ImageError(.tooLarge, "out of memory \(place)")
    default:
      let text = GifErrorString(code).map { userMessage(String(cString: $0)) } ?? "error \(code)"
      return ImageError(.corrupt, "corrupt GIF: \(text) \(place)")
    }
  }
}
