import Foundation
import TestSupport
import Testing

@testable import HexMask

/// The look sees one picture whatever the container: the same pixels as a PNG, an
/// interlaced PNG and a lossless WebP get the same square from `--gravity attention`, and
/// outputs that agree to within half a level on average.
@Suite struct ContainerLookTests {
  /// A picture large enough that decoders may scale it for the look (its short side over
  /// four times the look's decode), with one bright, busy patch off-centre for the
  /// attention crop to find.
  static let side = (width: 1600, height: 1280)
  static let pixels: [UInt8] = {
    var generator = SplitMix64(state: 41)
    var rgba = [UInt8](repeating: 0, count: side.width * side.height * 4)
    for y in 0..<side.height {
      for x in 0..<side.width {
        let p = (y * side.width + x) * 4
        let inPatch = (1150..<1450).contains(x) && (300..<600).contains(y)
        let noise = UInt8.random(in: 0...255, using: &generator)
        rgba[p] = inPatch ? noise : UInt8(truncatingIfNeeded: 40 + x / 40)
        rgba[p + 1] = inPatch ? 255 - noise : UInt8(truncatingIfNeeded: 60 + y / 40)
        rgba[p + 2] = inPatch ? noise / 2 : 90
        rgba[p + 3] = 255
      }
    }
    return rgba
  }()

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
        "lossless WebP",
        {
          try file { file in
            try rows(WebPWriter(file: file, width: side.width, height: side.height, lossless: true))
          }
        }
      ),
    ]
  }

  @Test func theSamePixelsGetTheSameSquareInEveryContainer() throws {
    var output = HexMask.Output()
    output.size = 128
    output.crop = .attention
    var crops: [HexMask.Crop?] = []
    var renders: [DecodedImage] = []
    for container in Self.containers {
      let rendered = try HexMask.render(container.bytes(), output: output)
      crops.append(rendered.crop)
      renders.append(try decodePNG(rendered.bytes).image)
    }
    #expect(Set(crops.map { $0.map { "\($0)" } ?? "none" }).count == 1, "\(crops)")
    // The attention square is off-centre, on the busy patch: the look did look.
    #expect((crops.first??.x ?? 0) > (Self.side.width - Self.side.height) / 2)
    for render in renders.dropFirst() {
      #expect(render.meanSampleDifference(from: renders[0]) <= 0.5)
    }
  }
}
