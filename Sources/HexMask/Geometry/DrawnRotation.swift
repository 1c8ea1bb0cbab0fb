#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HexMask.Shape {
  /// The rotation the shape is drawn at, in degrees: ``rotation`` taken into the one step of
  /// 360°/``sides`` that holds the default 90° (60°…120° for a hexagon, 90°…180° for a
  /// square, 0°…120° for a triangle, the upper end left out). A turn by a step maps the
  /// polygon onto itself, so every angle of one class (30°, 90°, 150°, −270° and 450° on a
  /// hexagon) is one number here, and the raster, the SVG, the seed layout's placement and
  /// the face look, all made from it, are the same to the last byte; so is the rerun
  /// recipe. An angle already in that step is returned exactly as it is, so the default
  /// and every angle in its step draw what they drew before the reduction.
  ///
  /// ```swift
  /// var shape = HexMask.Shape()
  /// shape.rotation = 30
  /// shape.drawnRotation   // 90
  /// ```
  package var drawnRotation: Double {
    // Whole turns first, exactly (`fmod` is exact): an angle and that angle plus 360° must
    // be one, and 360 is not always a whole number of steps once 360/n is rounded (n = 7).
    // Multiplying first would lose the angle to rounding for large values (1e16°) or
    // overflow to infinity (1e308°). `+ 0` turns −0 into +0.
    let turn = fmod(rotation, 360)
    let degrees = (turn < 0 ? turn + 360 : turn) + 0
    // Other numbers of sides are refused before anything is drawn; no step for them.
    guard Self.sidesRange.contains(sides) else { return degrees }
    let step = 360 / Double(sides)
    // `fmod` is exact, so an angle's remainder is the same for every angle of its class;
    // `steps` counts the whole steps below 90°, as `fmod` finds them for 90 itself (for
    // n = 28 the rounded step's multiple lands just past 90, so ⌊n/4⌋ would miss it).
    let remainder = fmod(degrees, step)
    let steps = ((90 - fmod(90, step)) / step).rounded()
    // One rounding (a fused multiply-add): an angle in the default's step is its own
    // remainder plus exactly those steps, so it comes back unchanged.
    return remainder.addingProduct(steps, step)
  }
}
