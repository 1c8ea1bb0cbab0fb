#!/usr/bin/env python3
"""Make Fixtures/faces/detect/: pictures for checking the Swift Haar-cascade evaluator
against OpenCV (scripts/opencv_faces.py measures them).

Every picture is built from the corpus photos in /work/shared/corpus/photos (or the
folder given with --corpus): astronaut.png's head and shoulders, cut out with a
feathered alpha and scaled, pasted onto backgrounds made from coffee.png, rocket.jpg,
hubble_deep_field.jpg, retina.jpg (never chelsea.png: it has a cat face) and from
seeded gradients and noise. The cat pictures (cat-*.jpg) are made from chelsea.png.

Also writes Fixtures/faces/detect-truth.json: where the faces were pasted (upright
picture coordinates; the box is the pasted copy of astronaut.png's face box
FACE_BOX_SRC, which is what haarcascade_frontalface_default.xml reports on the
unscaled photo).

Deterministic: each picture has its own seeded generator, and rerunning the script
rewrites the same bytes (given the same numpy and opencv-python builds).

    python3 scripts/face_fixtures.py [--corpus DIR] [--out Fixtures/faces]

This module is also imported by scripts/face_scenes.py for the cut-out, the
backgrounds and the JPEG writer.
"""
import argparse
import json
import os
import re
import struct
import sys

import cv2
import numpy as np

SEED = 20240611
JPEG_QUALITY = 85
DEFAULT_CORPUS = "/work/shared/corpus/photos"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# astronaut.png (512x512): the face as haarcascade_frontalface_default.xml finds it
# (scaleFactor 1.1, minNeighbors 3): x, y, w, h.
FACE_BOX_SRC = (177, 66, 95, 95)
# The head-and-shoulders cut-out: a rectangle of astronaut.png, and inside it an alpha
# made of two feathered ellipses (head with the neck ring; shoulders).
CUT_RECT = (56, 0, 304, 460)  # x, y, w, h in astronaut.png
HEAD_ELLIPSE = (226, 140, 100, 140, 0.12)  # cx, cy, rx, ry, feather (astronaut.png coords)
BODY_ELLIPSE = (208, 330, 150, 125, 0.20)


# ----------------------------------------------------------------------------- sources

class Corpus:
    """The corpus photos, loaded once (BGR uint8)."""

    def __init__(self, folder):
        self.folder = folder
        self._cache = {}

    def photo(self, name):
        if name not in self._cache:
            path = os.path.join(self.folder, name)
            img = cv2.imread(path, cv2.IMREAD_COLOR)
            if img is None:
                sys.exit(f"cannot read {path}")
            self._cache[name] = img
        return self._cache[name]


