#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""AVIF against WebP on 256² avatars: bytes and SSIM (issue 22, part 2).

    scripts/avif_bench.py HEXMASK [PHOTO...] [--size 256] [--sweep]

For each photo (default: the corpus photos, ../shared/corpus/photos/, else the bundled
rocket.jpg) hexmask writes the avatar as PNG (the reference), as WebP and as AVIF at their
defaults. Each is flattened on grey (#808080) with vips, and SSIM is taken against the
flattened PNG: Wang et al.'s SSIM with an 11×11 Gaussian window (σ 1.5), K1 0.01, K2 0.03,
averaged over R, G and B. Prints a Markdown table and the means.

With --sweep, the PNG is also encoded with heif-enc (the same libheif and libaom) at a
range of libheif qualities and speeds, which is how the quality table and the speed in
AVIFWriter.swift were chosen.

Needs numpy and vips (for the flattening and the AVIF and WebP decoders).
"""
import glob
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus_photos():
    folder = os.path.normpath(os.path.join(REPO, "..", "shared", "corpus", "photos"))
    photos = sorted(
        p for p in glob.glob(os.path.join(folder, "*")) if not p.endswith("MANIFEST.txt"))
    return photos or [os.path.join(REPO, "Fixtures", "photos", "rocket.jpg")]


def flattened(path, work):
    """The picture at `path` flattened on grey, as a float array (h, w, 3)."""
    out = os.path.join(work, "flat.ppm")
    subprocess.run(["vips", "flatten", path, out, "--background", "128 128 128"], check=True)
    with open(out, "rb") as f:
        data = f.read()
    # P6 header: magic, width, height, maxval, each followed by whitespace.
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace() or data[at:at + 1] == b"#":
            if data[at:at + 1] == b"#":  # a comment, to the end of its line
                at = data.index(b"\n", at)
            at += 1
        start = at
        while not data[at:at + 1].isspace():
            at += 1
        fields.append(data[start:at])
    width, height = int(fields[1]), int(fields[2])
    pixels = np.frombuffer(data[at + 1:], dtype=np.uint8)[: width * height * 3]
    return pixels.reshape(height, width, 3).astype(np.float64)


def gaussian_filter(image, sigma=1.5, radius=5):
    x = np.arange(-radius, radius + 1)
    kernel = np.exp(-(x * x) / (2 * sigma * sigma))
    kernel /= kernel.sum()
    # "valid" convolution, rows then columns.
    rows = np.apply_along_axis(lambda r: np.convolve(r, kernel, mode="valid"), 1, image)
    return np.apply_along_axis(lambda c: np.convolve(c, kernel, mode="valid"), 0, rows)


def ssim(a, b):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    scores = []
    for channel in range(3):
        x, y = a[:, :, channel], b[:, :, channel]
        mx, my = gaussian_filter(x), gaussian_filter(y)
        sxx = gaussian_filter(x * x) - mx * mx
        syy = gaussian_filter(y * y) - my * my
        sxy = gaussian_filter(x * y) - mx * my
        value = ((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))
        scores.append(value.mean())
    return float(np.mean(scores))


def run(command):
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - start


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    hexmask, args = args[0], args[1:]
    size, sweep = "256", False
    if "--sweep" in args:
        sweep = True
        args.remove("--sweep")
    if "--size" in args:
        at = args.index("--size")
        size = args[at + 1]
        del args[at : at + 2]
    photos = args or corpus_photos()
    rows, sweeps = [], {}
    with tempfile.TemporaryDirectory() as work:
        for photo in photos:
            name = os.path.splitext(os.path.basename(photo))[0]
            png, webp, avif = (os.path.join(work, f"{name}.{e}") for e in ("png", "webp", "avif"))
            run([hexmask, photo, png, "--size", size, "--force"])
            run([hexmask, photo, webp, "--size", size, "--force"])
            seconds = run([hexmask, photo, avif, "--size", size, "--force"])
            reference = flattened(png, work)
            row = {"photo": name, "avif_s": seconds}
            for key, path in (("webp", webp), ("avif", avif)):
                row[key] = os.path.getsize(path)
                row[key + "_ssim"] = ssim(reference, flattened(path, work))
            rows.append(row)
            if sweep:
                for speed in (6, 4, 3):
                    for q in range(30, 81, 5):
                        out = os.path.join(work, f"{name}-{speed}-{q}.avif")
                        seconds = run(["heif-enc", "-q", str(q), "-p", f"speed={speed}",
                                       "-p", "chroma=420", "-p", "lossless-alpha=true",
                                       "-p", "threads=4", png, "-o", out])
                        sweeps.setdefault((speed, q), []).append(
                            (os.path.getsize(out), ssim(reference, flattened(out, work)),
                             seconds))
    print(f"| photo ({size} px) | WebP bytes | WebP SSIM | AVIF bytes | AVIF SSIM | AVIF/WebP | AVIF time |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['photo']} | {r['webp']} | {r['webp_ssim']:.4f} | {r['avif']} | "
              f"{r['avif_ssim']:.4f} | {r['avif'] / r['webp']:.2f} | {r['avif_s']:.2f} s |")
    mean = lambda key: sum(r[key] for r in rows) / len(rows)
    print(f"| **mean** | {mean('webp'):.0f} | {mean('webp_ssim'):.4f} | {mean('avif'):.0f} | "
          f"{mean('avif_ssim'):.4f} | {mean('avif') / mean('webp'):.2f} | {mean('avif_s'):.2f} s |")
    if sweep:
        print()
        print("| speed | libheif quality | mean bytes | × WebP | mean SSIM | mean time |")
        print("|---:|---:|---:|---:|---:|---:|")
        for (speed, q), values in sorted(sweeps.items()):
            b = sum(v[0] for v in values) / len(values)
            s = sum(v[1] for v in values) / len(values)
            t = sum(v[2] for v in values) / len(values)
            print(f"| {speed} | {q} | {b:.0f} | {b / mean('webp'):.2f} | {s:.4f} | {t:.2f} s |")


if __name__ == "__main__":
    main()
