#!/usr/bin/env python3
"""Decodes the GIF fixtures of Fixtures/animation/ with three decoders and writes
Fixtures/animation/gif-frames.tsv, what GIFFramesTests checks hexmask against.

    scripts/gif_references.py

One row per frame as Chromium shows it (or "FILE error MESSAGE" when it refuses the file) (scripts/browser_frames.py, WebCodecs'
ImageDecoder): file, frame, width, height, delay_ms (as stored), repetitions, and the
SHA-256 of the frame's RGBA8 bytes (transparent pixels' colour zeroed) from Chromium,
ImageMagick (`convert FILE -coalesce`) and Pillow (each frame converted to RGBA). A
decoder that gives a different canvas size or frame count gets "size WxH" or "missing" in
its column. Where the decoders disagree, hexmask shows what Chromium shows (docs/formats.md,
"Frames as a browser shows them"): the test compares hexmask with the chromium column and
counts the agreement of the others.
"""

import base64
import hashlib
import os
import subprocess
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_frames  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "Fixtures", "animation")


def digest(pixels):
    return hashlib.sha256(browser_frames.canonical(pixels)).hexdigest()


def imagemagick(path):
    """(width, height, sha) per frame of ImageMagick's -coalesce; none when it refuses."""
    try:
        return imagemagick_frames(path)
    except subprocess.CalledProcessError:
        return []


def imagemagick_frames(path):
    sizes = subprocess.run(
        ["convert", path, "-coalesce", "+repage", "-format", "%w %h\n", "info:"],
        capture_output=True, text=True, check=True).stdout.split("\n")
    raw = subprocess.run(
        ["convert", path, "-coalesce", "+repage", "-depth", "8", "rgba:-"],
        capture_output=True, check=True).stdout
    frames, offset = [], 0
    for line in filter(None, sizes):
        width, height = map(int, line.split())
        size = width * height * 4
        frames.append((width, height, digest(raw[offset : offset + size])))
        offset += size
    return frames


def pillow(path):
    """(width, height, sha) per frame Pillow decodes, up to the first it cannot."""
    frames = []
    try:
        with Image.open(path) as image:
            for index in range(getattr(image, "n_frames", 1)):
                image.seek(index)
                rgba = image.convert("RGBA")
                frames.append((rgba.width, rgba.height, digest(rgba.tobytes())))
    except Exception:  # noqa: BLE001 -- any refusal is "missing" in the table
        pass
    return frames


def column(frames, index, width, height):
    if index >= len(frames):
        return "missing"
    w, h, sha = frames[index]
    return sha if (w, h) == (width, height) else f"size {w}x{h}"


def main():
    names = sorted(n for n in os.listdir(FOLDER) if n.endswith(".gif"))
    paths = [os.path.join(FOLDER, n) for n in names]
    chromium = {}
    for row in browser_frames.decode(paths):
        chromium[row["name"]] = row
    lines = ["file\tframe\twidth\theight\tdelay_ms\trepetitions\tchromium\timagemagick\tpillow"]
    for name, path in zip(names, paths):
        row = chromium[name]
        if "error" in row:
            # Refused by Chromium (frames before the error are not asked for): hexmask must
            # refuse it too.
            lines.append(f"{name}\terror\t{row['error']}")
            continue
        magick, pil = imagemagick(path), pillow(path)
        for index, frame in enumerate(row["frames"]):
            sha = digest(base64.b64decode(frame["rgba"]))
            width, height = frame["width"], frame["height"]
            lines.append("\t".join(map(str, [
                name, index, width, height, frame["duration"] // 1000, row["repetitions"], sha,
                column(magick, index, width, height), column(pil, index, width, height)])))
        for extra in range(len(row["frames"]), max(len(magick), len(pil))):
            lines.append(f"{name}\t{extra}\textra frame\t\t\t\tmissing\t"
                         f"{'present' if extra < len(magick) else 'missing'}\t"
                         f"{'present' if extra < len(pil) else 'missing'}")
    with open(os.path.join(FOLDER, "gif-frames.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    agree = {"imagemagick": 0, "pillow": 0}
    for line in lines[1:]:
        cells = line.split("\t")
        if cells[1] == "error":
            continue
        agree["imagemagick"] += cells[6] == cells[7]
        agree["pillow"] += cells[6] == cells[8]
    print(f"gif_references: {len(lines) - 1} frames; ImageMagick agrees with Chromium on "
          f"{agree['imagemagick']}, Pillow on {agree['pillow']}")


if __name__ == "__main__":
    main()
