/// What a file says about its pixels besides the pixels.
///
/// Decoders fill it from the markers and chunks before the image data, so it is
/// complete as soon as `openDecoder` returns. hexmask forwards `iccProfile` into its
/// output and never copies `exif` (it may hold GPS positions and camera serials).
///
/// ```swift
/// let decoder = try openDecoder(file: fp, maxPixels: 268_402_689)
/// let encoder = try PNGStreamEncoder(
///   file: out, width: 256, height: 256, iccProfile: decoder.metadata.iccProfile)
/// ```
package struct ImageMetadata: Sendable, Equatable {
  /// The TIFF-structured EXIF block: JPEG APP1 payload after "Exif\0\0", or the PNG eXIf chunk. nil when absent.
  package var exif: [UInt8]?
  /// The embedded ICC profile, reassembled from JPEG APP2 "ICC_PROFILE\0" segments or PNG iCCP. nil when absent or malformed.
  package var iccProfile: [UInt8]?
  /// Problems with metadata that did not stop decoding, e.g. "ICC profile segments are inconsistent; profile dropped".
  package var warnings: [Warning]
  /// True when the decoder converted the pixels to sRGB through `iccProfile` (a CMYK
  /// JPEG's profile, which cannot describe RGB pixels): the profile no longer describes them.
  package var convertedToSRGB = false
  /// Whether the stored pixels are gray or colour, where the decoder knows: a profile must
  /// be of the same kind to describe them (nil: either may).
  package var isGray: Bool?
  /// The picture's size as stored, before any shrink-on-load, thumbnail or window; 0
  /// where the decoder delivers it whole (its own `width` and `height` then say it).
  package var storedWidth = 0
  package var storedHeight = 0
  /// True for an animation with more than one frame (what the render may animate).
  package var isAnimated = false
  /// True when the pixels were turned upright already (a copy the look kept): `exif` still
  /// says how the file stores them, for the report, but nothing turns them again.
  package var isUpright = false
  /// The turn the codestream's own header states (JPEG XL), which browsers apply as they
  /// apply EXIF's; nil where the format has none.
  package var headerOrientation: Orientation?
  /// False when a frame was chosen from an animation file and the frames after it were not
  /// looked for: ``isAnimated`` is then unknown, not false.
  package var framesCounted = true

  package init(exif: [UInt8]? = nil, iccProfile: [UInt8]? = nil, warnings: [Warning] = []) {
    self.exif = exif
    self.iccProfile = iccProfile
    self.warnings = warnings
  }
}

extension ImageMetadata {
  /// How the file stores the picture, by its EXIF tag or its header's (`.up` without
  /// either). A still and every frame of an animation are turned by this, as browsers turn
  /// them.
  package var storedOrientation: Orientation {
    exif.map(Orientation.fromExif) ?? headerOrientation ?? .up
  }

  /// The turn a render applies to these pixels: the stored orientation when `autoOrient`,
  /// none for pixels turned upright already. The one rule every decode, look and frame
  /// follows.
  package func orientation(autoOrient: Bool) -> Orientation {
    autoOrient && !isUpright ? storedOrientation : .up
  }
}
