#!/usr/bin/env python3
"""Reference frames of the animated WebP fixtures (Fixtures/animation/webp-*.webp), from
Chromium and Pillow, for AnimatedWebPTests.

    scripts/webp_references.py   (from the repository root)

Chromium's composited frames (WebCodecs ImageDecoder through scripts/browser_frames.py,
straight RGBA, no colour conversion) are written as
Fixtures/animation/webp-reference/NAME-K.png, and one row per frame goes to
Fixtures/animation/webp-reference.tsv: file, frame, width, height, the stored delay in ms
as WebCodecs reports it, the loop count (WebP's ANIM loop count: Chromium's
repetitionCount + 1, 0 for forever), and the largest channel difference of Pillow's frame
from Chromium's where either pixel is visible. Pillow composites through libwebp's
WebPAnimDecoder, the decoder libwebp's `anim_dump` uses (Debian's `webp` package does not
ship anim_dump), so its column is libwebp's answer. Where the two differ, Chromium's frame
is the reference, as for every animation (docs/formats.md, "Frames as a browser shows them").
"""

import base64
import os
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_frames  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "Fixtures", "animation")
OUT = os.path.join(FOLDER, "webp-reference")


def difference(a, b):
    worst = 0
    for p in range(0, len(a), 4):
        if a[p + 3] == 0 and b[p + 3] == 0:
            continue
        worst = max(worst, max(abs(a[p + c] - b[p + c]) for c in range(4)))
    return worst


def pillow_frames(path):
    frames = []
    with Image.open(path) as image:
        for index in range(image.n_frames):
            image.seek(index)
            frames.append(image.convert("RGBA").tobytes())
    return frames


def main():
    names = sorted(n for n in os.listdir(FOLDER) if n.startswith("webp-") and n.endswith(".webp"))
    paths = [os.path.join(FOLDER, n) for n in names]
    os.makedirs(OUT, exist_ok=True)
    lines = ["file\tframe\twidth\theight\tdelay_ms\tloop\tpillow_difference"]
    for name, path, row in zip(names, paths, browser_frames.decode(paths)):
        assert row["name"] == name, row
        if "error" in row:
            lines.append(f"{name}\terror\t{row['error']}")
            continue
        loop = 0 if row["repetitions"] == "inf" else row["repetitions"] + 1
        pil = pillow_frames(path)
        for index, frame in enumerate(row["frames"]):
            rgba = base64.b64decode(frame["rgba"])
            width, height = frame["width"], frame["height"]
            Image.frombytes("RGBA", (width, height), rgba).save(
                os.path.join(OUT, f"{name[:-5]}-{index}.png"), optimize=True)
            theirs = difference(rgba, pil[index]) if index < len(pil) else "missing"
            lines.append("\t".join(map(str, [
                name, index, width, height, frame["duration"] // 1000, loop, theirs])))
    with open(os.path.join(FOLDER, "webp-reference.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
