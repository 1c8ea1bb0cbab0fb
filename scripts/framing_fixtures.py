#!/usr/bin/env python3
"""Fixtures/faces/framing: pictures for --face-size (FaceFramingTests, FaceSizeTests).

one-face.jpg: 2400x1600, astronaut.png's head and shoulders pasted so that its face box
(OpenCV's [177, 66, 95, 95] on the photo) is 260 px wide, right of the middle, on a seeded
gradient with noise: large enough that the render's decode for a 256 px avatar is kept
whole, and the face small enough that its framed square needs a finer decode.
pair.jpg: 1000x700, the same head twice (faces of 90 and 84 px, one mirrored) side by side,
close enough to be framed together at --face-size 0.4.
truth.json: where the face boxes went. Rerunning writes the same bytes (Pillow, numpy).
"""
import json, os
import numpy as np
from PIL import Image, ImageFilter, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "Fixtures/faces/framing")
FACE = (177, 66, 95, 95)
# Head and shoulders around the face, in astronaut.png's pixels.
CUT = (112, 8, 344, 300)


def background(width, height, seed):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    r = 90 + 80 * x / width
    g = 120 + 60 * y / height
    b = 150 - 50 * x / width
    base = np.stack([r, g, b], axis=-1)
    noise = rng.normal(0, 3, (height // 8 + 1, width // 8 + 1, 3)).astype(np.float32)
    noise = np.kron(noise, np.ones((8, 8, 1), np.float32))[:height, :width]
    return Image.fromarray(np.clip(base + noise, 0, 255).astype(np.uint8)).filter(
        ImageFilter.GaussianBlur(3))


def head(photo, face_width, mirrored=False):
    scale = face_width / FACE[2]
    part = photo.crop(CUT)
    size = (round(part.width * scale), round(part.height * scale))
    part = part.resize(size, Image.LANCZOS)
    mask = Image.new("L", size, 0)
    from PIL import ImageDraw
    ImageDraw.Draw(mask).ellipse((0, 0, size[0] - 1, size[1] * 1.3), fill=255)
    mask = mask.filter(ImageFilter.GaussianBlur(max(2, size[0] // 30)))
    if mirrored:
        part, mask = ImageOps.mirror(part), ImageOps.mirror(mask)
    box_x = (FACE[0] - CUT[0]) * scale
    if mirrored:
        box_x = size[0] - box_x - face_width
    return part, mask, (box_x, (FACE[1] - CUT[1]) * scale)


def paste(picture, photo, left, top, face_width, mirrored=False):
    part, mask, (bx, by) = head(photo, face_width, mirrored)
    picture.paste(part, (left, top), mask)
    return [round(left + bx), round(top + by), face_width, face_width]


def main():
    photo = Image.open(os.path.join(ROOT, "Fixtures/faces/detect/astronaut.jpg")).convert("RGB")
    os.makedirs(OUT, exist_ok=True)
    truth = {"about": __doc__.strip().splitlines()[0], "pictures": {}}
    one = background(2400, 1600, 7)
    boxes = [paste(one, photo, 1450, 480, 260)]
    one.save(os.path.join(OUT, "one-face.jpg"), quality=80)
    truth["pictures"]["one-face.jpg"] = {"width": 2400, "height": 1600, "faces": boxes}
    pair = background(1000, 700, 11)
    boxes = [paste(pair, photo, 330, 220, 90), paste(pair, photo, 470, 230, 84, mirrored=True)]
    pair.save(os.path.join(OUT, "pair.jpg"), quality=80)
    truth["pictures"]["pair.jpg"] = {"width": 1000, "height": 700, "faces": boxes}
    with open(os.path.join(OUT, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
