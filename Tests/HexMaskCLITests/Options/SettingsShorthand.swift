import HexMask

@testable import HexMaskCLI

/// The tests' shorthand for the settings one command line gathers: each library value's
/// fields under one name, as the option table sets them.
extension RenderSettings {
  var sides: Int {
    get { shape.sides }
    set { shape.sides = newValue }
  }
  var cornerRadius: Double? {
    get { if case .pixels(let value)? = shape.corner { value } else { nil } }
    set { shape.corner = newValue.map(Length.pixels) }
  }
  var lineWidth: Double? {
    get { if case .pixels(let value)? = shape.line { value } else { nil } }
    set { shape.line = newValue.map(Length.pixels) }
  }
  var corner: Length? {
    get { shape.corner }
    set { shape.corner = newValue }
  }
  var line: Length? {
    get { shape.line }
    set { shape.line = newValue }
  }
  var rotationDegrees: Double {
    get { shape.rotation }
    set { shape.rotation = newValue }
  }
  var borderColor: RGBAColor {
    get { shape.borderColor }
    set { shape.borderColor = newValue }
  }
  var layout: Layout {
    get { shape.layout }
    set { shape.layout = newValue }
  }
  /// The one `--size`; nil when none or several were given.
  var size: Int? {
    get { sizes.count == 1 ? sizes[0] : nil }
    set { sizes = newValue.map { [$0] } ?? [] }
  }
  var upscale: Bool {
    get { output.upscale }
    set { output.upscale = newValue }
  }
  var crop: CropChoice {
    get { output.crop }
    set { output.crop = newValue }
  }
  var quality: Int? {
    get { choices.quality }
    set { choices.quality = newValue }
  }
  var lossless: Bool {
    get { choices.lossless }
    set { choices.lossless = newValue }
  }
  var compression: PNGCompression? {
    get { choices.compression }
    set { choices.compression = newValue }
  }
  var background: RGBAColor? {
    get { choices.background }
    set { choices.background = newValue }
  }
  var maskOnly: Bool {
    get { choices.maskOnly }
    set { choices.maskOnly = newValue }
  }
  var keepColorProfile: Bool {
    get { output.keepColorProfile }
    set { output.keepColorProfile = newValue }
  }
  var maxPixels: Int {
    get { input.maxPixels }
    set { input.maxPixels = newValue }
  }
  var autoOrient: Bool {
    get { input.autoOrient }
    set { input.autoOrient = newValue }
  }
  var strict: Bool {
    get { input.strict }
    set { input.strict = newValue }
  }
}
