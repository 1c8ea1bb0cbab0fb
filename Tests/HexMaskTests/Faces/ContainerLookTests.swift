import Foundation
import TestSupport
import Testing

@testable import HexMask

/// The look sees one picture whatever the container: the same pixels as a PNG, an
/// interlaced PNG, a GIF, an APNG, a lossless WebP and a lossless AVIF get the same square
/// from `--gravity attention`, and outputs that agree to within half a level on average.
@Suite struct ContainerLookTests {
  /// A picture large enough that decoders may scale it for the look (its short side over
  /// four times the look's decode), with one bright, busy patch off-centre for the
  /// attention crop to find. 256 colours at most, so a GIF holds it exactly.
  static let side = (width: 1600, height: 1280)
  static let palette: [UInt8] = {
    var generator = SplitMix64(state: 7)
    var rgb: [UInt8] = []
    for index in 0..<256 {
      if index < 128 {
        rgb += [UInt8(40 + (index % 16) * 8), UInt8(60 + (index / 16) * 12), 90]
      } else {
        let noise = UInt8.random(in: 0...255, using: &generator)
        rgb += [noise, 255 - noise, noise / 2]
      }
    }
    return rgb
  }()
  static let indices: [UInt8] = {
    var generator = SplitMix64(state: 41)
    var indices = [UInt8](repeating: 0, count: side.width * side.height)
    for y in 0..<side.height {
      for x in 0..<side.width {
        let inPatch = (1150..<1450).contains(x) && (300..<600).contains(y)
        indices[y * side.width + x] =
          inPatch ? UInt8.random(in: 128...255, using: &generator) : UInt8(x / 100 + 16 * (y / 160))
      }
    }
    return indices
  }()
  static let pixels: [UInt8] = indices.flatMap { index in
    palette[(Int(index) * 3)..<(Int(index) * 3 + 3)] + [255]
  }

  /// `pixels` written by `write` into a memory stream.
  static func file(_ write: (CFile) throws -> Void) throws -> [UInt8] {
    try withTemporaryFolder { url in
      let path = url.path + "/picture"
      try withFile(path, mode: "wb") { file in try write(file) }
      return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
  }

  static func rows(_ writer: any ImageWriter) throws {
    let rowBytes = side.width * 4
    for y in 0..<side.height {
      try pixels[(y * rowBytes)..<((y + 1) * rowBytes)].withUnsafeBufferPointer {
        try writer.writeRow($0)
      }
    }
    try writer.finish()
  }

  static var containers: [(name: String, bytes: () throws -> [UInt8])] {
    [
      (
        "PNG",
        {
          try file { file in
            try rows(PNGStreamEncoder(file: file, width: side.width, height: side.height))
          }
        }
      ),
      (
        "interlaced PNG",
        { ContainerFiles.interlacedPNG(pixels, width: side.width, height: side.height) }
      ),
      (
        "GIF",
        {
          ContainerFiles.gif(
            indices: indices, palette: palette, width: side.width, height: side.height)
        }
      ),
      ("APNG", { try apngBytes([pixels, pixels], width: side.width, height: side.height) }),
      (
        "lossless WebP",
        {
          try file { file in
            try rows(WebPWriter(file: file, width: side.width, height: side.height, lossless: true))
          }
        }
      ),
      (
        "lossless AVIF",
        {
          try file { file in
            try rows(
              AVIFWriter(
                file: file, width: side.width, height: side.height, lossless: true, effort: 0))
          }
        }
      ),
    ]
  }

  @Test func theSamePixelsGetTheSameSquareInEveryContainer() throws {
    var output = HexMask.Output()
    output.size = 128
    output.crop = .attention
    var input = HexMask.Input()
    input.frame = 0  // the APNG's first frame, a still like the others
    var crops: [HexMask.Crop?] = []
    var renders: [DecodedImage] = []
    for container in Self.containers {
      let rendered = try HexMask.render(container.bytes(), output: output, input: input)
      crops.append(rendered.crop)
      renders.append(try decodePNG(rendered.bytes).image)
    }
    #expect(Set(crops.map { $0.map { "\($0)" } ?? "none" }).count == 1, "\(crops)")
    #expect(crops.count == Self.containers.count)
    // The attention square is off-centre, on the busy patch: the look did look.
    #expect((crops.first??.x ?? 0) > (Self.side.width - Self.side.height) / 2)
    for (index, render) in renders.enumerated().dropFirst() {
      #expect(
        render.meanSampleDifference(from: renders[0]) <= 0.5, "\(Self.containers[index].name)")
    }
  }
}
