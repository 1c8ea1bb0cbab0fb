#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""AVIF against WebP on 256² avatars: bytes and SSIM.

    bench/avif_bench.py HEXMASK [PHOTO...] [--size 256] [--sweep] [--qualities 50,70,90]
                          [--efforts 1,3,5,9]

For each photo (default: the corpus photos, ../shared/corpus/photos/, else the bundled
rocket.jpg) hexmask writes the avatar as PNG (the reference), as WebP and as AVIF at their
defaults. Each is flattened on grey (#808080) with vips, and SSIM is taken against the
flattened PNG: Wang et al.'s SSIM with an 11×11 Gaussian window (σ 1.5), K1 0.01, K2 0.03,
averaged over R, G and B, and SSIMULACRA2 on the same flattened pictures when the
`ssimulacra2` package (PyPI, BSD-3-Clause, numpy + scipy + Pillow) can be imported. Debian
marks its Python as externally managed, so install it in a virtual environment and run this
script with that environment's Python:

    python3 -m venv /tmp/s2 && /tmp/s2/bin/pip install ssimulacra2
    /tmp/s2/bin/python bench/avif_bench.py .build/release/hexmask

Prints a Markdown table and the means.

With --qualities, hexmask writes WebP at each of those qualities and AVIF at every
`--quality` from 20 to 100 (each a different libheif quality, see encoderQuality in
AVIFWriter.swift), and prints, for each WebP quality, the AVIF quality whose mean SSIM is
nearest to WebP's, with its libheif quality: how the quality table was placed.

With --efforts, hexmask also writes the AVIF at each of those `--effort`s (-j 1), and
prints their mean bytes, SSIM, SSIMULACRA2 and time per run: how the default was chosen.

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

try:
    from ssimulacra2 import compute_ssimulacra2
except ImportError:  # the SSIMULACRA2 columns are left out
    compute_ssimulacra2 = None

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus_photos():
    folder = os.path.normpath(os.path.join(REPO, "..", "shared", "corpus", "photos"))
    photos = sorted(
        p for p in glob.glob(os.path.join(folder, "*")) if not p.endswith("MANIFEST.txt"))
    return photos or [os.path.join(REPO, "Fixtures", "photos", "rocket.jpg")]


def flattened(path, work):
    """The picture at `path` flattened on grey, as a float array (h, w, 3); the flattened
    picture stays in `work` as `path`'s name + .ppm."""
    out = os.path.join(work, os.path.basename(path) + ".ppm")
    # Debian's vips may lack the HEIF module, and its JPEG XL loader is libjxl's: AVIF and
    # JPEG XL are decoded to PNG by their libraries' own tools first (libjxl in sRGB).
    decoders = {".avif": ["heif-convert", path], ".jxl": ["djxl", path]}
    extension = os.path.splitext(path)[1].lower()
    if extension in decoders:
        png = os.path.join(work, os.path.basename(path) + ".png")
        options = ["--color_space=RGB_D65_SRG_Rel_SRG", "--quiet"] if extension == ".jxl" else []
        subprocess.run(decoders[extension] + [png] + options, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        path = png
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


def ssimulacra2(reference, path, work):
    """SSIMULACRA2 of `path` against `reference`, both flattened by `flattened` before; None
    without the package."""
    if compute_ssimulacra2 is None:
        return None
    ppm = lambda p: os.path.join(work, os.path.basename(p) + ".ppm")
    return float(compute_ssimulacra2(ppm(reference), ppm(path)))


# AVIFWriter.qualityPoints, kept equal by hand: (hexmask quality, libheif quality).
QUALITY_POINTS = [(1, 1), (50, 43), (60, 46), (70, 49), (80, 57), (90, 78), (95, 90), (100, 100)]


def libheif_quality(quality):
    """AVIFWriter.encoderQuality: the libheif quality hexmask uses for `quality`."""
    q = min(max(quality, 1), 100)
    for (lq, lh), (hq, hh) in zip(QUALITY_POINTS, QUALITY_POINTS[1:]):
        if q <= hq:
            span = hq - lq
            return lh + ((q - lq) * (hh - lh) + span // 2) // span
    return 100


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
    qualities = []
    if "--qualities" in args:
        at = args.index("--qualities")
        qualities = [int(q) for q in args[at + 1].split(",")]
        del args[at : at + 2]
    efforts = []
    if "--efforts" in args:
        at = args.index("--efforts")
        efforts = [int(e) for e in args[at + 1].split(",")]
        del args[at : at + 2]
    photos = args or corpus_photos()  # after the options are taken out of args
    rows, sweeps, table = [], {}, {}
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
                row[key + "_s2"] = ssimulacra2(png, path, work)
            rows.append(row)
            for effort in efforts:
                out = os.path.join(work, f"{name}-e{effort}.avif")
                seconds = run([hexmask, photo, out, "--size", size, "--force", "-j", "1",
                               "--effort", str(effort)])
                table.setdefault(("effort", effort), []).append(
                    (os.path.getsize(out), ssim(reference, flattened(out, work)),
                     ssimulacra2(png, out, work), seconds))
            for q in qualities:
                for fmt, qs in (("webp", [q]), ("avif", range(20, 101, 2) if q == qualities[0] else [])):
                    for aq in qs:
                        out = os.path.join(work, f"{name}-q{aq}.{fmt}")
                        run([hexmask, photo, out, "--size", size, "--force", "--quality", str(aq)])
                        table.setdefault((fmt, aq), []).append(
                            (os.path.getsize(out), ssim(reference, flattened(out, work)),
                             ssimulacra2(png, out, work)))
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
    s2 = lambda value: "–" if value is None else f"{value:.1f}"
    print(f"| photo ({size} px) | WebP bytes | WebP SSIM | WebP SSIMULACRA2 | AVIF bytes | "
          "AVIF SSIM | AVIF SSIMULACRA2 | AVIF/WebP | AVIF time |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['photo']} | {r['webp']} | {r['webp_ssim']:.4f} | {s2(r['webp_s2'])} | "
              f"{r['avif']} | {r['avif_ssim']:.4f} | {s2(r['avif_s2'])} | "
              f"{r['avif'] / r['webp']:.2f} | {r['avif_s']:.2f} s |")
    mean = lambda key: sum(r[key] for r in rows) / len(rows)
    mean2 = lambda key: None if rows[0][key] is None else mean(key)
    print(f"| **mean** | {mean('webp'):.0f} | {mean('webp_ssim'):.4f} | {s2(mean2('webp_s2'))} | "
          f"{mean('avif'):.0f} | {mean('avif_ssim'):.4f} | {s2(mean2('avif_s2'))} | "
          f"{mean('avif') / mean('webp'):.2f} | {mean('avif_s'):.2f} s |")
    if efforts:
        print()
        print("| `--effort` | libaom speed | mean bytes | mean SSIM | mean SSIMULACRA2 | mean run |")
        print("|---:|---:|---:|---:|---:|---:|")
        for effort in efforts:
            values = table[("effort", effort)]
            m = lambda i: sum(v[i] for v in values) / len(values)
            print(f"| {effort} | {9 - effort} | {m(0):.0f} | {m(1):.4f} | "
                  f"{s2(None if values[0][2] is None else m(2))} | {m(3):.2f} s |")
    if qualities:
        means = {key: tuple(None if v[0][i] is None else sum(x[i] for x in v) / len(v)
                            for i in range(3)) for key, v in table.items() if key[0] != "effort"}
        print()
        print("| WebP quality | WebP bytes | WebP SSIM | WebP SSIMULACRA2 | AVIF quality at that "
              "SSIM | AVIF bytes | AVIF SSIM | AVIF SSIMULACRA2 | AVIF/WebP |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for q in qualities:
            wb, ws, w2 = means[("webp", q)]
            aq = min(range(20, 101, 2), key=lambda aq: abs(means[("avif", aq)][1] - ws))
            ab, as_, a2 = means[("avif", aq)]
            print(f"| {q} | {wb:.0f} | {ws:.4f} | {s2(w2)} | {aq} (libheif "
                  f"{libheif_quality(aq)}) | {ab:.0f} | {as_:.4f} | "
                  f"{s2(a2)} | {ab / wb:.2f} |")
        print()
        print("| AVIF `--quality` | libheif quality | mean bytes | mean SSIM | mean SSIMULACRA2 |")
        print("|---:|---:|---:|---:|---:|")
        for aq in range(20, 101, 2):
            ab, as_, a2 = means[("avif", aq)]
            print(f"| {aq} | {libheif_quality(aq)} | {ab:.0f} | {as_:.4f} | {s2(a2)} |")
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
