import Foundation
import TestSupport
import Testing

@testable import HexMask

/// The render decides before it draws: where the square goes (``HexMask/CropDecision``),
/// and a smart crop's look decoded no more often than the format needs.
@Suite struct RenderPlanTests {
  /// Any face model: the decision does not run it.
  static var model: HexMask.FaceModel {
    get throws { try HexMask.FaceModel(faceCascades: [CascadeTests.tinyCascade()]) }
  }

  @Test(
    "a crop decides without a look exactly when it does not depend on the picture",
    arguments: try [
      (HexMask.Layout.centered, HexMask.CropChoice.gravity(.north), false, .gravity(.north)),
      (.centered, .focus(x: 0.25, y: 0.75), false, .focus(x: 0.25, y: 0.75)),
      (.centered, .attention, false, nil),
      (.centered, .faces(model), false, nil),
      // A mask shows no picture: the centre, as by default.
      (.centered, .attention, true, .gravity(.center)),
      (.centered, .faces(model), true, .gravity(.center)),
      // The seed layout always shows the top-left square, as UIKit's view bounds do.
      (.seed, .attention, false, .topLeft),
      (.seed, .gravity(.south), false, .topLeft),
    ] as [(HexMask.Layout, HexMask.CropChoice, Bool, HexMask.CropDecision?)])
  func decisionWithoutLook(
    layout: HexMask.Layout, crop: HexMask.CropChoice, maskOnly: Bool,
    expected: HexMask.CropDecision?
  ) {
    var shape = HexMask.Shape()
    shape.layout = layout
    var output = HexMask.Output()
    output.crop = crop
    if maskOnly { output.kind = .mask(.init()) }
    #expect(HexMask.CropDecision(shape: shape, output: output) == expected)
  }

  /// A 2100 × 2100 AVIF (4.4 MP, too large to keep for the look): libheif decodes it whole
  /// and it has no thumbnail, so the look's decode is the render's picture.
  static func largeAVIF() throws -> [UInt8] {
    var output = HexMask.Output()
    output.size = 2100
    output.kind = .avif(.init(quality: .lossy(30), effort: 0))
    var shape = HexMask.Shape()
    shape.line = .pixels(0)
    return try HexMask.render(
      try Fixtures.bytes("attention/coffee-160.png"), shape: shape, output: output
    )
    .bytes
  }

  /// 128: the render's decode serves the look (no thumbnail or scaling could make the
  /// look's smaller); 256: the look's decode serves the render.
  @Test("a large picture its decoder holds whole is looked at and rendered from one decode")
  func oneDecodeServesLookAndRender() throws {
    let avif = try Self.largeAVIF()
    for side in [128, 256] {
      let kept = try HexMask.readingBytes(avif) { file throws(HexMask.Error) in
        try HexMask.decoding { () throws(ImageError) in
          try HexMask.lookAndChoose(
            file, need: PictureNeed(largestSide: side, smallestSide: side), crop: .attention,
            shape: HexMask.Shape(), input: HexMask.Input()
          ).picture
        }
      }
      let picture = try #require(kept, "\(side)")
      #expect(picture.width == 2100 && picture.height == 2100)

      // And it renders what a fresh decode for the square chosen renders.
      var output = HexMask.Output()
      output.size = side
      output.crop = .attention
      let looked = try HexMask.render(avif, output: output)
      let crop = try #require(looked.crop)
      output.crop = .focus(
        x: (Double(crop.x) + Double(crop.side) / 2) / 2100,
        y: (Double(crop.y) + Double(crop.side) / 2) / 2100)
      let fresh = try HexMask.render(avif, output: output)
      #expect(fresh.crop == looked.crop)
      #expect(fresh.bytes == looked.bytes, "\(side)")
    }
  }

  @Test("a large picture decoded row by row is not kept: its look is a decode of its own")
  func streamedPictureIsNotKept() throws {
    var output = HexMask.Output()
    output.size = 2100
    output.kind = .png(.init())
    var shape = HexMask.Shape()
    shape.line = .pixels(0)
    let png = try HexMask.render(
      try Fixtures.bytes("attention/coffee-160.png"), shape: shape, output: output
    ).bytes
    let kept = try HexMask.readingBytes(png) { file throws(HexMask.Error) in
      try HexMask.decoding { () throws(ImageError) in
        try HexMask.lookAndChoose(
          file, need: PictureNeed(largestSide: 256, smallestSide: 256), crop: .attention,
          shape: HexMask.Shape(), input: HexMask.Input()
        ).picture
      }
    }
    #expect(kept == nil)
  }
}
