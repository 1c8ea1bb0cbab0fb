import Foundation
import TestSupport
import Testing

@testable import HexMaskCLI

@Suite struct ExistingOutputTests {
  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A PNG chunk (the CRC is not checked here, so zeros do).
  static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let length = UInt32(body.count)
    return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + Array(type.utf8)
      + body + [0, 0, 0, 0]
  }

  static let ihdr = chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])

  @Test func pngMetadataMarksAPhoto() {
    let exif = Self.pngSignature + Self.ihdr + Self.chunk("eXIf", Array("MM\0*".utf8))
    #expect(photoEvidence(inHead: exif[...]) == "a PNG with EXIF metadata")
    let xmp =
      Self.pngSignature + Self.ihdr
      + Self.chunk("iTXt", Array("XML:com.adobe.xmp\0\0\0\0\0<x/>".utf8))
    #expect(photoEvidence(inHead: xmp[...]) == "a PNG with XMP metadata")
    let magick =
      Self.pngSignature + Self.ihdr + Self.chunk("zTXt", Array("Raw profile type exif\0\0".utf8))
    #expect(photoEvidence(inHead: magick[...]) == "a PNG with EXIF metadata")
  }

  @Test func pngWithoutMetadataOrAfterThePixelsIsNoPhoto() {
    let plain =
      Self.pngSignature + Self.ihdr + Self.chunk("iCCP", Array("p\0\0".utf8))
      + Self.chunk("IDAT", [1, 2]) + Self.chunk("eXIf", [0])
    #expect(photoEvidence(inHead: plain[...]) == nil)
  }

  /// hexmask writes squares only, so a JPEG or PNG that is not square is a photo, EXIF or
  /// not (a phone photo stripped of its metadata); a square one may be an earlier output.
  @Test func aPictureThatIsNotSquareIsAPhoto() {
    func png(width: UInt8, height: UInt8) -> [UInt8] {
      Self.pngSignature + Self.chunk("IHDR", [0, 0, 1, width, 0, 0, 1, height, 8, 6, 0, 0, 0])
    }
    #expect(
      photoEvidence(inHead: png(width: 195, height: 44)[...])
        == "a 451×300 PNG; hexmask writes squares only")
    #expect(photoEvidence(inHead: png(width: 44, height: 44)[...]) == nil)
    func jpeg(width: UInt16, height: UInt16, frame: UInt8 = 0xC0) -> [UInt8] {
      [0xFF, 0xD8, 0xFF, 0xDB, 0, 3, 0, 0xFF, frame, 0, 11, 8]
        + [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)]
        + [1, 1, 0x11, 0, 0xFF, 0xDA, 0, 2]
    }
    #expect(
      photoEvidence(inHead: jpeg(width: 4032, height: 3024)[...])
        == "a 4032×3024 JPEG; hexmask writes squares only")
    #expect(photoEvidence(inHead: jpeg(width: 3024, height: 4032, frame: 0xC2)[...]) != nil)
    #expect(photoEvidence(inHead: jpeg(width: 256, height: 256)[...]) == nil)
    // A segment length below 2 is damage: the walk stops, and never makes a backwards
    // range (which would trap).
    for length: UInt8 in [0, 1] {
      #expect(photoEvidence(inHead: [0xFF, 0xD8, 0xFF, 0xE1, 0, length, 0, 0][...]) == nil)
      #expect(photoEvidence(inHead: [0xFF, 0xD8, 0xFF, 0xC0, 0, length, 8, 0, 1][...]) == nil)
    }
    // A DHT segment (C4) is no frame, whatever its bytes say.
    #expect(photoEvidence(inHead: jpeg(width: 4032, height: 3024, frame: 0xC4)[...]) == nil)
  }

  @Test func jpegAPP1MarksAPhoto() {
    func jpeg(_ app1: String) -> [UInt8] {
      let body = Array(app1.utf8)
      let length = body.count + 2
      return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
        + [0xFF, 0xDA, 0, 2]
    }
    #expect(photoEvidence(inHead: jpeg("Exif\0\0MM")[...]) == "a JPEG with EXIF metadata")
    #expect(
      photoEvidence(inHead: jpeg("http://ns.adobe.com/xap/1.0/\0<x/>")[...])
        == "a JPEG with XMP metadata")
    #expect(photoEvidence(inHead: jpeg("Other\0")[...]) == nil)
  }

  @Test func webpChunksMarkAPhoto() {
    func webp(_ chunkType: String) -> [UInt8] {
      Array("RIFF".utf8) + [100, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0]
        + Array(repeating: 0, count: 10) + Array(chunkType.utf8) + [2, 0, 0, 0, 1, 2]
    }
    #expect(photoEvidence(inHead: webp("EXIF")[...]) == "a WebP with EXIF metadata")
    #expect(photoEvidence(inHead: webp("XMP ")[...]) == "a WebP with XMP metadata")
    #expect(photoEvidence(inHead: webp("ICCP")[...]) == nil)
  }

  /// An ISO BMFF box.
  static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let size = UInt32(body.count + 8)
    return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + Array(type.utf8) + body
  }

  @Test func avifItemsOfEXIFOrXMPMarkAPhoto() throws {
    func avif(_ itemType: String, infeVersion: UInt8 = 2) -> [UInt8] {
      let idBytes: [UInt8] = infeVersion == 2 ? [0, 1] : [0, 0, 0, 1]
      let infe = Self.box(
        "infe", [infeVersion, 0, 0, 0] + idBytes + [0, 0] + Array(itemType.utf8))
      let iinf = Self.box(
        "iinf",
        [0, 0, 0, 0, 0, 2] + Self.box("infe", [2, 0, 0, 0, 0, 2, 0, 0] + Array("av01".utf8)) + infe)
      let meta = Self.box(
        "meta", [0, 0, 0, 0] + Self.box("hdlr", Array(repeating: 0, count: 24)) + iinf)
      return Self.box("ftyp", Array("avif".utf8) + [0, 0, 0, 0] + Array("mif1avif".utf8)) + meta
    }
    #expect(photoEvidence(inHead: avif("Exif")[...]) == "an AVIF with EXIF metadata")
    #expect(
      photoEvidence(inHead: avif("Exif", infeVersion: 3)[...]) == "an AVIF with EXIF metadata")
    #expect(photoEvidence(inHead: avif("mime")[...]) == "an AVIF with XMP metadata")
    #expect(photoEvidence(inHead: avif("av01")[...]) == nil)
    // Cut anywhere, it must not trap.
    let whole = avif("Exif")
    for end in 0..<whole.count { _ = photoEvidence(inHead: whole[..<end]) }
    // avifenc's AVIF, without metadata, is no photo; a HEIC always is.
    #expect(photoEvidence(inFileAt: fixture("heif/rocket-alpha.avif")) == nil)
    #expect(photoEvidence(inFileAt: fixture("heif/rocket.heic")) == "a HEIC/HEIF photo")
  }

  @Test func tiffAndDamagedHeadsAreHandled() {
    #expect(photoEvidence(inHead: [0x49, 0x49, 0x2A, 0x00, 8][...]) == "a TIFF or camera raw file")
    // A length that points far past the end must not trap.
    let huge = Self.pngSignature + [0xFF, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8)
    #expect(photoEvidence(inHead: huge[...]) == nil)
    #expect(photoEvidence(inHead: [0xFF, 0xD8, 0xFF, 0xE1, 0xFF][...]) == nil)
    #expect(photoEvidence(inHead: [][...]) == nil)
  }

  @Test func hexmasksOwnOutputsAreNoPhotos() throws {
    try withTemporaryFolder { folder in
      for name in ["o.png", "o.jpg", "o.webp", "o.avif"] {
        let run = try runHexMask([fixture("exif/Landscape_6.jpg"), folder + "/" + name], in: nil)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(photoEvidence(inFileAt: folder + "/" + name) == nil, "\(name)")
      }
      #expect(
        photoEvidence(inFileAt: fixture("exif/Landscape_6.jpg")) == "a JPEG with EXIF metadata")
    }
  }
}
