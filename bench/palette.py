#!/usr/bin/python3
"""hexmask --colors N against pngquant N on the same pixels.

For each photo: hexmask's RGBA PNG at --size (the reference pixels), hexmask's palette PNG
from the photo with --colors N, and pngquant N on the RGBA PNG, without dithering
(--nofs, as hexmask does not by default) and with its default Floyd-Steinberg; hexmask
also with --dither (ordered). Prints, per
photo and on average: bytes, the mean squared error of premultiplied RGBA (per channel,
0-255 scale) against the RGBA PNG, the same after a σ ≈ 1 px blur of both (judges
dithering by the colour it shows), and on the edge (0 < alpha < 255 in the reference) the
mean and largest alpha error, the share of edge pixels within 1 alpha level, and that
share among the edge pixels whose alpha (±1) the file's palette holds (it
must be all of them).

  /usr/bin/python3 bench/palette.py HEXMASK [--size 256] [--colors 256,64] [--line 0]
      [--no-dither] [PHOTO ...]

--line is passed to hexmask for every file (0: no border, the photo meets the page with
its colours at many alphas); --no-dither leaves out the two dithered rows.

Needs pngquant, Pillow and numpy (Debian: pngquant python3-pil python3-numpy); photos
default to ../shared/corpus/photos/, else Fixtures/photos/rocket.jpg.
"""
import argparse
import glob
import os
import subprocess
import tempfile
import time

import struct
import zlib

import numpy as np
from PIL import Image

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rgba(path):
    return np.asarray(Image.open(path).convert("RGBA"), dtype=np.float64)


def premultiplied(pixels):
    out = pixels.copy()
    out[..., :3] *= pixels[..., 3:4] / 255
    return out


def palette_alphas(path):
    """The alpha of every palette entry (PLTE with tRNS) of a palette PNG."""
    with open(path, "rb") as f:
        data = f.read()
    at, entries, trns = 8, 0, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"PLTE":
            entries = length // 3
        elif kind == b"tRNS":
            trns = body
        at += 12 + length
    return set(trns[:entries]) | ({255} if entries > len(trns) else set())


def blurred(pixels):
    """A separable [1 4 6 4 1]/16 blur (σ ≈ 1 px), edges repeated: roughly what the eye
    averages at 1:1, so dithering is judged by the colour it shows, not by its noise."""
    kernel = np.array([1, 4, 6, 4, 1], dtype=np.float64) / 16
    out = pixels
    for axis in (0, 1):
        padded = np.pad(out, [(2, 2) if a == axis else (0, 0) for a in range(3)], mode="edge")
        size = out.shape[axis]
        out = sum(k * np.take(padded, range(i, i + size), axis=axis) for i, k in enumerate(kernel))
    return out


