import CImageShims
import Foundation
import TestSupport
import Testing

@testable import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// CMYK reference: djpeg cannot print libjpeg's raw CMYK (its -pnm output is already
// converted, with the Adobe polarity assumed; ReferenceTests checks that). So these
// tests take a second decode path — the same libjpeg decode through the C shim that
// `JPEGDecoder` calls, which delivers CMYK rows as libjpeg decoded them — and compute
// the expected RGB from those raw samples here, in floating point, independently of
// `convertCMYKToRGBA`. That checks the formula, the rounding and the choice of
// polarity, for both polarities.

/// The rows of a CMYK JPEG as libjpeg delivers them, 4 bytes per pixel, unconverted.
func rawCMYK(path: String) throws -> [UInt8] {
  try withFile(path) { file in
    let reader = try #require(hm_jpeg_reader_create())
    defer { hm_jpeg_reader_destroy(reader) }
    try callShim(format: "JPEG") { hm_jpeg_reader_open(reader, file, nil, 0, $0, $1) }
    #expect(hm_jpeg_reader_color(reader) != HM_JPEG_RGBA)
    try callShim(format: "JPEG") { hm_jpeg_reader_start(reader, 1, $0, $1) }
    let width = Int(hm_jpeg_reader_output_width(reader))
    let height = Int(hm_jpeg_reader_output_height(reader))
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    try pixels.withUnsafeMutableBufferPointer { buffer in
      for y in 0..<height {
        let row = buffer.baseAddress.map { $0 + y * width * 4 }
        try callShim(format: "JPEG") { hm_jpeg_reader_read_row(reader, row, $0, $1) }
      }
    }
    return pixels
  }
}

/// The naive conversion, written out: each ink darkens its primary, black all three.
func expectedRGBA(cmyk: [UInt8], inverted: Bool) -> [UInt8] {
  var rgba: [UInt8] = []
  for pixel in stride(from: 0, to: cmyk.count, by: 4) {
    // Inverted (Adobe) data stores 255 − ink.
    let ink = cmyk[pixel..<pixel + 4].map { inverted ? 255 - Double($0) : Double($0) }
    for channel in 0..<3 {
      rgba.append(UInt8(((255 - ink[channel]) * (255 - ink[3]) / 255).rounded()))
    }
    rgba.append(255)
  }
  return rgba
}

/// All three CMYK fixtures carry Adobe's APP14 marker (pil_sample_cmyk.jpg as YCCK).
@Test(arguments: ["jpeg/jpg-cmyk-1.jpg", "jpeg/jpg-cmyk-2.jpg", "jpeg/pil_sample_cmyk.jpg"])
func adobeCMYKIsConvertedAsInverted(name: String) throws {
  let raw = try rawCMYK(path: Fixtures.path(name))
  let image = try decodeFixture(name)
  #expect(image.pixels == expectedRGBA(cmyk: raw, inverted: true))
  #expect(image.warnings.isEmpty)
}

/// The same file without its Adobe marker: the same samples, read as plain CMYK.
@Test func cmykWithoutAdobeMarkerIsNotInverted() throws {
  var bytes = [UInt8](
    try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/jpg-cmyk-1.jpg"))))
  // Turn APP14 (FF EE) into APP15, which libjpeg skips; the first one is in the header.
  let marker = try #require(
    (0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xEE })
  bytes[marker + 1] = 0xEF
  try withTemporaryFolder { url in
    let directory = url.path
    let path = directory + "/plain-cmyk.jpg"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let raw = try rawCMYK(path: path)
    #expect(raw == (try rawCMYK(path: Fixtures.path("jpeg/jpg-cmyk-1.jpg"))))
    let image = try withFile(path) { file in try decode(file: file) }
    #expect(image.pixels == expectedRGBA(cmyk: raw, inverted: false))
    #expect(image.pixels != (try decodeFixture("jpeg/jpg-cmyk-1.jpg")).pixels)
  }
}

/// pil_sample_cmyk.jpg is a Photoshop separation of pil_sample_rgb.jpg: with the right
/// polarity the naive conversion lands near the original (the wrong one would give
/// a negative, off by about 128 on average).
@Test func ycckLooksLikeItsRGBOriginal() throws {
  let cmyk = try decodeFixture("jpeg/pil_sample_cmyk.jpg")
  let original = try decodeFixture("jpeg/pil_sample_rgb.jpg")
  let difference = zip(cmyk.pixels, original.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
  let mean = Double(difference) / Double(cmyk.pixels.count * 3 / 4)
  print("pil_sample_cmyk vs pil_sample_rgb: mean difference \(mean) levels")
  #expect(mean < 20)
}

@Test func conversionHandPickedValues() {
  // C, M, Y, K → R, G, B for plain CMYK; the inverted row stores 255 − each ink.
  var plain: [UInt8] = [0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 255, 128, 64, 0, 51]
  var inverted: [UInt8] = plain.map { 255 - $0 }
  plain.withUnsafeMutableBufferPointer { convertCMYKToRGBA($0, inverted: false) }
  inverted.withUnsafeMutableBufferPointer { convertCMYKToRGBA($0, inverted: true) }
  // (255 − 128)·204/255 = 101.6 → 102, (255 − 64)·204/255 = 152.8 → 153, 255·204/255 = 204.
  let expected: [UInt8] = [255, 255, 255, 255, 0, 255, 255, 255, 0, 0, 0, 255, 102, 153, 204, 255]
  #expect(plain == expected)
  #expect(inverted == expected)
}
