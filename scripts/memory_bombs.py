#!/usr/bin/env python3
"""Small files whose headers claim pictures that a decoder must hold whole.

Writes Fixtures/memory/:
  interlaced-16383.png     72 bytes: Adam7 PNG, 16383 x 16383, its data cut short
  interlaced-8000.png      the same at 8000 x 8000
  progressive-16000.jpg    a 16 x 16 progressive JPEG (4:2:0) whose frame header says
                           16000 x 16000: libjpeg keeps every coefficient (768 MB)
  progressive-8000.jpg     the same at 8000 x 8000 (192 MB)
  progressive-8000-legit.jpg  a real 8000 x 8000 progressive JPEG of one colour

    python3 scripts/memory_bombs.py

Needs ImageMagick's convert for the JPEGs; the tests need only the committed files.
"""
import os
import struct
import subprocess
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fixtures/memory")


def chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def interlaced_png(side):
    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 1)  # 8-bit RGB, Adam7
    # The first rows of the first pass, then nothing: the file ends inside the data.
    data = zlib.compress(bytes(4000), 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data)


def convert(arguments, name):
    subprocess.run(["convert"] + arguments + [name], check=True)
    with open(name, "rb") as file:
        return file.read()


def with_size(jpeg, side):
    """The JPEG with its SOF2 frame header claiming side x side."""
    at = jpeg.index(b"\xff\xc2")
    return jpeg[:at + 5] + struct.pack(">HH", side, side) + jpeg[at + 9:]


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        small = convert(["-size", "16x16", "xc:#806040", "-interlace", "JPEG",
                         "-sampling-factor", "2x2", "-quality", "50", "-strip"],
                        os.path.join(folder, "small.jpg"))
        legit = convert(["-size", "8000x8000", "xc:#808890", "-interlace", "JPEG",
                         "-sampling-factor", "2x2", "-quality", "85", "-strip"],
                        os.path.join(folder, "legit.jpg"))
    files = {
        "interlaced-16383.png": interlaced_png(16383),
        "interlaced-8000.png": interlaced_png(8000),
        "progressive-16000.jpg": with_size(small, 16000),
        "progressive-8000.jpg": with_size(small, 8000),
        "progressive-8000-legit.jpg": legit,
    }
    for name, data in files.items():
        with open(os.path.join(OUT, name), "wb") as file:
            file.write(data)
        print(name, len(data))


if __name__ == "__main__":
    main()
