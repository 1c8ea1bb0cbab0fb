// Framing a face (`Output.faceSize`): instead of the full-side
// square the faces crop slides along the long side, a smaller square cut around the face
// so that the face box spans a chosen share of its side, with the eyes at the same height
// in every avatar. docs/faces.md, "Frame the face", says the same for users.

extension HexMask {
  /// How a render with ``Output/faceSize`` framed its square, as ``Report/framing`` says.
  public enum Framing: String, Equatable, Hashable, Sendable, CaseIterable {
    /// One face, framed: the only face found, or the most prominent one (large and near
    /// the middle) where the faces together do not fit.
    case face
    /// Several faces, framed together: their union spans `faceSize` of the side.
    case group
    /// No face was found: the full-side square ``CropChoice/attention`` picks, as the faces
    /// crop without `faceSize` takes.
    case attention
  }
}

/// `HexMask.Framing` by its short name inside the package.
package typealias Framing = HexMask.Framing

/// The geometry of a framed face, in upright input pixels.
package enum FaceFraming {
  /// Where the eyes sit in a face box of OpenCV's frontal cascades, as a share of the box's
  /// height from its top. Measured with OpenCV's `haarcascade_eye.xml` inside the boxes
  /// `haarcascade_frontalface_alt2.xml` finds (scripts/eye_height.py): 0.359–0.389 (mean
  /// 0.374) on the 40 boxes of Fixtures/faces/detect (one person at 30–250 px), and
  /// 0.367–0.412 (mean 0.390) on six photographs of four people, three of them others.
  /// 0.38 lies between the two means; a few hundredths either way moves the eyes by about
  /// 1 % of a framed square's side at `faceSize` 0.4.
  package static let eyeHeight = 0.38
  /// Where the eyes go in the framed square, as a share of its side from its top: a
  /// portrait's rule of thumb, which leaves room below the face for the chin and neck and
  /// puts the face's centre near the middle of the shape.
  package static let eyeLine = 0.4
  /// How much less a face at a corner of the picture counts than the same face at its
  /// centre, when the most prominent face is chosen: half. Between, the weight falls in
  /// proportion to the distance from the centre.
  package static let cornerWeight = 0.5

  /// A face box, in upright input pixels.
  package struct Box: Equatable, Sendable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
      (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
  }

  /// A framed square, in upright input pixels, and how it was framed.
  package struct Frame: Equatable, Sendable {
    package var left: Double
    package var top: Double
    package var side: Double
    package var framing: Framing
  }

  /// The square framing `faces` in a `width × height` picture so that the face box spans
  /// `faceSize` (0 < faceSize ≤ 1) of its side; nil when there is no face (or no picture).
  ///
  /// - One face: the side is the face's width over `faceSize`, at most the picture's short
  ///   side; the square is centred on the face across, and its eyes (``eyeHeight`` of the
  ///   box) are at ``eyeLine`` of the side from the top.
  /// - Several faces: their union is framed as one face (its width or height, whichever is
  ///   larger, spans `faceSize`) when that square fits in the picture; otherwise the most
  ///   prominent face (``prominence(of:width:height:)``) alone.
  /// - The square is then slid inside the picture, never shrunk further.
  package static func frame(
    _ faces: [Box], width: Int, height: Int, faceSize: Double
  ) -> Frame? {
    guard !faces.isEmpty, width > 0, height > 0, faceSize > 0, faceSize <= 1 else { return nil }
    let short = Double(min(width, height))
    if faces.count > 1 {
      let left = faces.map(\.x).min() ?? 0
      let top = faces.map(\.y).min() ?? 0
      let right = faces.map { $0.x + $0.width }.max() ?? 0
      let bottom = faces.map { $0.y + $0.height }.max() ?? 0
      let union = Box(x: left, y: top, width: right - left, height: bottom - top)
      let side = max(union.width, union.height) / faceSize
      if side <= short {
        return place(union, side: side, width: width, height: height, framing: .group)
      }
    }
    var chosen = faces[0]
    var best = prominence(of: chosen, width: width, height: height)
    for face in faces.dropFirst() {
      let score = prominence(of: face, width: width, height: height)
      if score > best { (chosen, best) = (face, score) }
    }
    let side = min(max(chosen.width, 1) / faceSize, short)
    return place(chosen, side: side, width: width, height: height, framing: .face)
  }

  /// How prominent `face` is in a `width × height` picture: its area, times a weight of 1
  /// at the picture's centre falling in proportion to the distance to ``cornerWeight`` at a
  /// corner. So a face near the middle beats a slightly larger one at an edge, and a face
  /// twice as wide beats any smaller one wherever it is (four times the area, at most twice
  /// the weight).
  package static func prominence(of face: Box, width: Int, height: Int) -> Double {
    let (cx, cy) = (Double(width) / 2, Double(height) / 2)
    let reach = (cx * cx + cy * cy).squareRoot()
    let dx = face.x + face.width / 2 - cx
    let dy = face.y + face.height / 2 - cy
    let distance = reach > 0 ? min((dx * dx + dy * dy).squareRoot() / reach, 1) : 0
    return face.width * face.height * (1 - (1 - cornerWeight) * distance)
  }

  /// The square of `side` with `box` centred across and its eyes on ``eyeLine``, slid
  /// inside the picture.
  private static func place(
    _ box: Box, side: Double, width: Int, height: Int, framing: Framing
  ) -> Frame {
    let left = box.x + box.width / 2 - side / 2
    let top = box.y + eyeHeight * box.height - eyeLine * side
    return Frame(
      left: min(max(left, 0), Double(width) - side), top: min(max(top, 0), Double(height) - side),
      side: side, framing: framing)
  }
}
