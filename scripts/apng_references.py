#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Reference frames of the APNG fixtures, from two decoders: Chromium and Pillow.

    scripts/apng_references.py   (from the repository root)

For every Fixtures/animation/apng-*.png: Chromium's composited frames (WebCodecs, through
scripts/apng_chromium_frames.py) are written as Fixtures/animation/apng-reference/NAME-K.png
(straight RGBA), and one row per frame goes to Fixtures/animation/apng-reference.tsv: the
delay in ms Chromium reports, the loop count (acTL's num_plays, from Chromium's repetition
count + 1, 0 for forever), and how far Pillow's frame is from Chromium's (the largest
channel difference, where either pixel is visible; alpha only where both are transparent),
and the same for FFmpeg's APNG decoder (when `ffmpeg` is installed).
Chromium decides (a frame is what a browser shows); Pillow's column only says where it agrees.
"""
import glob
import json
import os
import subprocess
import sys

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Fixtures", "animation")
OUT = os.path.join(FIXTURES, "apng-reference")


def distance(a, b):
    worst = 0
    for p, q in zip(a.get_flattened_data(), b.get_flattened_data()):
        if p[3] == 0 and q[3] == 0:
            continue
        worst = max(worst, max(abs(x - y) for x, y in zip(p, q)))
    return worst


def pillow_frames(path):
    """Pillow's frames and delays; the frames it cannot decode are None."""
    im = Image.open(path)
    frames = []
    for i in range(getattr(im, "n_frames", 1)):
        try:
            im.seek(i)
            frames.append((im.convert("RGBA"), im.info.get("duration")))
        except (OSError, TypeError, ValueError) as error:  # e.g. 16-bit Adam7 RGBA
            frames.append((None, f"cannot decode: {error}"))
    return frames


def ffmpeg_frames(path, size):
    """FFmpeg's composited frames (its own APNG decoder), or the reason it has none."""
    run = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba",
         "-fps_mode", "passthrough", "-"], capture_output=True)
    frame_bytes = size[0] * size[1] * 4
    if run.returncode != 0 or not run.stdout:
        return run.stderr.decode(errors="replace").splitlines()[0] if run.stderr else "failed"
    return [Image.frombytes("RGBA", size, run.stdout[i:i + frame_bytes])
            for i in range(0, len(run.stdout) - frame_bytes + 1, frame_bytes)]


def main():
    files = sorted(f for f in glob.glob(os.path.join(FIXTURES, "apng-*.png")))
    chromium = json.loads(subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "apng_chromium_frames.py")] + files,
        capture_output=True, text=True, check=True).stdout)
    os.makedirs(OUT, exist_ok=True)
    rows = ["file\tframe\tchromium_ms\tloop\tpillow_frames\tpillow_ms\tpillow_max_diff"
            "\tffmpeg_max_diff"]
    for path in files:
        name = os.path.basename(path)
        result = chromium[name]
        if "error" in result:
            sys.exit(f"{name}: chromium: {result['error']}")
        loop = 0 if result["repetition"] == float("inf") or result["repetition"] is None \
            else result["repetition"] + 1
        pillow = pillow_frames(path)
        first = result["list"][0]
        ffmpeg = ffmpeg_frames(path, (first["width"], first["height"]))
        for index, frame in enumerate(result["list"]):
            size = (frame["width"], frame["height"])
            image = Image.frombytes("RGBA", size, bytes.fromhex(frame["rgba"]))
            image.save(os.path.join(OUT, f"{name[:-4]}-{index}.png"), optimize=True)
            p_image, p_ms = pillow[index] if index < len(pillow) else (None, None)
            diff = distance(image, p_image) if p_image is not None else "missing"
            if p_image is None and index < len(pillow):
                diff, p_ms = "undecodable", None
            if isinstance(ffmpeg, str):
                f_diff = "undecodable"
            else:
                f_diff = distance(image, ffmpeg[index]) if index < len(ffmpeg) else "missing"
            rows.append(f"{name}\t{index}\t{frame['duration'] // 1000}\t{loop}\t{len(pillow)}"
                        f"\t{p_ms}\t{diff}\t{f_diff}")
    with open(os.path.join(FIXTURES, "apng-reference.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    print("\n".join(rows))


main()
