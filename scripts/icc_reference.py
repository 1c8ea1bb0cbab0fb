#!/usr/bin/env python3
"""Writes Fixtures/icc/srgb-reference.tsv: colours converted to sRGB by Pillow's ImageCms
(its own build of Little CMS), the reference ColourTransformTests checks hexmask's lcms2
transform against.

The transform is the one hexmask builds (and libvips' default): relative colorimetric
intent with black point compensation, to lcms2's built-in sRGB profile, 8 bits per sample.
Gray profiles convert to RGB here; hexmask keeps them gray, and the test compares its gray
with each of R, G and B.

Run from the package root: python3 scripts/icc_reference.py
"""
import io
import sys

from PIL import Image, ImageCms

RGB_PROFILES = ["sRGB.icc", "AdobeRGB1998.icc", "ProPhotoRGB.icc"]
GRAY_PROFILES = ["DotGain20.icc", "Gray.icc", "Gray-CIE_L.icc"]
# Made by scripts/make-cmyk-profile.c; Pillow's CMYK is ink (0 = none), lcms2's TYPE_CMYK_8.
CMYK_PROFILES = ["NaiveCMYK.icc"]
INK = [0, 64, 128, 192, 255]
LEVELS = [0, 1, 37, 64, 128, 192, 230, 254, 255]


def convert(name, mode, pixels):
    source = ImageCms.ImageCmsProfile(f"Fixtures/icc/{name}")
    transform = ImageCms.buildTransform(
        source,
        ImageCms.createProfile("sRGB"),
        mode,
        "RGB",
        # Pillow before 10 names them as module constants; lcms2's cmsFLAGS_BLACKPOINTCOMPENSATION.
        renderingIntent=getattr(ImageCms, "Intent", ImageCms).RELATIVE_COLORIMETRIC
        if hasattr(ImageCms, "Intent") else ImageCms.INTENT_RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION if hasattr(ImageCms, "Flags") else 0x2000,
    )
    image = Image.new(mode, (len(pixels), 1))
    image.putdata(pixels)
    data = ImageCms.applyTransform(image, transform).tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]


def main():
    out = sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], "w")
    print("# profile\tinput (R G B, gray, or C M Y K ink)\tsRGB from Pillow ImageCms, littleCMS "
          f"{ImageCms.core.littlecms_version}: scripts/icc_reference.py", file=out)
    rgb = [(r, g, b) for r in LEVELS for g in LEVELS for b in LEVELS]
    for name in RGB_PROFILES:
        for pixel, result in zip(rgb, convert(name, "RGB", rgb)):
            print(f"{name}\t{' '.join(map(str, pixel))}\t{' '.join(map(str, result))}", file=out)
    gray = list(range(256))
    for name in GRAY_PROFILES:
        for value, result in zip(gray, convert(name, "L", gray)):
            print(f"{name}\t{value}\t{' '.join(map(str, result))}", file=out)
    cmyk = [(c, m, y, k) for c in INK for m in INK for y in INK for k in INK]
    for name in CMYK_PROFILES:
        for pixel, result in zip(cmyk, convert(name, "CMYK", cmyk)):
            print(f"{name}\t{' '.join(map(str, pixel))}\t{' '.join(map(str, result))}", file=out)


main()
