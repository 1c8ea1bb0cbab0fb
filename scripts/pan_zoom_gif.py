#!/usr/bin/env python3
"""An animated GIF with real motion, made from a still photo: a slow zoom and pan across
it, each frame quantised to its own 256-colour palette (median cut, Floyd–Steinberg
dithering), as GIFs made from video look. Deterministic: the same Pillow gives the same
bytes.

    scripts/pan_zoom_gif.py PHOTO OUTPUT.gif [--frames 100] [--side 480] [--delay 40]
        [--colors 256]

Used by `make bench` (its animation job: bench/run.py) and `make gallery` (the moving
avatar). Needs Pillow (python3-pil).
"""

import argparse
import math

from PIL import Image


def frames(photo, count, side, colors):
    """`count` side² frames: the window starts as the largest centred square of the photo
    and ends at 60 % of it, drifting from left of centre to right of it and back up a
    little, eased so the motion starts and stops gently."""
    width, height = photo.size
    largest = min(width, height)
    for index in range(count):
        t = index / max(count - 1, 1)
        eased = (1 - math.cos(math.pi * t)) / 2
        window = largest * (1 - 0.4 * eased)
        spare_x, spare_y = width - window, height - window
        left = spare_x * (0.5 + 0.4 * (eased - 0.5) if spare_x > 0 else 0.5)
        top = spare_y * (0.5 - 0.3 * math.sin(math.pi * t))
        box = (left, top, left + window, top + window)
        frame = photo.resize((side, side), Image.Resampling.LANCZOS, box=box)
        yield frame.quantize(colors, method=Image.Quantize.MEDIANCUT,
                             dither=Image.Dither.FLOYDSTEINBERG)


def make(photo_path, output, count=100, side=480, delay=40, colors=256):
    photo = Image.open(photo_path).convert("RGB")
    photo.info.clear()  # no JPEG comment carried into the GIF
    first, *rest = frames(photo, count, side, colors)
    # optimize=False: each frame keeps its own full palette, as a converter writing one
    # palette per frame does; disposal 1 (leave in place), every frame covers the canvas.
    first.save(output, format="GIF", save_all=True, append_images=rest, duration=delay, loop=0,
               optimize=False, disposal=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("photo")
    parser.add_argument("output")
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--side", type=int, default=480)
    parser.add_argument("--delay", type=int, default=40, help="milliseconds per frame")
    parser.add_argument("--colors", type=int, default=256)
    args = parser.parse_args()
    make(args.photo, args.output, args.frames, args.side, args.delay, args.colors)


if __name__ == "__main__":
    main()
