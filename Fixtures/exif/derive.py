#!/usr/bin/env python3
"""Makes the small fixtures in this folder from the full-size EXIF examples.

Usage: derive.py CORPUS_EXIF_DIR  (e.g. ../shared/corpus/exif), run from this folder.

The originals are 1800x1200 (about 350 KB each). Each is decoded at 1/8 scale by
libjpeg-turbo's djpeg (one DC value per 8x8 block, so the 8 orientations stay
comparable), re-encoded by cjpeg at quality 95, and the original APP1 "Exif" segment
is copied into the new file byte for byte, right after cjpeg's JFIF APP0.
"""
import subprocess
import sys
from pathlib import Path


def segments(jpeg):
    """Yields (marker, start, end) for each marker segment before the first scan."""
    i = 2
    while i + 4 <= len(jpeg) and jpeg[i] == 0xFF:
        marker, length = jpeg[i + 1], int.from_bytes(jpeg[i + 2 : i + 4], "big")
        yield marker, i, i + 2 + length
        if marker == 0xDA:
            return
        i += 2 + length


def exif_segment(jpeg):
    for marker, start, end in segments(jpeg):
        if marker == 0xE1 and jpeg[start + 4 : start + 10] == b"Exif\0\0":
            return jpeg[start:end]
    raise SystemExit("no Exif APP1")


def main():
    corpus = Path(sys.argv[1])
    for name in [f"{s}_{n}.jpg" for s in ("Landscape", "Portrait") for n in range(9)]:
        original = (corpus / name).read_bytes()
        ppm = subprocess.run(
            ["djpeg", "-scale", "1/8", "-ppm", str(corpus / name)],
            check=True, capture_output=True).stdout
        small = subprocess.run(
            ["cjpeg", "-quality", "95", "-optimize"], input=ppm,
            check=True, capture_output=True).stdout
        app0 = next(end for marker, _, end in segments(small) if marker == 0xE0)
        Path(name).write_bytes(small[:app0] + exif_segment(original) + small[app0:])


main()
