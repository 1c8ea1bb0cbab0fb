import Foundation
import HexMask

/// Writes `pixels` (rows of `width × channels` bytes) through the writer `make` opens on
/// `path`, and returns the writer's warnings.
@discardableResult
func writeImage(
  _ pixels: [UInt8], width: Int, height: Int, channels: Int = 4, to path: String,
  _ make: (CFile) throws -> any ImageWriter
) throws -> [String] {
  try withFile(path, mode: "wb") { file in
    let writer = try make(file)
    let rowBytes = width * channels
    for y in 0..<height {
      try pixels[y * rowBytes..<(y + 1) * rowBytes].withUnsafeBufferPointer {
        try writer.writeRow($0)
      }
    }
    try writer.finish()
    return writer.warnings.map(\.description)
  }
}

func fileBytes(_ path: String) throws -> [UInt8] {
  [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// A test picture of `width`×`height`: transparent 16×16 blocks in a checkerboard with
/// opaque blocks of smooth colour, and half-transparent ones on the diagonal.
func blockPicture(width: Int, height: Int) -> [UInt8] {
  var pixels = [UInt8](repeating: 0, count: width * height * 4)
  for y in 0..<height {
    for x in 0..<width {
      let p = 4 * (y * width + x)
      let (bx, by) = (x / 16, y / 16)
      guard (bx + by) % 2 == 0 else { continue }  // (0, 0, 0, 0)
      pixels[p] = UInt8(40 + (bx * 37) % 180)
      pixels[p + 1] = UInt8(60 + (by * 53) % 160)
      pixels[p + 2] = UInt8(200 - (bx * 11 + by * 7) % 150)
      pixels[p + 3] = bx == by ? 128 : 255
    }
  }
  return pixels
}
