/// ``HexMask/CropChoice/attention``: where the interest of a picture is, with no model.
extension SmallPicture {
  /// The square (side `min(width, height)`, in this picture's pixels) with the most
  /// interest: edges, saturated colour and skin tones. Only one of `left` and `top`
  /// can be other than 0.
  package func attentionSquare() -> CropSquare {
    // Placeholder until the heuristic lands: the centre square.
    CropSquare(imageWidth: width, imageHeight: height, gravity: .center)
  }
}
