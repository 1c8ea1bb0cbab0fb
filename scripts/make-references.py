#!/usr/bin/env python3
"""Regenerates the decoder reference digests in Fixtures/ from independent decoders.

    pip install pypng                    # pure-Python PNG decoder
    apt-get install libjpeg-turbo-progs  # djpeg, libjpeg-turbo's own command line decoder
    python3 scripts/make-references.py

Writes two files, one line per image: `path<TAB>width<TAB>height<TAB>sha256`, the path
relative to Fixtures/ and the SHA-256 of the decoded pixels, rows top to bottom.

- Fixtures/pngsuite/reference-rgba.txt: every valid PngSuite file (not x*, not the
  PngSuite.png logo), decoded by pypng and converted to 8-bit straight RGBA the way
  hexmask's PNG decoder promises: palette + tRNS -> alpha, gray -> RGB, a tRNS colour
  -> alpha 0, 1/2/4-bit samples scaled to 0...255, 16-bit samples scaled as
  round(v * 255 / 65535), and no gamma, sBIT or background processing.
- Fixtures/jpeg/reference-rgb.txt: every JPEG under Fixtures/ that djpeg decodes
  (possibly with warnings, like a truncated scan), as `djpeg -pnm` writes it with its
  default settings (islow IDCT, fancy upsampling), grayscale expanded to RGB. For CMYK
  and YCCK files djpeg converts to RGB itself with R = C*K/255 (libjpeg-turbo's
  cmyk_to_rgb), which is right for Adobe's inverted CMYK and is what hexmask does for
  those. Files djpeg refuses (12-bit, lossless, no image) are not listed; the tests
  expect hexmask to refuse them too.

The tests (Tests/HexMaskTests/Decoding/ReferenceTests.swift) decode every listed file and
compare digests; they never run this script.
"""

import hashlib
import os
import re
import subprocess
import sys

import png  # pypng

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures")


def scale(value, bitdepth):
    """A sample of `bitdepth` bits as 8 bits, rounded to nearest."""
    if bitdepth == 8:
        return value
    if bitdepth == 16:
        # value * 255 / 65535 is never exactly halfway between integers.
        return (value * 255 + 32767) // 65535
    return value * 255 // ((1 << bitdepth) - 1)


def png_rgba(path):
    reader = png.Reader(filename=path)
    width, height, rows, info = reader.read()
    depth = info["bitdepth"]
    planes = info["planes"]
    # Truecolour files may carry a suggested palette too; only colour type 3 uses one.
    indexed = "palette" in info and planes == 1 and not info["greyscale"]
    palette = reader.palette(alpha="force") if indexed else None
    transparent = info.get("transparent")
    if isinstance(transparent, int):
        transparent = (transparent,)
    out = bytearray()
    for row in rows:
        row = list(row)
        for x in range(width):
            sample = tuple(row[x * planes:(x + 1) * planes])
            if palette is not None:
                out += bytes(palette[sample[0]])
                continue
            if info["greyscale"]:
                gray = scale(sample[0], depth)
                color = (gray, gray, gray)
            else:
                color = tuple(scale(v, depth) for v in sample[:3])
            if info["alpha"]:
                alpha = scale(sample[-1], depth)
            elif transparent is not None and sample == tuple(transparent):
                alpha = 0
            else:
                alpha = 255
            out += bytes(color + (alpha,))
    return width, height, bytes(out)


def djpeg_rgb(path):
    """djpeg's decoding as RGB, or None when djpeg produces no image."""
    result = subprocess.run(["djpeg", "-pnm", path], capture_output=True)
    data = result.stdout
    # Exit status 2 means warnings (e.g. premature end of data): the image is complete.
    if result.returncode not in (0, 2) or not data.startswith((b"P5", b"P6")):
        return None
    # The header ends with exactly one whitespace byte; the first pixels may be bytes
    # split() counts as whitespace (9-13, 32), so do not split the data itself.
    header = re.match(rb"(P[56])\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    kind, width, height, maxval = header[1], int(header[2]), int(header[3]), header[4]
    pixels = data[header.end():]
    assert maxval == b"255"
    if kind == b"P5":
        pixels = bytes(v for v in pixels for _ in range(3))
    assert len(pixels) == width * height * 3, path
    return width, height, pixels


def write(listing, header, entries):
    with open(os.path.join(ROOT, listing), "w") as out:
        out.write(header)
        for name, (width, height, pixels) in entries:
            out.write(f"{name}\t{width}\t{height}\t{hashlib.sha256(pixels).hexdigest()}\n")


def main():
    suite = sorted(
        name for name in os.listdir(os.path.join(ROOT, "pngsuite"))
        if name.endswith(".png") and not name.startswith("x") and name != "PngSuite.png")
    write("pngsuite/reference-rgba.txt",
          "# PngSuite decoded by pypng to 8-bit RGBA (scripts/make-references.py).\n"
          "# name\twidth\theight\tsha256 of the RGBA bytes\n",
          [(f"pngsuite/{name}", png_rgba(os.path.join(ROOT, "pngsuite", name))) for name in suite])

    jpegs = sorted(
        os.path.relpath(os.path.join(folder, name), ROOT)
        for folder, _, names in os.walk(ROOT) for name in names
        if name.lower().endswith((".jpg", ".jpeg")))
    decoded = [(name, djpeg_rgb(os.path.join(ROOT, name))) for name in jpegs]
    refused = [name for name, image in decoded if image is None]
    write("jpeg/reference-rgb.txt",
          "# JPEG fixtures decoded by libjpeg-turbo's djpeg -pnm, gray expanded to RGB"
          " (scripts/make-references.py).\n"
          f"# djpeg refuses: {', '.join(refused)}\n"
          "# path\twidth\theight\tsha256 of the RGB bytes\n",
          [(name, image) for name, image in decoded if image is not None])
    print(f"{len(suite)} PNGs, {len(decoded) - len(refused)} JPEGs ({len(refused)} refused)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
