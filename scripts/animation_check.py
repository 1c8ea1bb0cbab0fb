#!/usr/bin/env python3
"""make chromium-check, animations: Chromium plays hexmask's animated WebP, APNG and JPEG XL
of a GIF
as the GIF plays, every frame cut into the still mask's shape.

    scripts/animation_check.py HEXMASK GIF WORK

Makes WORK/varied.gif (GIF with its three frames' delays set to 10, 200 and 70 ms, so one
plays by the "10 ms or less plays as 100 ms" rule), then with HEXMASK its animated WebP,
APNG and lossless JPEG XL at the GIF's own size and its `--mask-only` mask at that size, and has headless
Chromium decode them all (scripts/browser_frames.py, WebCodecs). Each output must have:
  - as many frames as the GIF, and as many distinct ones (a still, or frames lost or
    repeated, fails);
  - in every frame, alpha 0 at the four corners, and on the middle row and the middle
    column (the shape's edges and centre) the still mask's value within 1 (the photo is
    opaque, so the shape is all the alpha there is);
  - the GIF's total duration as Chromium plays it (delays of 10 ms or less as 100 ms)
    within one frame's delay (the shortest), and the GIF's repetition count.
Two controls must fail: the APNG with its animation chunks taken out (a still PNG of its
first frame), and the WebP with its last frame taken out.
Exit status 0 when the outputs pass and the controls fail; prints a line per file.
"""

import base64
import os
import struct
import subprocess
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_frames  # noqa: E402

# Centiseconds per frame for varied.gif: 1 cs is played as 100 ms.
DELAYS = [1, 20, 7]


def with_delays(gif, delays):
    """The GIF's bytes with its graphic control extensions' delays replaced, in order."""
    data = bytearray(gif)
    at, index = 13, 0
    if data[10] & 0x80:  # the global colour table
        at += 3 << ((data[10] & 7) + 1)
    while at < len(data) and data[at] != 0x3B:
        if data[at] == 0x21:  # extension: label, then sub-blocks
            if data[at + 1] == 0xF9 and data[at + 2] == 4:
                data[at + 4 : at + 6] = struct.pack("<H", delays[index])
                index += 1
            at += 2
        elif data[at] == 0x2C:  # frame: descriptor, local table, LZW code size, sub-blocks
            packed = data[at + 9]
            at += 10 + ((3 << ((packed & 7) + 1)) if packed & 0x80 else 0) + 1
        else:
            raise ValueError(f"unexpected GIF block 0x{data[at]:02x} at {at}")
        while data[at]:
            at += 1 + data[at]
        at += 1
    if index != len(delays):
        raise ValueError(f"the GIF has {index} graphic control extensions, not {len(delays)}")
    return bytes(data)


def png_without_animation(apng):
    """An APNG's bytes without acTL, fcTL and fdAT: the still PNG of its default image."""
    out, at = [apng[:8]], 8
    while at < len(apng):
        length = struct.unpack(">I", apng[at : at + 4])[0]
        if apng[at + 4 : at + 8] not in (b"acTL", b"fcTL", b"fdAT"):
            out.append(apng[at : at + 12 + length])
        at += 12 + length
    return b"".join(out)


def webp_without_last_frame(webp):
    """An animated WebP's bytes with its last ANMF chunk taken out."""
    chunks, at = [], 12
    while at < len(webp):
        length = struct.unpack("<I", webp[at + 4 : at + 8])[0]
        chunks.append(webp[at : at + 8 + length + (length & 1)])
        at += 8 + length + (length & 1)
    last = max(i for i, chunk in enumerate(chunks) if chunk[:4] == b"ANMF")
    body = b"WEBP" + b"".join(c for i, c in enumerate(chunks) if i != last)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def played_ms(row):
    """Each frame's delay as a browser plays it: 10 ms or less as 100 ms; a still's frame
    (no duration) plays for no time at all."""
    return [0 if f["duration"] is None else 100 if f["duration"] <= 10_000
            else f["duration"] / 1000 for f in row["frames"]]


