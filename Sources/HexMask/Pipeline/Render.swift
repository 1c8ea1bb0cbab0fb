/// Reads `input`, cuts it into the shape `options` describe, and writes a PNG to `output`.
/// (Stub.)
public func render(input: String, output: String, options: RenderOptions) throws(HexMaskError) {
  throw HexMaskError(file: input, reason: "not implemented yet")
}