def compare(reference, path):
    ref, got = rgba(reference), rgba(path)
    mse = float(np.mean((premultiplied(ref) - premultiplied(got)) ** 2))
    blurred_mse = float(np.mean((blurred(premultiplied(ref)) - blurred(premultiplied(got))) ** 2))
    edge = (ref[..., 3] > 0) & (ref[..., 3] < 255)
    alpha = np.abs(ref[..., 3] - got[..., 3])[edge]
    levels = ref[..., 3][edge].astype(int)
    held_levels = np.zeros(258, dtype=bool)
    for level in palette_alphas(path):
        held_levels[level:level + 3] = True  # level ± 1, shifted by one
    held = held_levels[levels + 1]
    return {
        "blurred_mse": blurred_mse,
        "edge_held": float(np.mean(held)) if alpha.size else 1.0,
        "edge_within_1_held": float(np.mean(alpha[held] <= 1)) if held.any() else 1.0,
        "bytes": os.path.getsize(path),
        "mse": mse,
        "edge_alpha_mean": float(alpha.mean()) if alpha.size else 0.0,
        "edge_alpha_max": float(alpha.max()) if alpha.size else 0.0,
        "edge_within_1": float(np.mean(alpha <= 1)) if alpha.size else 1.0,
    }


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("hexmask")
    parser.add_argument("photos", nargs="*")
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--colors", default="256,64")
    parser.add_argument("--line", help="hexmask's --line for every file (e.g. 0)")
    parser.add_argument("--no-dither", action="store_true")
    args = parser.parse_args()
    extra = ["--line", args.line] if args.line is not None else []
    photos = args.photos or sorted(
        p for p in glob.glob(os.path.join(REPO, "..", "shared", "corpus", "photos", "*"))
        if not p.endswith(".txt")
    ) or [os.path.join(REPO, "Fixtures", "photos", "rocket.jpg")]
    tools = ["hexmask", "hexmask --dither", "pngquant --nofs", "pngquant (dithered)"]
    if args.no_dither:
        tools = ["hexmask", "pngquant --nofs"]
    with tempfile.TemporaryDirectory() as work:
        for colors in [int(c) for c in args.colors.split(",")]:
            rows = {tool: [] for tool in tools}
            times = {"rgba": 0.0, "palette": 0.0}
            print(f"\n## {colors} colours, {args.size} px, {len(photos)} photos"
                  f"{' ' + ' '.join(extra) if extra else ''}\n")
            print("| photo | RGBA bytes | tool | bytes | MSE (premul.) | edge α mean | edge α max "
                  "| edge within 1 | edge held | within 1 where held |")
            print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
            for photo in photos:
                name = os.path.basename(photo)
                full = os.path.join(work, "full.png")
                times["rgba"] += timed([args.hexmask, photo, full, "--size", str(args.size), "--force",
                                        *extra])
                outputs = {tool: os.path.join(work, f"{i}.png") for i, tool in enumerate(tools)}
                times["palette"] += timed([args.hexmask, photo, outputs["hexmask"], "--size",
                                           str(args.size), "--colors", str(colors), "--force",
                                           *extra])
                if "hexmask --dither" in tools:
                    timed([args.hexmask, photo, outputs["hexmask --dither"], "--size",
                           str(args.size), "--colors", str(colors), "--dither", "--force", *extra])
                for tool, flags in [("pngquant --nofs", ["--nofs"]), ("pngquant (dithered)", [])]:
                    if tool in tools:
                        subprocess.run(["pngquant", str(colors), *flags, "--strip", "--force",
                                        "--output", outputs[tool], full], check=True)
                for tool in tools:
                    r = compare(full, outputs[tool])
                    rows[tool].append(r)
                    print(f"| {name} | {os.path.getsize(full)} | {tool} | {r['bytes']} | "
                          f"{r['mse']:.2f} | {r['edge_alpha_mean']:.2f} | "
                          f"{r['edge_alpha_max']:.0f} | {r['edge_within_1']:.3f} | "
                          f"{r['edge_held']:.3f} | {r['edge_within_1_held']:.3f} |")
            print("\n| tool | mean bytes | mean MSE | bytes / pngquant --nofs "
                  "| MSE / pngquant --nofs | blurred MSE | edge within 1 | edge held "
                  "| within 1 where held |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
            base = rows["pngquant --nofs"]
            base_bytes = np.mean([r["bytes"] for r in base])
            base_mse = np.mean([r["mse"] for r in base])
            for tool in tools:
                b = np.mean([r["bytes"] for r in rows[tool]])
                m = np.mean([r["mse"] for r in rows[tool]])
                edge = {key: np.mean([r[key] for r in rows[tool]]) for key in
                        ("edge_within_1", "edge_held", "edge_within_1_held")}
                worst_held = min(r["edge_within_1_held"] for r in rows[tool])
                blur = np.mean([r["blurred_mse"] for r in rows[tool]])
                print(f"| {tool} | {b:.0f} | {m:.2f} | {b / base_bytes:.2f} | {m / base_mse:.2f} "
                      f"| {blur:.2f} | {edge['edge_within_1']:.3f} | {edge['edge_held']:.3f} "
                      f"| {edge['edge_within_1_held']:.3f} (lowest {worst_held:.3f}) |")
            print(f"\nhexmask time per photo: RGBA {times['rgba'] / len(photos):.3f} s, "
                  f"--colors {times['palette'] / len(photos):.3f} s")


if __name__ == "__main__":
    main()
