#!/usr/bin/env python3
"""Makes the APNG fixtures of APNGTests with Pillow (and apngasm when installed).

Run from the repository root: python3 Fixtures/animation/make_apng_fixtures.py
Every frame has partly transparent pixels, so blend OVER and SOURCE give different
pictures; the frames move, so Pillow stores rectangles smaller than the canvas.
"""
import os
import struct
import zlib
import shutil
import subprocess
import tempfile

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import Blend, Disposal

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 32, 20


def frame(index, background=(0, 0, 0, 0)):
    im = Image.new("RGBA", (W, H), background)
    draw = ImageDraw.Draw(im)
    x = 2 + 4 * index
    draw.rectangle([x, 3, x + 7, 12], fill=(220, 40 + 40 * index, 30, 255))
    draw.ellipse([18 - 2 * index, 8, 27 - 2 * index, 17], fill=(20, 90, 230, 128))
    draw.line([6, H - 1 - index, 17, index], fill=(250, 250, 0, 70), width=2)
    return im


def save(name, frames, **options):
    path = os.path.join(HERE, name)
    frames[0].save(path, save_all=True, append_images=frames[1:], **options)
    print(name, os.path.getsize(path), "bytes")


# Every dispose and blend operation, delays of 0, 5 and 1000/3 ms among them.
save("apng-dispose-blend.png", [frame(i) for i in range(6)],
     duration=[100, 0, 5, 333, 60, 250], loop=0,
     disposal=[Disposal.OP_NONE, Disposal.OP_BACKGROUND, Disposal.OP_PREVIOUS,
               Disposal.OP_NONE, Disposal.OP_PREVIOUS, Disposal.OP_BACKGROUND],
     blend=[Blend.OP_SOURCE, Blend.OP_OVER, Blend.OP_OVER, Blend.OP_SOURCE,
            Blend.OP_OVER, Blend.OP_OVER])

# The default image (an opaque gray card) is not part of the animation; 3 plays.
save("apng-hidden-default.png",
     [Image.new("RGBA", (W, H), (128, 128, 128, 255))] + [frame(i) for i in range(4)],
     default_image=True, duration=[40, 80, 120, 160], loop=3,
     disposal=Disposal.OP_BACKGROUND, blend=Blend.OP_OVER)

# The first frame's dispose is PREVIOUS (the specification: treat it as BACKGROUND).
save("apng-previous-first.png", [frame(i) for i in range(3)],
     duration=70, loop=1, disposal=Disposal.OP_PREVIOUS, blend=Blend.OP_OVER)

# A palette file: PLTE and tRNS must reach every frame.
palette_frames = [frame(i).convert("RGB").quantize(8) for i in range(3)]
for im in palette_frames:
    im.info["transparency"] = 0
save("apng-palette.png", palette_frames, duration=[50, 50, 50], loop=0)

# apngasm chooses its own rectangles, dispose and blend operations.
if shutil.which("apngasm"):
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(5):
            path = os.path.join(tmp, f"f{i}.png")
            frame(i, background=(255, 255, 255, 0) if i % 2 else (0, 0, 0, 0)).save(path)
            paths.append(path)
        out = os.path.join(HERE, "apng-apngasm.png")
        subprocess.run(["apngasm", out] + paths + ["3", "25"], check=True,
                       stdout=subprocess.DEVNULL)
        print("apng-apngasm.png", os.path.getsize(out), "bytes")


# Spliced by hand from frames ImageMagick wrote as 16-bit RGBA PNGs (Adam7-interlaced, and
# not, for FFmpeg, which cannot read interlaced APNG): a
# default image that is not part of the animation, and frames that are small rectangles
# off the origin of a larger canvas, with PREVIOUS, BACKGROUND and a delay denominator of 0.
def chunks(data):
    at, found = 8, []
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        found.append((kind, data[at + 8:at + 8 + length]))
        at += 12 + length
    return found


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def magick_png(image, tmp, name, interlace):
    plain = os.path.join(tmp, name + "-in.png")
    out = os.path.join(tmp, name + ".png")
    image.save(plain)
    subprocess.run(["convert", plain, "-depth", "16", "-interlace", interlace, "PNG64:" + out],
                   check=True)
    with open(out, "rb") as f:
        return chunks(f.read())


if shutil.which("convert"):
    CW, CH = 40, 30
    default = Image.new("RGBA", (CW, CH), (128, 128, 128, 255))
    pieces = [  # image, x, y, delay num, den, dispose, blend
        (frame(0).crop((2, 3, 14, 13)), 5, 4, 7, 100, 0, 0),
        (frame(1).crop((4, 2, 20, 14)), 20, 10, 3, 0, 2, 1),
        (Image.new("RGBA", (10, 10), (0, 200, 100, 160)), 0, 20, 25, 1000, 1, 1),
        (Image.new("RGBA", (CW, CH), (255, 0, 255, 40)), 0, 0, 1, 5, 0, 1),
    ]
    for interlace, suffix in (("PNG", "-interlaced"), ("None", "")):
        with tempfile.TemporaryDirectory() as tmp:
            head = magick_png(default, tmp, "default", interlace)
            ihdr = dict(head)[b"IHDR"]
            out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            out += chunk(b"acTL", struct.pack(">II", len(pieces), 2))
            out += b"".join(chunk(b"IDAT", body) for kind, body in head if kind == b"IDAT")
            sequence = 0
            for index, (image, x, y, num, den, dispose, blend) in enumerate(pieces):
                parts = magick_png(image, tmp, f"f{index}", interlace)
                assert dict(parts)[b"IHDR"][8:] == ihdr[8:], "frames must share depth and type"
                out += chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, image.width,
                                                  image.height, x, y, num, den, dispose, blend))
                sequence += 1
                for kind, body in parts:
                    if kind == b"IDAT":
                        out += chunk(b"fdAT", struct.pack(">I", sequence) + body)
                        sequence += 1
            out += chunk(b"IEND", b"")
            path = os.path.join(HERE, f"apng-spliced-16bit{suffix}.png")
            with open(path, "wb") as f:
                f.write(out)
            print(f"apng-spliced-16bit{suffix}.png", len(out), "bytes")
