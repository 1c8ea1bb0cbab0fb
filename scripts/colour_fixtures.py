#!/usr/bin/env python3
"""Writes Fixtures/colour/: small pictures tagged with wide-gamut, gray and CMYK profiles, on
which scripts/colour_accuracy.py checks `--colorspace srgb` against libvips.

The RGB photo fixtures share one JPEG encoding: the same numbers, read through Display P3,
Adobe RGB or ProPhoto, mean different colours, and only the APP2 segments differ (made with
scripts/tag_icc.py, so the pixels are not re-encoded). The charts are flat patches of the most
saturated colours the profile holds, most of them outside sRGB, so that converting or not
makes a large difference and relative colorimetric clipping is exercised.

Run from the package root (it reads the CC0/public-domain scikit-image photos that
/work/shared/corpus/photos holds, or --photo FILE):
  cc -O2 scripts/make-p3-profile.c -o /tmp/make-p3-profile -llcms2
  /tmp/make-p3-profile Fixtures/icc/DisplayP3.icc
  (and scripts/make-press-cmyk-profile.c likewise, for Fixtures/icc/PressCMYK.icc)
  python3 scripts/colour_fixtures.py
"""
import argparse
import colorsys
import io
import os
import subprocess
import sys

import numpy as np
from PIL import Image

ICC = "Fixtures/icc"
OUT = "Fixtures/colour"
HERE = os.path.dirname(os.path.abspath(__file__))


def tag(source_bytes, name, profile):
    """Writes source_bytes to OUT/name with `profile` embedded by tag_icc.py."""
    temporary = os.path.join(OUT, f".untagged-{name}")
    with open(temporary, "wb") as out:
        out.write(source_bytes)
    subprocess.run([sys.executable, os.path.join(HERE, "tag_icc.py"), temporary,
                    os.path.join(OUT, name), "--profile", os.path.join(ICC, profile)], check=True)
    os.remove(temporary)


def encoded(image, kind, **options):
    buffer = io.BytesIO()
    image.save(buffer, kind, **options)
    return buffer.getvalue()


def chart(side):
    """Flat patches: 16 hues across, 8 bands of (saturation, value) down; the last band is a
    gray ramp. Patches are 20 × 40 px at side 320, wide enough that JPEG or resampling would
    not blur their middles (the PNG has neither)."""
    bands = [(1.0, 1.0), (1.0, 0.8), (1.0, 0.55), (1.0, 0.3), (0.75, 1.0), (0.5, 1.0),
             (0.85, 0.7)]
    hues, rows = 16, len(bands) + 1
    pixels = np.zeros((side, side, 3), np.uint8)
    for row in range(rows):
        for column in range(hues):
            if row < len(bands):
                saturation, value = bands[row]
                rgb = colorsys.hsv_to_rgb(column / hues, saturation, value)
            else:
                rgb = (column / (hues - 1),) * 3
            y0, y1 = row * side // rows, (row + 1) * side // rows
            x0, x1 = column * side // hues, (column + 1) * side // hues
            pixels[y0:y1, x0:x1] = np.round(np.array(rgb) * 255)
    return Image.fromarray(pixels)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photo", default="/work/shared/corpus/photos/astronaut.png")
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    photo = Image.open(args.photo).convert("RGB")

    # One JPEG encoding, three profiles.
    rgb = photo.resize((320, 320), Image.LANCZOS)
    jpeg = encoded(rgb, "JPEG", quality=85)
    tag(jpeg, "photo-p3.jpg", "DisplayP3.icc")
    tag(jpeg, "photo-adobergb.jpg", "AdobeRGB1998.icc")
    tag(jpeg, "photo-prophoto.jpg", "ProPhotoRGB.icc")

    # PNG: smaller, and 6 bits per sample (replicated to 8) so that it stays under 60 kB.
    small = np.asarray(photo.resize((200, 200), Image.LANCZOS))
    small = (small & 0xFC) | (small >> 6)
    tag(encoded(Image.fromarray(small), "PNG", optimize=True), "photo-p3.png", "DisplayP3.icc")

    # Gray, not square (360 × 270), so the centre square is a crop.
    gray = photo.convert("L").resize((360, 360), Image.LANCZOS).crop((0, 45, 360, 315))
    tag(encoded(gray, "JPEG", quality=85), "photo-gray-dotgain20.jpg", "DotGain20.icc")

    # CMYK: NaiveCMYK.icc has no BToA (it can only be a source), so the photo is separated by
    # the formula it encodes, inverted: K = 1 - max(R, G, B), C = (1 - R - K) / (1 - K), ...
    # The profile, not this formula, then defines the colours the reference computes.
    # 224 px at quality 80: a CMYK JPEG has four full-resolution channels; this stays < 60 kB.
    values = np.asarray(rgb.resize((224, 224), Image.LANCZOS), np.float64) / 255
    black = 1 - values.max(axis=2, keepdims=True)
    inks = (1 - values - black) / np.maximum(1 - black, 1e-9)
    cmyk = np.concatenate([inks, black], axis=2)
    cmyk = Image.fromarray(np.round(cmyk * 255).astype(np.uint8), "CMYK")
    # Pillow writes Adobe's inverted CMYK with an APP14 marker, as Photoshop does. The same
    # inks read through PressCMYK.icc (scripts/make-press-cmyk-profile.c) look different from
    # what the naive formula says: a converter that ignores the profile fails on that one.
    cmyk_jpeg = encoded(cmyk, "JPEG", quality=80)
    tag(cmyk_jpeg, "photo-cmyk-naive.jpg", "NaiveCMYK.icc")
    tag(cmyk_jpeg, "photo-cmyk-press.jpg", "PressCMYK.icc")

    charts = encoded(chart(320), "PNG", optimize=True)
    tag(charts, "chart-p3.png", "DisplayP3.icc")
    tag(charts, "chart-prophoto.png", "ProPhotoRGB.icc")


main()