def smooth_ellipse(h, w, cx, cy, rx, ry, feather):
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    r = np.sqrt(((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2)
    t = np.clip((1.0 - r) / feather, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def head_cutout(corpus):
    """(bgr float64 HxWx3, alpha float64 HxW, face box (x, y, w, h)) in cut-out coords."""
    img = corpus.photo("astronaut.png").astype(np.float64)
    H, W = img.shape[:2]
    alpha = np.maximum(smooth_ellipse(H, W, *HEAD_ELLIPSE), smooth_ellipse(H, W, *BODY_ELLIPSE))
    x, y, w, h = CUT_RECT
    fx, fy, fw, fh = FACE_BOX_SRC
    return img[y:y + h, x:x + w].copy(), alpha[y:y + h, x:x + w].copy(), (fx - x, fy - y, fw, fh)


def resize_float(img, w, h):
    """Scale a float image to w x h: INTER_AREA to shrink, INTER_CUBIC to enlarge."""
    shrink = w < img.shape[1]
    out = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC)
    return out


def place_face(canvas, cut, face_width, centre, mirror=False, angle=0.0, gain=1.0):
    """Paste the head-and-shoulders cut-out so that its face box is `face_width` wide and
    centred on `centre` (x, y in canvas pixels). `angle` (degrees, counter-clockwise)
    turns the cut-out about the face centre; `gain` scales its brightness.
    Returns (face box [x, y, w, h] clipped to nothing: ints, alpha of this paste HxW)."""
    img, alpha, (bx, by, bw, bh) = cut
    s = face_width / bw
    cw = max(1, int(round(img.shape[1] * s)))
    ch = max(1, int(round(img.shape[0] * s)))
    sx, sy = cw / img.shape[1], ch / img.shape[0]
    simg = resize_float(img, cw, ch)
    salpha = np.clip(resize_float(alpha, cw, ch), 0.0, 1.0)
    fcx = (bx + bw / 2.0) * sx
    fcy = (by + bh / 2.0) * sy
    if mirror:
        simg = simg[:, ::-1].copy()
        salpha = salpha[:, ::-1].copy()
        fcx = cw - fcx
    simg = np.clip(simg * gain, 0, 255)
    if angle:
        pad = int(0.25 * max(cw, ch)) + 2
        simg = cv2.copyMakeBorder(simg, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        salpha = cv2.copyMakeBorder(salpha, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        fcx += pad
        fcy += pad
        m = cv2.getRotationMatrix2D((fcx, fcy), angle, 1.0)
        size = (simg.shape[1], simg.shape[0])
        simg = cv2.warpAffine(simg, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        salpha = cv2.warpAffine(salpha, m, size, flags=cv2.INTER_LINEAR, borderValue=0)
    ox = int(round(centre[0] - fcx))
    oy = int(round(centre[1] - fcy))
    H, W = canvas.shape[:2]
    full_alpha = np.zeros((H, W), np.float64)
    x0, y0 = max(0, ox), max(0, oy)
    x1, y1 = min(W, ox + simg.shape[1]), min(H, oy + simg.shape[0])
    if x1 > x0 and y1 > y0:
        a = salpha[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
        src = simg[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
        region = canvas[y0:y1, x0:x1]
        canvas[y0:y1, x0:x1] = region * (1.0 - a[..., None]) + src * a[..., None]
        full_alpha[y0:y1, x0:x1] = a
    fw = int(round(bw * sx))
    fh = int(round(bh * sy))
    box = [int(round(ox + fcx - fw / 2.0)), int(round(oy + fcy - fh / 2.0)), fw, fh]
    return box, full_alpha


# ------------------------------------------------------------------------- backgrounds

PHOTO_BACKGROUNDS = ("coffee.png", "rocket.jpg", "hubble_deep_field.jpg", "retina.jpg")


def photo_crop(corpus, name, w, h, rng, min_fraction=0.55):
    """A random crop of a corpus photo with aspect w:h, scaled to w x h."""
    img = corpus.photo(name)
    H, W = img.shape[:2]
    if name == "retina.jpg":  # keep inside the round fundus (black corners)
        m = int(0.2 * W)
        img = img[m:H - m, m:W - m]
        H, W = img.shape[:2]
    aspect = w / h
    cw, ch = (W, int(W / aspect)) if W / H < aspect else (int(H * aspect), H)
    f = rng.uniform(min_fraction, 1.0)
    cw, ch = max(8, int(cw * f)), max(8, int(ch * f))
    x = int(rng.integers(0, W - cw + 1))
    y = int(rng.integers(0, H - ch + 1))
    crop = img[y:y + ch, x:x + cw]
    interp = cv2.INTER_AREA if cw > w else cv2.INTER_CUBIC
    return cv2.resize(crop, (w, h), interpolation=interp).astype(np.float64)


def low_noise(w, h, rng, cells, amplitude):
    """Smooth colour noise: a small random grid upsampled with cubic interpolation."""
    gw = max(2, int(round(cells * w / max(w, h)))) + 1
    gh = max(2, int(round(cells * h / max(w, h)))) + 1
    grid = rng.uniform(-amplitude, amplitude, (gh, gw, 3))
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def gradient(w, h, rng):
    """A linear gradient between two random muted colours, with smooth and fine noise."""
    c0 = rng.uniform(30, 225, 3)
    c1 = rng.uniform(30, 225, 3)
    theta = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    t = (xx * np.cos(theta) + yy * np.sin(theta))
    t = (t - t.min()) / max(1e-9, t.max() - t.min())
    img = c0 * (1 - t[..., None]) + c1 * t[..., None]
    img += low_noise(w, h, rng, rng.integers(3, 8), 25)
    img += rng.normal(0, 1.0, (h, w, 3))
    return img


def noise(w, h, rng):
    """Cloudy colour noise at a few scales."""
    img = np.full((h, w, 3), rng.uniform(60, 190, 3))
    img += low_noise(w, h, rng, 4, 50) + low_noise(w, h, rng, 16, 25)
    fine = cv2.GaussianBlur(rng.normal(0, 5, (h, w, 3)), (0, 0), 2.0)
    return img + fine


def background(corpus, kind, w, h, rng):
    """kind: a corpus photo name (sharp crop), 'blur:<photo>' (defocused crop),
    'gradient' or 'noise'. Returns float64 BGR."""
    if kind == "gradient":
        return gradient(w, h, rng)
    if kind == "noise":
        return noise(w, h, rng)
    if kind.startswith("blur:"):
        img = photo_crop(corpus, kind[5:], w, h, rng)
        return cv2.GaussianBlur(img, (0, 0), rng.uniform(4.0, 9.0))
    return photo_crop(corpus, kind, w, h, rng)


# ------------------------------------------------------------------------------ JPEG

def to_u8(img):
    return np.clip(np.rint(img), 0, 255).astype(np.uint8)


def encode_jpeg(img_u8, quality=JPEG_QUALITY):
    """Baseline JPEG with optimised Huffman tables (cv2 / libjpeg-turbo), as bytes."""
    ok, buf = cv2.imencode(".jpg", img_u8, [cv2.IMWRITE_JPEG_QUALITY, quality,
                                            cv2.IMWRITE_JPEG_OPTIMIZE, 1])
    assert ok
    return buf.tobytes()


def exif_orientation_segment(value):
    """A minimal APP1 Exif segment: big-endian TIFF header, IFD0 with one entry,
    Orientation (0x0112) SHORT count 1 = value, no next IFD."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8)
    ifd = struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, value, 0) + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff + ifd
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def with_orientation(jpeg, value):
    """Insert the Exif segment right after SOI."""
    assert jpeg[:2] == b"\xff\xd8"
    return jpeg[:2] + exif_orientation_segment(value) + jpeg[2:]


def stored_for_orientation(upright, value):
    """The pixels to store so that a viewer applying Orientation `value` shows `upright`.
    6: the viewer turns the stored picture 90 degrees clockwise; 8: counter-clockwise."""
    if value == 6:
        return cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE)
    if value == 8:
        return cv2.rotate(upright, cv2.ROTATE_90_CLOCKWISE)
    raise ValueError(value)


def write_json(path, doc):
    """Indented JSON with arrays of numbers kept on one line."""
    text = json.dumps(doc, indent=1)
    text = re.sub(r"\[\s*(-?\d[-\d.,\s]*?)\s*\]",
                  lambda m: "[" + ", ".join(m.group(1).replace(",", " ").split()) + "]", text)
    with open(path, "w") as f:
        f.write(text + "\n")


def write_bytes(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


# -------------------------------------------------------------------------- pictures

# name, (width, height) upright, background kind, faces, options.
# A face: (face width px, centre x fraction, centre y fraction, options dict).
F = lambda w, x, y, **kw: (w, x, y, kw)  # noqa: E731

PICTURES = [
    # single faces, about 30 px to 250 px wide
    ("face030-gradient.jpg", (320, 240), "gradient", [F(30, 0.30, 0.40)]),
    ("face036-noise.jpg", (400, 300), "noise", [F(36, 0.70, 0.50)]),
    ("face044-coffee.jpg", (480, 320), "blur:coffee.png", [F(44, 0.20, 0.35)]),
    ("face052-rocket.jpg", (480, 320), "rocket.jpg", [F(52, 0.80, 0.30)]),
    ("face060-hubble-portrait.jpg", (300, 400), "hubble_deep_field.jpg", [F(60, 0.50, 0.30)]),
    ("face070-retina-portrait.jpg", (360, 480), "blur:retina.jpg", [F(70, 0.40, 0.60)]),
    ("face080-gradient-portrait.jpg", (270, 480), "gradient", [F(80, 0.50, 0.25)]),
    ("face090-coffee.jpg", (480, 360), "coffee.png", [F(90, 0.65, 0.45)]),
    ("face100-rocket.jpg", (480, 320), "blur:rocket.jpg", [F(100, 0.30, 0.40)]),
    ("face110-noise-portrait.jpg", (320, 480), "noise", [F(110, 0.50, 0.30)]),
    ("face128-hubble.jpg", (480, 320), "blur:hubble_deep_field.jpg", [F(128, 0.50, 0.45)]),
    ("face150-gradient.jpg", (480, 360), "gradient", [F(150, 0.40, 0.45)]),
    ("face180-coffee-portrait.jpg", (360, 480), "blur:coffee.png", [F(180, 0.50, 0.35)]),
    ("face200-rocket.jpg", (480, 360), "rocket.jpg", [F(200, 0.55, 0.45)]),
    ("face250-noise.jpg", (640, 480), "noise", [F(250, 0.50, 0.50)]),
    ("face250-gradient-portrait.jpg", (480, 640), "gradient", [F(250, 0.50, 0.40)]),
    # variations of one face
    ("face064-mirrored.jpg", (400, 400), "blur:retina.jpg", [F(64, 0.35, 0.40, mirror=True)]),
    ("face072-tilt-ccw.jpg", (480, 360), "gradient", [F(72, 0.60, 0.45, angle=8.0)]),
    ("face072-tilt-cw.jpg", (480, 360), "blur:coffee.png", [F(72, 0.40, 0.45, angle=-8.0)]),
    ("face090-dark.jpg", (560, 420), "blur:rocket.jpg", [F(90, 0.45, 0.40, gain=0.55)]),
    ("face090-bright.jpg", (420, 560), "noise", [F(90, 0.55, 0.35, gain=1.3)]),
    ("face056-gray.jpg", (480, 360), "blur:hubble_deep_field.jpg", [F(56, 0.30, 0.45)], {"gray": True}),
    ("face048-corner.jpg", (512, 384), "coffee.png", [F(48, 0.09, 0.10)]),
    ("face040-small.jpg", (160, 120), "gradient", [F(40, 0.50, 0.40)]),
    # several faces
    ("faces2-landscape.jpg", (640, 427), "blur:coffee.png", [F(80, 0.25, 0.35), F(60, 0.72, 0.45, mirror=True)]),
    ("faces2-portrait.jpg", (427, 640), "gradient", [F(100, 0.45, 0.25), F(50, 0.65, 0.72, mirror=True)]),
    ("faces3-row.jpg", (640, 360), "noise", [F(70, 0.17, 0.40), F(70, 0.50, 0.40, mirror=True), F(70, 0.83, 0.40)]),
    ("faces3-sizes.jpg", (640, 480), "blur:retina.jpg", [F(120, 0.25, 0.40), F(60, 0.62, 0.30, mirror=True), F(35, 0.85, 0.65)]),
    # no face at all
    ("noface-coffee.jpg", (480, 320), "coffee.png", []),
    ("noface-rocket.jpg", (640, 427), "rocket.jpg", []),
    ("noface-hubble.jpg", (360, 360), "hubble_deep_field.jpg", []),
    ("noface-noise.jpg", (480, 320), "noise", []),
    ("noface-retina-portrait.jpg", (360, 480), "retina.jpg", []),
    # stored turned, with an EXIF Orientation tag (sizes are the upright picture's)
    ("exif6-face090.jpg", (480, 320), "blur:coffee.png", [F(90, 0.35, 0.40)], {"orientation": 6}),
    ("exif6-faces2-portrait.jpg", (360, 480), "gradient", [F(70, 0.30, 0.30), F(55, 0.70, 0.65)], {"orientation": 6}),
    ("exif8-face120.jpg", (480, 360), "noise", [F(120, 0.55, 0.45)], {"orientation": 8}),
    ("exif8-face070-portrait.jpg", (320, 480), "blur:rocket.jpg", [F(70, 0.50, 0.70)], {"orientation": 8}),
]

# Cat pictures from chelsea.png: (name, canvas size, background, scale, angle ccw, centre fractions)
CATS = [
    ("cat-chelsea.jpg", None, None, 1.0, 0.0, None),
    ("cat-tilted-045.jpg", (480, 360), "gradient", 0.45, 10.0, (0.45, 0.50)),
    ("cat-tilted-030-portrait.jpg", (300, 400), "blur:coffee.png", 0.30, 10.0, (0.50, 0.40)),
]


def rng_for(name):
    return np.random.default_rng([SEED] + [b for b in name.encode()])


def make_picture(corpus, cut, spec):
    name, (w, h), kind, faces = spec[:4]
    opts = spec[4] if len(spec) > 4 else {}
    rng = rng_for(name)
    canvas = background(corpus, kind, w, h, rng)
    boxes = []
    alphas = []
    for (fw, fx, fy, kw) in faces:
        box, alpha = place_face(canvas, cut, fw, (fx * w, fy * h), **kw)
        # a later paste must not cover an earlier face
        for b in boxes:
            assert alpha[b[1]:b[1] + b[3], b[0]:b[0] + b[2]].max() < 0.05, (name, b)
        boxes.append(box)
        alphas.append(alpha)
    img = to_u8(canvas)
    if opts.get("gray"):
        img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    orientation = opts.get("orientation", 1)
    if orientation != 1:
        data = with_orientation(encode_jpeg(stored_for_orientation(img, orientation)), orientation)
    else:
        data = encode_jpeg(img)
    truth = {"width": w, "height": h, "background": kind, "exifOrientation": orientation,
             "faces": [{"box": b, "mirrored": bool(f[3].get("mirror", False)),
                        "angle": float(f[3].get("angle", 0.0)), "gain": float(f[3].get("gain", 1.0))}
                       for b, f in zip(boxes, faces)]}
    if opts.get("gray"):
        truth["gray"] = True
    return data, truth


def make_cat(corpus, spec):
    name, size, kind, scale, angle, centre = spec
    cat = corpus.photo("chelsea.png")
    if size is None:
        return encode_jpeg(cat), {"width": cat.shape[1], "height": cat.shape[0], "background": None,
                                  "exifOrientation": 1, "cats": [{"source": "chelsea.png", "scale": 1.0, "angle": 0.0}]}
    rng = rng_for(name)
    w, h = size
    canvas = background(corpus, kind, w, h, rng)
    ch, cw = cat.shape[:2]
    m = cv2.getRotationMatrix2D((235, 170), angle, 1.0)  # about the cat's face
    turned = cv2.warpAffine(cat, m, (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    sw, sh = int(round(cw * scale)), int(round(ch * scale))
    small = cv2.resize(turned, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float64)
    # soft-edged rounded rectangle
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float64)
    edge = np.minimum(np.minimum(xx + 0.5, sw - xx - 0.5), np.minimum(yy + 0.5, sh - yy - 0.5))
    alpha = np.clip(edge / max(4.0, 0.08 * min(sw, sh)), 0, 1)
    ox = int(round(centre[0] * w - sw / 2))
    oy = int(round(centre[1] * h - sh / 2))
    assert 0 <= ox and ox + sw <= w and 0 <= oy and oy + sh <= h, name
    region = canvas[oy:oy + sh, ox:ox + sw]
    canvas[oy:oy + sh, ox:ox + sw] = region * (1 - alpha[..., None]) + small * alpha[..., None]
    return encode_jpeg(to_u8(canvas)), {"width": w, "height": h, "background": kind, "exifOrientation": 1,
                                        "cats": [{"source": "chelsea.png", "scale": scale, "angle": angle,
                                                  "rect": [ox, oy, sw, sh]}]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--out", default=os.path.join(REPO, "Fixtures", "faces"))
    args = ap.parse_args()
    cv2.setNumThreads(1)
    corpus = Corpus(args.corpus)
    cut = head_cutout(corpus)
    detect = os.path.join(args.out, "detect")
    truth = {}
    astronaut = corpus.photo("astronaut.png")
    write_bytes(os.path.join(detect, "astronaut.jpg"), encode_jpeg(astronaut))
    truth["astronaut.jpg"] = {"width": 512, "height": 512, "background": None, "exifOrientation": 1,
                              "faces": [{"box": list(FACE_BOX_SRC), "mirrored": False, "angle": 0.0, "gain": 1.0}]}
    for spec in PICTURES:
        data, t = make_picture(corpus, cut, spec)
        write_bytes(os.path.join(detect, spec[0]), data)
        truth[spec[0]] = t
    for spec in CATS:
        data, t = make_cat(corpus, spec)
        write_bytes(os.path.join(detect, spec[0]), data)
        truth[spec[0]] = t
    doc = {
        "about": "Where scripts/face_fixtures.py pasted faces in Fixtures/faces/detect (upright "
                 "picture coordinates, x y w h). A face box is the pasted copy of astronaut.png's "
                 "face as haarcascade_frontalface_default.xml reports it on the unscaled photo "
                 f"({list(FACE_BOX_SRC)}); for turned faces it is the box of that size around the "
                 "turned centre. Cat entries give the pasted rectangle of chelsea.png.",
        "seed": SEED,
        "jpegQuality": JPEG_QUALITY,
        "pictures": dict(sorted(truth.items())),
    }
    write_json(os.path.join(args.out, "detect-truth.json"), doc)
    total = sum(os.path.getsize(os.path.join(detect, n)) for n in os.listdir(detect))
    print(f"{len(truth)} pictures in {detect}, {total} bytes")


if __name__ == "__main__":
    main()
