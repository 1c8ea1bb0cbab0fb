import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Angles a step of 360°/n apart turn the polygon onto itself, so they draw one shape to the
/// last byte: the rotation is reduced into the step that holds the default 90° before
/// anything is drawn (docs/design.md, The shape).
@Suite struct RotationClassTests {
  /// The bundled rocket photo's bytes.
  static func photo() throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/rocket.jpg"))))
  }

  /// A hexagon's spellings of the default 90°: every step of 60° and whole turns both ways.
  static let hexagonClass: [Double] = [90, 30, 150, 210, 270, 330, -30, -270, 450, 810, -630]

  static func shape(_ rotation: Double, sides: Int = 6, layout: Layout = .centered)
    -> HexMask.Shape
  {
    var shape = HexMask.Shape()
    shape.rotation = rotation
    shape.sides = sides
    shape.layout = layout
    return shape
  }

  /// The picture, the seed layout's picture, the mask and the SVG of every angle of the
  /// default's class are the default's bytes.
  @Test(arguments: Layout.allCases)
  func everyAngleOfTheDefaultsClassMakesTheDefaultsBytes(layout: Layout) throws {
    let photo = try Self.photo()
    var picture = HexMask.Output()
    picture.size = 96
    var mask = picture
    mask.kind = .mask(.init())
    let base = Self.shape(90, layout: layout)
    let rendered = try HexMask.render(photo, shape: base, output: picture).bytes
    let masked = try HexMask.render(photo, shape: base, output: mask).bytes
    let svg = try HexMask.svg(side: 96, shape: base)
    for rotation in Self.hexagonClass.dropFirst() {
      let shape = Self.shape(rotation, layout: layout)
      #expect(shape.drawnRotation == 90, "\(rotation)")
      #expect(try HexMask.render(photo, shape: shape, output: picture).bytes == rendered)
      #expect(try HexMask.render(photo, shape: shape, output: mask).bytes == masked)
      #expect(try HexMask.svg(side: 96, shape: shape) == svg, "\(rotation)")
    }
    // A real turn is another shape.
    let turned = Self.shape(45, layout: layout)
    #expect(try HexMask.render(photo, shape: turned, output: picture).bytes != rendered)
    #expect(try HexMask.svg(side: 96, shape: turned) != svg)
  }

  /// A pentagon pointing up (`--rotation -90`, as the gallery's) is the same shape as 54°,
  /// 126° and 198°, and the SVG says so.
  @Test func aPentagonsClassIsOneShape() throws {
    let svg = try HexMask.svg(side: 80, shape: Self.shape(-90, sides: 5))
    for rotation in [54.0, 126, 198, 270, 342, -18, 630] {
      #expect(try HexMask.svg(side: 80, shape: Self.shape(rotation, sides: 5)) == svg)
    }
    #expect(Self.shape(-90, sides: 5).drawnRotation == 126)
  }

  /// For every number of sides the default 90° is drawn as 90° exactly, so the default
  /// shapes are what they were before the reduction; any angle already in the default's
  /// step comes back exactly too (the reduction of a reduced angle is itself); every
  /// angle lands within a step of 90° and draws the polygon it names.
  @Test func theDefaultsStepIsKeptExactly() {
    var random = SplitMix64(state: 41)
    for sides in HexMask.Shape.sidesRange {
      #expect(Self.shape(90, sides: sides).drawnRotation.bitPattern == (90.0).bitPattern)
      let step = 360 / Double(sides)
      for _ in 0..<200 {
        let rotation = Double(random.next() % 1_000_000) / 1000 - 500 + random.unit()
        let drawn = Self.shape(rotation, sides: sides).drawnRotation
        #expect(Self.shape(drawn, sides: sides).drawnRotation == drawn, "n=\(sides) \(rotation)")
        #expect(abs(drawn - 90) < step, "n=\(sides) \(rotation) → \(drawn)")
        // Equal modulo a step: the n-fold angle is the same direction.
        let a = Double(sides) * rotation * .pi / 180
        let b = Double(sides) * drawn * .pi / 180
        #expect(abs(cos(a) - cos(b)) < 1e-9 && abs(sin(a) - sin(b)) < 1e-9)
      }
    }
  }

  /// Whole-degree angles a step apart are one number wherever the step is a whole number.
  @Test(arguments: [3, 4, 5, 6, 8, 9, 10, 12, 15, 20, 24, 36, 40, 60])
  func wholeDegreesAStepApartAreOne(sides: Int) {
    let step = 360 / sides
    for degrees in -400...400 {
      let drawn = Self.shape(Double(degrees), sides: sides).drawnRotation
      for k in [-7, -1, 1, 2, 13] {
        #expect(Self.shape(Double(degrees + k * step), sides: sides).drawnRotation == drawn)
      }
    }
  }

  /// −0° is 0°; values the validation refuses (NaN, infinity, no sides) do not trap.
  @Test func oddValuesDoNotTrap() {
    #expect(Self.shape(-0.0).drawnRotation.bitPattern == Self.shape(0).drawnRotation.bitPattern)
    #expect(Self.shape(0).drawnRotation == 60)
    #expect(Self.shape(.nan).drawnRotation.isNaN)
    #expect(Self.shape(.infinity).drawnRotation.isNaN)
    #expect(Self.shape(30, sides: 0).drawnRotation == 30)
    #expect(Self.shape(-30, sides: -5).drawnRotation == 330)
    #expect(Self.shape(1e308).drawnRotation.isFinite)
  }
}
