#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""docs/web.md's table of outputs: bytes and quality of one avatar in every output hexmask
writes, next to pngquant on the same pixels.

    /usr/bin/python3 bench/outputs_table.py HEXMASK [PHOTO] [--size 256]

PHOTO defaults to the gallery's photo, Fixtures/photos/rocket.jpg. hexmask writes the
avatar as an RGBA PNG (the reference) and in each other form; pngquant (without dithering,
and with its default Floyd–Steinberg) quantizes the reference PNG. Each row gives the bytes,
the mean squared error of premultiplied RGBA against the reference (per channel, 0–255),
SSIM on the picture flattened on grey (#808080), as bench/avif_bench.py measures it, and
the share of the anti-aliased edge (0 < alpha < 255 in the reference) whose alpha is within
1 level of the reference's. Prints a Markdown table.

Needs Pillow, numpy, pngquant and heif-convert (Debian: python3-pil python3-numpy pngquant
libheif-examples); Pillow 9 reads no AVIF, so AVIF is decoded to PNG by heif-convert.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from avif_bench import ssim  # noqa: E402  (the same SSIM as the AVIF measurements)

# (label, hexmask options, output extension); None as options: pngquant on the reference.
ROWS = [
    ("PNG (RGBA, the default)", [], "png"),
    ("PNG `--colors 256`", ["--colors", "256"], "png"),
    ("pngquant 256 `--nofs`", ("pngquant", ["256", "--nofs"]), "png"),
    ("PNG `--colors 64`", ["--colors", "64"], "png"),
    ("pngquant 64 `--nofs`", ("pngquant", ["64", "--nofs"]), "png"),
    ("PNG `--colors 64 --dither`", ["--colors", "64", "--dither"], "png"),
    ("pngquant 64 (dithered)", ("pngquant", ["64"]), "png"),
    ("WebP (q 90, the default)", [], "webp"),
    ("WebP `--quality 80`", ["--quality", "80"], "webp"),
    ("AVIF (q 90, the default)", [], "avif"),
    ("AVIF `--quality 80`", ["--quality", "80"], "avif"),
    ("WebP `--lossless`", ["--lossless"], "webp"),
    ("AVIF `--lossless`", ["--lossless"], "avif"),
]


def rgba(path, work):
    if path.endswith(".avif"):
        png = os.path.join(work, "decoded.png")
        subprocess.run(["heif-convert", path, png], check=True, stdout=subprocess.DEVNULL)
        path = png
    return np.asarray(Image.open(path).convert("RGBA"), dtype=np.float64)


def premultiplied(pixels):
    out = pixels.copy()
    out[..., :3] *= pixels[..., 3:4] / 255
    return out


def on_grey(pixels):
    alpha = pixels[..., 3:4] / 255
    return pixels[..., :3] * alpha + 128 * (1 - alpha)


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    size = "256"
    if "--size" in args:
        at = args.index("--size")
        size = args[at + 1]
        del args[at : at + 2]
    hexmask = os.path.abspath(args[0])
    photo = args[1] if len(args) > 1 else os.path.join(REPO, "Fixtures", "photos", "rocket.jpg")
    with tempfile.TemporaryDirectory() as work:
        reference_path = os.path.join(work, "reference.png")
        subprocess.run([hexmask, photo, reference_path, "--size", size], check=True)
        reference = rgba(reference_path, work)
        flat_reference = on_grey(reference)
        png_bytes = os.path.getsize(reference_path)
        edge = (reference[..., 3] > 0) & (reference[..., 3] < 255)
        print(f"| {os.path.basename(photo)} at {size} px | bytes | × PNG | premultiplied MSE "
              "| SSIM on grey | edge α within 1 |")
        print("|---|---:|---:|---:|---:|---:|")
        for number, (label, options, extension) in enumerate(ROWS):
            out = os.path.join(work, f"{number}.{extension}")
            if isinstance(options, tuple):
                tool, tool_options = options
                subprocess.run([tool, *tool_options, "--output", out, "--", reference_path],
                               check=True)
            else:
                subprocess.run([hexmask, photo, out, "--size", size, *options], check=True)
            pixels = rgba(out, work)
            mse = float(np.mean((premultiplied(reference) - premultiplied(pixels)) ** 2))
            score = ssim(flat_reference, on_grey(pixels))
            within = np.mean(np.abs(reference[..., 3] - pixels[..., 3])[edge] <= 1)
            size_bytes = os.path.getsize(out)
            print(f"| {label} | {size_bytes:,} | {size_bytes / png_bytes:.2f} | {mse:.2f} "
                  f"| {score:.4f} | {within:.0%} |")


if __name__ == "__main__":
    main()
