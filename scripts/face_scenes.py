#!/usr/bin/env python3
"""Make Fixtures/faces/scenes/ and scenes.json: 60 seeded scenes for judging square crops
(--gravity face / --gravity attention), and measure four ways of choosing the square.

Each scene is a landscape (about 600x400) or portrait (about 400x600) picture with ONE
face (astronaut.png's head and shoulders, see face_fixtures.py) placed off-centre along
the long axis, face 40-130 px wide, and in half of the scenes a saturated distractor
(a blob or a flower of a non-skin colour) elsewhere. Faces are placed so that a square of
side = the short side can hold the face near its middle: a perfect crop always exists.

Methods, each giving the square's offset along the long axis:
  centre         the middle square (left/top margin rounded down, as CropSquare .center)
  vipsEntropy    libvips smartcrop(side, side, interesting="entropy")
  vipsAttention  libvips smartcrop(side, side, interesting="attention")
  opencv         haarcascade_frontalface_default.xml at the scene's size (scaleFactor 1.1,
                 minNeighbors 3), the largest face, the square centred on it and kept
                 inside the picture (CropSquare(focus:)); no face -> the centre square
The libvips offsets are found by matching the returned crop's pixels against the scene.

    python3 scripts/face_scenes.py                 # make the scenes (needs the corpus), measure
    python3 scripts/face_scenes.py --measure-only  # measure the committed scenes again

Deterministic: rerunning writes the same bytes (same numpy, opencv-python, libvips).
"""
import argparse
import json
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import face_fixtures as ff  # noqa: E402

SEED = 20240612
# 80, not face_fixtures.py's 85, keeps the 60 scenes near 1.3 MB (85 would make ~1.55 MB).
JPEG_QUALITY = 80
COUNT = 60
FACE_WIDTHS = (40, 130)
LANDSCAPES = [(600, 400), (640, 427), (600, 450), (576, 384)]
BACKGROUNDS = (["blur:coffee.png", "blur:rocket.jpg", "blur:hubble_deep_field.jpg", "blur:retina.jpg"] * 2
               + ["coffee.png", "rocket.jpg", "retina.jpg", "gradient", "gradient", "noise", "noise"])
# Saturated, not skin-coloured (BGR).
DISTRACTOR_COLOURS = {"red": (20, 20, 235), "orange": (0, 130, 255), "blue": (230, 70, 20),
                      "magenta": (210, 30, 220), "yellow": (10, 225, 250), "green": (40, 200, 30)}
CASCADE = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"

KEPT_TEXT = ("A face is kept by a square (side = the picture's short side, offset along the long "
             "axis) when the ground-truth face box lies fully inside the square and the box's "
             "centre is within 0.25 x side of the square's centre along the long axis.")


def kept(box, offset, side, landscape):
    """The criterion KEPT_TEXT states. box = [x, y, w, h]; the square is
    [offset, offset + side) along the long axis and [0, side) across it."""
    x, y, w, h = box
    sx, sy = (offset, 0) if landscape else (0, offset)
    inside = x >= sx and y >= sy and x + w <= sx + side and y + h <= sy + side
    centre = (x + w / 2.0) if landscape else (y + h / 2.0)
    return bool(inside and abs(centre - (offset + side / 2.0)) <= 0.25 * side)


def centred_offset(centre, length, side):
    """CropSquare(focus:): the span of `side` centred on `centre`, rounded down, kept inside."""
    start = int(np.floor(centre - side / 2.0))
    return min(max(start, 0), length - side)


# ------------------------------------------------------------------------ distractors

