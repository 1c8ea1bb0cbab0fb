// The values a render resolves its options to, for a caller that must tell two option sets
// that make the same bytes apart from two that do not (hexmask's rerun records) without
// restating the render's rules. The plan (RenderPlan.swift) uses the same functions, so the
// two cannot drift apart. The shape's are ``MaskShape``'s own (its rotation is
// ``HexMask/Shape/drawnRotation``).

extension HexMask {
  /// The side of an output asked for as `size` (nil: the square's own) from a square of
  /// `squareSide` pixels: `size`, or the square's side where it is smaller and `upscale`
  /// is false.
  ///
  /// ```swift
  /// HexMask.outputSide(size: 512, upscale: false, squareSide: 427)   // 427
  /// ```
  package static func outputSide(size: Int?, upscale: Bool, squareSide: Int) -> Int {
    let side = size ?? squareSide
    return upscale ? side : min(side, squareSide)
  }
}

extension HexMask.Input {
  /// The frame choice as it acts on an output of `kind` made from a picture with `facts`
  /// (nil: nothing known of it): ``frame`` where it makes other bytes than no choice, nil
  /// where it makes the same. Frame 0 of a still is the still itself; frame 0 of an
  /// animation is what an output that cannot move (a JPEG, an AVIF, a palette PNG) shows
  /// anyway, while one that can (a WebP, an RGBA PNG) would move without the choice; a mask
  /// is the same for every frame. A later frame is always another picture (asked of a
  /// still, it is an error, and nothing is made).
  ///
  /// ```swift
  /// var input = HexMask.Input()
  /// input.frame = 0
  /// input.frameChoice(for: .png(.init()), facts: nil)   // 0: the picture may move
  /// ```
  package func frameChoice(for kind: HexMask.Output.Kind, facts: HexMask.PictureFacts?) -> Int? {
    guard let frame, !kind.isMask else { return nil }
    if frame > 0 { return frame }
    return kind.canMove && facts?.isStill != true ? frame : nil
  }
}

extension HexMask.Output.Kind {
  /// True for a mask: the shape's coverage, the same whatever the picture.
  package var isMask: Bool {
    if case .mask = self { true } else { false }
  }
}