def problems(row, reference, mask):
    """What is wrong with an output's frames against the GIF's (`reference`), as lines."""
    found = []
    if "error" in row:
        return [f"Chromium cannot decode it: {row['error']}"]
    frames, wanted = row["frames"], reference["frames"]
    if len(frames) != len(wanted):
        found.append(f"{len(frames)} frames, the GIF has {len(wanted)}")
    pixels = [base64.b64decode(f["rgba"]) for f in frames]
    distinct = len(set(browser_frames.canonical(p) for p in pixels))
    wanted_distinct = len(set(browser_frames.canonical(base64.b64decode(f["rgba"]))
                              for f in wanted))
    if distinct != wanted_distinct:
        found.append(f"{distinct} distinct frames, the GIF shows {wanted_distinct}")
    width, height = mask.size
    points = [(x, height // 2) for x in range(width)] + [(width // 2, y) for y in range(height)]
    corners = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]
    for index, (frame, rgba) in enumerate(zip(frames, pixels)):
        if (frame["width"], frame["height"]) != mask.size:
            found.append(f"frame {index} is {frame['width']}×{frame['height']}, not {mask.size}")
            continue
        alpha = lambda x, y: rgba[4 * (y * width + x) + 3]
        for x, y in corners:
            if alpha(x, y) != 0:
                found.append(f"frame {index}: alpha {alpha(x, y)} at the corner {x},{y}")
        off = [(x, y, alpha(x, y), mask.getpixel((x, y))) for x, y in points
               if abs(alpha(x, y) - mask.getpixel((x, y))) > 1]
        if off:
            x, y, got, want = off[0]
            found.append(f"frame {index}: alpha differs from the mask at {len(off)} of "
                         f"{len(points)} points (first {x},{y}: {got}, the mask {want})")
    total, wanted_total = sum(played_ms(row)), sum(played_ms(reference))
    slack = min(played_ms(reference))
    if abs(total - wanted_total) > slack:
        found.append(f"plays {total:.0f} ms, the GIF {wanted_total:.0f} ms (±{slack:.0f})")
    if row.get("repetitions") != reference.get("repetitions"):
        found.append(f"repeats {row.get('repetitions')} times, the GIF "
                     f"{reference.get('repetitions')}")
    return found


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    hexmask, source, work = argv
    path = lambda name: os.path.join(work, name)
    with open(source, "rb") as f:
        gif = with_delays(f.read(), DELAYS)
    with open(path("varied.gif"), "wb") as f:
        f.write(gif)
    side = min(struct.unpack("<HH", gif[6:10]))
    for name in ("moving.webp", "moving.png", "moving.jxl"):
        # Lossless JPEG XL: libjxl 0.7 codes a lossy one's alpha at the colour's distance,
        # a few levels off the mask at the edge.
        lossless = ["--lossless"] if name.endswith(".jxl") else []
        subprocess.run([hexmask, path("varied.gif"), path(name), "--size", str(side), "--quiet"]
                       + lossless, check=True)
    subprocess.run([hexmask, "--mask-only", "--size", str(side), path("mask.png"), "--quiet"],
                   check=True)
    mask = Image.open(path("mask.png")).convert("L")
    with open(path("moving.png"), "rb") as f:
        still = png_without_animation(f.read())
    with open(path("control-still.png"), "wb") as f:
        f.write(still)
    with open(path("moving.webp"), "rb") as f:
        shorter = webp_without_last_frame(f.read())
    with open(path("control-lost-frame.webp"), "wb") as f:
        f.write(shorter)
    names = ["varied.gif", "moving.webp", "moving.png", "moving.jxl", "control-still.png",
             "control-lost-frame.webp"]
    rows = {row["name"]: row for row in browser_frames.decode([path(n) for n in names])}
    reference = rows["varied.gif"]
    if "error" in reference or len(reference["frames"]) != len(DELAYS):
        print(f"  FAILED: Chromium does not play varied.gif as {len(DELAYS)} frames: "
              f"{reference.get('error', len(reference['frames']))}")
        return 1
    print(f"  the GIF: {len(DELAYS)} frames, {sum(played_ms(reference)):.0f} ms as played, "
          f"repeats {reference['repetitions']}")
    failed = False
    for name in ("moving.webp", "moving.png", "moving.jxl"):
        found = problems(rows[name], reference, mask)
        print(f"  hexmask's {name}: " + ("as the GIF plays, in the mask's shape" if not found
                                       else "FAILED: " + "; ".join(found)))
        failed = failed or bool(found)
    for name in ("control-still.png", "control-lost-frame.webp"):
        found = problems(rows[name], reference, mask)
        if found:
            print(f"  control {name} (must fail): as it should: " + "; ".join(found))
        else:
            print(f"  FAILED: the control {name} passed: the check cannot tell")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