def draw_distractor(canvas, rng, centre, radius, colour, shape):
    """A saturated blob (shaded ellipse) or flower (petals round a contrasting heart),
    anti-aliased by drawing at 4x and shrinking. Returns its bounding box."""
    h, w = canvas.shape[:2]
    pad = int(radius * 1.3) + 4
    cx, cy = centre
    x0, y0 = max(0, int(cx) - pad), max(0, int(cy) - pad)
    x1, y1 = min(w, int(cx) + pad), min(h, int(cy) + pad)
    S = 4
    lw, lh = (x1 - x0) * S, (y1 - y0) * S
    layer = np.zeros((lh, lw, 3), np.float64)
    mask = np.zeros((lh, lw), np.uint8)
    c = np.array(colour, np.float64)
    ccx, ccy = (cx - x0) * S, (cy - y0) * S
    R = radius * S
    if shape == "blob":
        ax = (R, R * rng.uniform(0.6, 1.0))
        cv2.ellipse(mask, (int(ccx), int(ccy)), (int(ax[0]), int(ax[1])), rng.uniform(0, 180), 0, 360, 255, -1)
        yy, xx = np.mgrid[0:lh, 0:lw]
        shade = 1.15 - 0.35 * np.clip(np.hypot(xx - ccx + 0.3 * R, yy - ccy + 0.3 * R) / (1.6 * R), 0, 1)
        layer[:] = c
        layer *= shade[..., None]
    else:
        petals = int(rng.integers(5, 9))
        turn = rng.uniform(0, 2 * np.pi)
        for k in range(petals):
            a = turn + 2 * np.pi * k / petals
            px, py = ccx + 0.55 * R * np.cos(a), ccy + 0.55 * R * np.sin(a)
            cv2.ellipse(mask, (int(px), int(py)), (int(0.45 * R), int(0.22 * R)), np.degrees(a), 0, 360, 255, -1)
        layer[:] = c
        heart = np.zeros((lh, lw), np.uint8)
        cv2.circle(heart, (int(ccx), int(ccy)), int(0.25 * R), 255, -1)
        mask = np.maximum(mask, heart)
        hc = np.array(DISTRACTOR_COLOURS["yellow"] if tuple(colour) != DISTRACTOR_COLOURS["yellow"]
                      else DISTRACTOR_COLOURS["red"], np.float64)
        layer[heart > 0] = hc
    small = cv2.resize(layer, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(mask.astype(np.float64) / 255.0, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    region = canvas[y0:y1, x0:x1]
    canvas[y0:y1, x0:x1] = region * (1 - alpha[..., None]) + np.clip(small, 0, 255) * alpha[..., None]
    ys, xs = np.nonzero(alpha > 0.02)
    return [int(x0 + xs.min()), int(y0 + ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)]


def boxes_apart(a, b, gap):
    return (a[0] + a[2] + gap <= b[0] or b[0] + b[2] + gap <= a[0]
            or a[1] + a[3] + gap <= b[1] or b[1] + b[3] + gap <= a[1])


# ----------------------------------------------------------------------------- scenes

def make_scene(corpus, cut, index, seed=SEED):
    rng = np.random.default_rng([seed, index])
    landscape = index % 2 == 0
    lw, lh = LANDSCAPES[int(rng.integers(len(LANDSCAPES)))]
    w, h = (lw, lh) if landscape else (lh, lw)
    L, side = max(w, h), min(w, h)
    kind = BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))]
    canvas = ff.background(corpus, kind, w, h, rng)

    fw = int(rng.integers(FACE_WIDTHS[0], FACE_WIDTHS[1] + 1))
    # Along the long axis: off the middle by u, up to where a square still holds the face
    # within 0.2 x side of its centre.
    u_max = (L - side) / 2.0 + 0.2 * side
    u = rng.uniform(10, u_max)
    sign = 1 if rng.random() < 0.5 else -1
    along = L / 2.0 + sign * u
    if landscape:
        across = rng.uniform(0.28, 0.5) * h
        centre = (along, across)
    else:
        across = rng.uniform(0.3, 0.7) * w
        centre = (across, along)
    mirror = bool(rng.random() < 0.5)
    angle = float(np.round(rng.uniform(-4, 4), 1))
    gain = float(np.round(rng.uniform(0.85, 1.15), 2))
    box, _ = ff.place_face(canvas, cut, fw, centre, mirror=mirror, angle=angle, gain=gain)
    x, y, bw, bh = box
    assert x >= 0 and y >= 0 and x + bw <= w and y + bh <= h, (index, box)

    distractor = None
    if (index // 2) % 2 == 0:
        colour = list(DISTRACTOR_COLOURS)[int(rng.integers(len(DISTRACTOR_COLOURS)))]
        shape = "flower" if rng.random() < 0.5 else "blob"
        radius = float(rng.uniform(35, 80))
        for _ in range(100):
            # on the other side of the middle from the face, somewhere across
            d_along = L / 2.0 - sign * rng.uniform(0.1, 0.42) * L
            d_along = min(max(d_along, radius + 2), L - radius - 2)
            d_across = rng.uniform(radius + 2, side - radius - 2)
            dc = (d_along, d_across) if landscape else (d_across, d_along)
            r = radius * 1.1
            if boxes_apart([dc[0] - r, dc[1] - r, 2 * r, 2 * r], box, 12):
                break
        else:
            raise RuntimeError(f"scene {index}: no room for the distractor")
        dbox = draw_distractor(canvas, rng, dc, radius, DISTRACTOR_COLOURS[colour], shape)
        assert boxes_apart(dbox, box, 4), index
        distractor = {"shape": shape, "colour": colour, "box": dbox}

    # a perfect crop exists
    best = centred_offset((x + bw / 2.0) if landscape else (y + bh / 2.0), L, side)
    assert kept(box, best, side, landscape), (index, box, best)
    info = {"width": w, "height": h, "orientation": "landscape" if landscape else "portrait",
            "background": kind, "faceBox": box, "faceMirrored": mirror, "faceAngle": angle,
            "faceGain": gain, "distractor": distractor, "bestOffset": best}
    return ff.encode_jpeg(ff.to_u8(canvas), JPEG_QUALITY), info


# --------------------------------------------------------------------------- methods

def vips_offsets(path, side, landscape):
    """(entropy offset, attention offset, attention centre) from libvips smartcrop."""
    import pyvips
    image = pyvips.Image.new_from_file(path, access="random")
    pixels = image.numpy()
    result = {}
    for interesting in ("entropy", "attention"):
        if interesting == "attention":
            crop, extra = image.smartcrop(side, side, interesting=interesting, attention_x=True, attention_y=True)
            result["attentionCentre"] = [extra["attention_x"], extra["attention_y"]]
        else:
            crop = image.smartcrop(side, side, interesting=interesting)
        got = crop.numpy()
        L = pixels.shape[1] if landscape else pixels.shape[0]
        matches = [o for o in range(L - side + 1)
                   if np.array_equal(got, pixels[:, o:o + side] if landscape else pixels[o:o + side, :])]
        if not matches:
            sys.exit(f"{path}: smartcrop {interesting} matches no square")
        result[interesting] = matches[0]
        result[interesting + "Ambiguous"] = len(matches) > 1
    return result


def opencv_offset(path, cascade, side, landscape):
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    h, w = img.shape[:2]
    assert max(w, h) <= 800
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    faces = cascade.detectMultiScale(gray, scaleFactor=1.1, minNeighbors=3)
    faces = [[int(v) for v in f] for f in faces] if len(faces) else []
    L = w if landscape else h
    if not faces:
        return (L - side) // 2, faces, None
    largest = max(faces, key=lambda f: f[2] * f[3])  # first of equals, in OpenCV's order
    centre = largest[0] + largest[2] / 2.0 if landscape else largest[1] + largest[3] / 2.0
    return centred_offset(centre, L, side), faces, largest


def measure(folder, scenes):
    cascade = cv2.CascadeClassifier(CASCADE)
    assert not cascade.empty()
    methods = ["centre", "vipsEntropy", "vipsAttention", "opencv"]
    counts = {m: 0 for m in methods}
    split = {m: {"landscape": 0, "portrait": 0, "withDistractor": 0, "withoutDistractor": 0} for m in methods}
    for name, s in scenes.items():
        path = os.path.join(folder, name)
        w, h = s["width"], s["height"]
        landscape = w >= h
        L, side = max(w, h), min(w, h)
        v = vips_offsets(path, side, landscape)
        o_cv, faces, largest = opencv_offset(path, cascade, side, landscape)
        offsets = {"centre": (L - side) // 2, "vipsEntropy": v["entropy"], "vipsAttention": v["attention"],
                   "opencv": o_cv}
        s["methods"] = {}
        for m in methods:
            k = kept(s["faceBox"], offsets[m], side, landscape)
            s["methods"][m] = {"offset": offsets[m], "kept": k}
            counts[m] += k
            split[m]["landscape" if landscape else "portrait"] += k
            split[m]["withDistractor" if s["distractor"] else "withoutDistractor"] += k
        s["methods"]["vipsAttention"]["attentionCentre"] = v["attentionCentre"]
        for m, key in (("vipsEntropy", "entropyAmbiguous"), ("vipsAttention", "attentionAmbiguous")):
            if v[key]:
                s["methods"][m]["ambiguous"] = True
        s["methods"]["opencv"]["faces"] = faces
        s["methods"]["opencv"]["largest"] = largest
    return counts, split


def print_table(scenes, counts, split):
    methods = ["centre", "vipsEntropy", "vipsAttention", "opencv"]
    print(f"{'scene':14s} {'size':8s} {'face':>4s} {'D':1s}  " + "  ".join(f"{m:>13s}" for m in methods))
    for name, s in scenes.items():
        row = [f"{s['methods'][m]['offset']:>4d} {'kept' if s['methods'][m]['kept'] else 'LOST':>8s}" for m in methods]
        print(f"{name:14s} {s['width']}x{s['height']} {s['faceBox'][2]:>4d} {'D' if s['distractor'] else ' '}  "
              + "  ".join(f"{r:>13s}" for r in row))
    n = len(scenes)
    print("kept:", ", ".join(f"{m} {counts[m]}/{n}" for m in methods))
    for m in methods:
        print(f"  {m:14s} {split[m]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=ff.DEFAULT_CORPUS)
    ap.add_argument("--out", default=os.path.join(ff.REPO, "Fixtures", "faces"))
    ap.add_argument("--measure-only", action="store_true", help="reuse the committed scenes and scenes.json")
    ap.add_argument("--seed", type=int, default=SEED,
                    help="another seed makes another set like it (write it with --out elsewhere)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    folder = os.path.join(args.out, "scenes")
    json_path = os.path.join(args.out, "scenes.json")
    if args.measure_only:
        with open(json_path) as f:
            scenes = json.load(f)["scenes"]
    else:
        corpus = ff.Corpus(args.corpus)
        cut = ff.head_cutout(corpus)
        scenes = {}
        for i in range(COUNT):
            data, info = make_scene(corpus, cut, i, args.seed)
            name = f"scene-{i:02d}.jpg"
            ff.write_bytes(os.path.join(folder, name), data)
            scenes[name] = info
    counts, split = measure(folder, scenes)
    import pyvips
    doc = {
        "about": "Scenes for judging square crops; made by scripts/face_scenes.py. Offsets are along "
                 "the long axis, in pixels; the square's side is the short side. faceBox is where the "
                 "face was pasted: the pasted copy of astronaut.png's face box [177, 66, 95, 95], which "
                 "haarcascade_frontalface_default.xml reports on the unscaled photo. bestOffset is the "
                 "square centred on the face box (always kept).",
        "kept": KEPT_TEXT,
        "methods": {
            "centre": "the middle square; the left/top margin is the smaller one when they differ",
            "vipsEntropy": "libvips smartcrop(side, side, interesting=entropy) on the JPEG, offset found "
                           "by matching the crop's pixels",
            "vipsAttention": "libvips smartcrop(side, side, interesting=attention) on the JPEG, offset found "
                             "by matching the crop's pixels; attentionCentre is its attention_x, attention_y",
            "opencv": "haarcascade_frontalface_default.xml, detectMultiScale(gray, scaleFactor=1.1, "
                      "minNeighbors=3) at the scene's size, the largest box, the square centred on it "
                      "(start = floor(centre - side/2)) kept inside the picture; no face: the centre square",
        },
        "versions": {"opencv": cv2.__version__, "libvips": pyvips.version(0) and
                     f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}"},
        "seed": args.seed,
        "jpegQuality": JPEG_QUALITY,
        "counts": {"scenes": len(scenes), **counts},
        "countsBy": split,
        "scenes": scenes,
    }
    ff.write_json(json_path, doc)
    print_table(scenes, counts, split)


if __name__ == "__main__":
    main()
