import TestSupport
import Testing

@testable import HexMask

/// A decoder of one gray picture whose warnings, metadata and opacity are set by the test.
private final class LabelledDecoder: ImageDecoder {
  let width = 6
  let height = 4
  var warnings: [Warning]
  let metadata: ImageMetadata
  let isOpaque: Bool
  private var rowsRead = 0

  init(warnings: [Warning], metadata: ImageMetadata, isOpaque: Bool) {
    self.warnings = warnings
    self.metadata = metadata
    self.isOpaque = isOpaque
  }

  func readRow(into row: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
    try checkRead(of: row, index: rowsRead)
    rowsRead += 1
    for index in row.indices { row[index] = 128 }
  }
}

@Suite struct WrappingDecoderTests {
  /// Turning and resizing report what their source reports, read through the concrete
  /// types (as `render` does) and through `any ImageDecoder`, and warnings the source
  /// adds later show at once.
  @Test(arguments: [true, false])
  func wrappersReportTheirSourcesWarningsMetadataAndOpacity(opaque: Bool) throws {
    let (first, second) = (Warning(.damagedInput, "first"), Warning(.encoder, "second"))
    let metadata = ImageMetadata(
      exif: [0x4D, 0x4D, 0, 42], iccProfile: [1, 2, 3],
      warnings: [Warning(.metadataDropped, "profile dropped")])
    let source = LabelledDecoder(warnings: [first], metadata: metadata, isOpaque: opaque)
    let upright = OrientedDecoder(source, orientation: .left)
    let square = ResizedDecoder(upright, crop: CropSquare(left: 0, top: 1, side: 4), side: 3)
    #expect(upright.source === source && square.source === upright)
    #expect(upright.isOpaque == opaque && square.isOpaque == opaque)
    #expect(upright.metadata == metadata && square.metadata == metadata)
    for decoder in [upright, square] as [any ImageDecoder] {
      #expect(decoder.isOpaque == opaque)
      #expect(decoder.metadata == metadata)
      #expect(decoder.warnings == [first])
    }
    _ = try readPixels(square)
    source.warnings.append(second)
    #expect(upright.warnings == [first, second] && square.warnings == [first, second])
  }

  /// The same through real decoders: a JPEG stays opaque, a PNG is "maybe not".
  @Test(arguments: ["exif/Landscape_6.jpg", "icc/p3.png"])
  func realFilesKeepTheirOpacityAndMetadata(name: String) throws {
    try withFile(Fixtures.path(name)) { file in
      let source = try openDecoder(file: file, maxPixels: 1 << 28)
      let upright = OrientedDecoder(source, orientation: .right)
      let crop = CropSquare(imageWidth: upright.width, imageHeight: upright.height)
      let square = ResizedDecoder(upright, crop: crop, side: 16)
      #expect(source.isOpaque == name.hasSuffix(".jpg"))
      #expect(upright.isOpaque == source.isOpaque && square.isOpaque == source.isOpaque)
      #expect(upright.metadata == source.metadata && square.metadata == source.metadata)
      _ = try readPixels(square)
      #expect(square.warnings == source.warnings)
    }
  }
}
