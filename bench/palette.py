#!/usr/bin/python3
"""hexmask --colors N against pngquant N on the same pixels (issue 22, part 1).

For each photo: hexmask's RGBA PNG at --size (the reference pixels), hexmask's palette PNG
from the photo with --colors N, and pngquant N on the RGBA PNG, without dithering
(--nofs, as hexmask does not by default) and with its default Floyd-Steinberg; hexmask
also with --dither (ordered). Prints, per
photo and on average: bytes, the mean squared error of premultiplied RGBA (per channel,
0-255 scale) against the RGBA PNG, and on the edge (0 < alpha < 255 in the reference) the
mean and largest alpha error and the share of edge pixels within 1 alpha level.

  /usr/bin/python3 bench/palette.py HEXMASK [--size 256] [--colors 256,64] [PHOTO ...]

Needs pngquant, Pillow and numpy (Debian: pngquant python3-pil python3-numpy); photos
default to ../shared/corpus/photos/, else Fixtures/photos/rocket.jpg.
"""
import argparse
import glob
import os
import subprocess
import tempfile
import time

import numpy as np
from PIL import Image

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rgba(path):
    return np.asarray(Image.open(path).convert("RGBA"), dtype=np.float64)


def premultiplied(pixels):
    out = pixels.copy()
    out[..., :3] *= pixels[..., 3:4] / 255
    return out


def compare(reference, path):
    ref, got = rgba(reference), rgba(path)
    mse = float(np.mean((premultiplied(ref) - premultiplied(got)) ** 2))
    edge = (ref[..., 3] > 0) & (ref[..., 3] < 255)
    alpha = np.abs(ref[..., 3] - got[..., 3])[edge]
    return {
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
    args = parser.parse_args()
    photos = args.photos or sorted(
        p for p in glob.glob(os.path.join(REPO, "..", "shared", "corpus", "photos", "*"))
        if not p.endswith(".txt")
    ) or [os.path.join(REPO, "Fixtures", "photos", "rocket.jpg")]
    tools = ["hexmask", "hexmask --dither", "pngquant --nofs", "pngquant (dithered)"]
    with tempfile.TemporaryDirectory() as work:
        for colors in [int(c) for c in args.colors.split(",")]:
            rows = {tool: [] for tool in tools}
            times = {"rgba": 0.0, "palette": 0.0}
            print(f"\n## {colors} colours, {args.size} px, {len(photos)} photos\n")
            print("| photo | RGBA bytes | tool | bytes | MSE (premul.) | edge α mean | edge α max | edge within 1 |")
            print("|---|---:|---|---:|---:|---:|---:|---:|")
            for photo in photos:
                name = os.path.basename(photo)
                full = os.path.join(work, "full.png")
                times["rgba"] += timed([args.hexmask, photo, full, "--size", str(args.size), "--force"])
                outputs = {tool: os.path.join(work, f"{i}.png") for i, tool in enumerate(tools)}
                times["palette"] += timed([args.hexmask, photo, outputs["hexmask"], "--size",
                                           str(args.size), "--colors", str(colors), "--force"])
                timed([args.hexmask, photo, outputs["hexmask --dither"], "--size", str(args.size),
                       "--colors", str(colors), "--dither", "--force"])
                for tool, extra in [("pngquant --nofs", ["--nofs"]), ("pngquant (dithered)", [])]:
                    subprocess.run(["pngquant", str(colors), *extra, "--strip", "--force",
                                    "--output", outputs[tool], full], check=True)
                for tool in tools:
                    r = compare(full, outputs[tool])
                    rows[tool].append(r)
                    print(f"| {name} | {os.path.getsize(full)} | {tool} | {r['bytes']} | "
                          f"{r['mse']:.2f} | {r['edge_alpha_mean']:.2f} | "
                          f"{r['edge_alpha_max']:.0f} | {r['edge_within_1']:.3f} |")
            print("\n| tool | mean bytes | mean MSE | bytes / pngquant --nofs | MSE / pngquant --nofs |")
            print("|---|---:|---:|---:|---:|")
            base = rows["pngquant --nofs"]
            base_bytes = np.mean([r["bytes"] for r in base])
            base_mse = np.mean([r["mse"] for r in base])
            for tool in tools:
                b = np.mean([r["bytes"] for r in rows[tool]])
                m = np.mean([r["mse"] for r in rows[tool]])
                print(f"| {tool} | {b:.0f} | {m:.2f} | {b / base_bytes:.2f} | {m / base_mse:.2f} |")
            print(f"\nhexmask time per photo: RGBA {times['rgba'] / len(photos):.3f} s, "
                  f"--colors {times['palette'] / len(photos):.3f} s")


if __name__ == "__main__":
    main()
