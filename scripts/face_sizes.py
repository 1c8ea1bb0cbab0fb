#!/usr/bin/env python3
"""Faces of every size on every aspect ratio: make seeded scenes from four real people,
and measure how detectors find them and how square crops keep them.

Subcommands
  people   cut the four people's heads out of the photos their packages ship, into
           Fixtures/faces/people/ (needs the photos: see PEOPLE; run once)
  make     seeded scenes + truth JSON into a folder (only Fixtures/faces/people/ and the
           corpus photos are needed)
  measure  detection rate by face-size band and "kept" counts by crop, as Markdown tables
           and a results JSON

    python3 scripts/face_sizes.py make --out /work/scenes-sizes/train --seed 1 --count 140
    python3 scripts/face_sizes.py make --out /work/scenes-sizes/held --seed 2 --count 140
    python3 scripts/face_sizes.py make --fixtures        # Fixtures/faces/sizes (35, <= 1200 px)
    python3 scripts/face_sizes.py measure /work/scenes-sizes/train \\
        --hexmask .build/optimised/release/hexmask --faces .build/optimised/release/hexmask-faces \
        [--compare /path/to/main/hexmask] [--results results.json] [--skip-python]

Scenes: a background (a corpus photo, sharp or defocused, a gradient or noise), then one
face (three in four scenes) or a row of two or three different people of about the same
size, pasted as a feathered head-and-shoulders cut-out; face widths of 2, 3, 5, 10 and 20 %
of the long side (+-8 %); aspect ratios 4:3, 3:4, 3:2, 16:9, 9:16, 1:1 and 2:1; long sides
900-4032 px (a face is never enlarged more than 3x from its cut-out, which caps the long
side of the 20 % scenes); a saturated blob or flower in 2 of 5 scenes and a skin-coloured
patch in 1 of 5. Faces sit off the middle along the long axis in 3 of 4 scenes, placed so
that a square of side = the short side can keep them all.

Truth boxes: OpenCV alt2's box on the cut-out (detectMultiScale(gray, 1.1, 3), largest),
scaled and moved with the paste. So the truth is where alt2 itself puts its box on that
head at a large size, and IoU with any alt2-like box is comparable.

Deterministic: same seed, same numpy / opencv-python, same bytes.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import face_fixtures as ff  # noqa: E402
import face_scenes as fs  # noqa: E402

CASCADES = "/usr/share/opencv4/haarcascades/"
ALT2 = CASCADES + "haarcascade_frontalface_alt2.xml"
PEOPLE_DIR = os.path.join(ROOT, "Fixtures", "faces", "people")
FIXTURE_DIR = os.path.join(ROOT, "Fixtures", "faces", "sizes")

# name: (file in the package, package, licence). Only public-domain pictures: see MANIFEST.
PEOPLE = {
    "collins": ("skimage/data/astronaut.png", "scikit-image 0.26.0 (PyPI wheel)",
                "public domain (NASA; Eileen Collins)"),
    "hopper": ("matplotlib/mpl-data/sample_data/grace_hopper.jpg", "matplotlib 3.11.2 (PyPI wheel)",
               "public domain (US Navy photograph of Grace Hopper, 1984)"),
    "obama": ("face_recognition-1.3.0/tests/test_images/obama.jpg", "face_recognition 1.3.0 (PyPI sdist)",
              "public domain (official White House portrait of Barack Obama, 2012, Pete Souza)"),
    "biden": ("face_recognition-1.3.0/tests/test_images/biden.jpg", "face_recognition 1.3.0 (PyPI sdist)",
              "public domain (official Vice-Presidential portrait of Joe Biden, 2013, White House)"),
}
CUT_FACE_MAX = 200  # a stored cut-out's face is at most this wide

BANDS = (0.02, 0.03, 0.05, 0.10, 0.20)
ASPECTS = ((4, 3), (3, 4), (3, 2), (16, 9), (9, 16), (1, 1), (2, 1))
LONG_SIDES = (900, 1200, 1600, 2048, 3000, 4032)
FIXTURE_LONG_SIDES = (900, 1000, 1200)
MAX_ENLARGE = 3.0
BACKGROUNDS = (["blur:coffee.png", "blur:rocket.jpg", "blur:hubble_deep_field.jpg", "blur:retina.jpg"]
               + ["coffee.png", "rocket.jpg", "retina.jpg", "gradient", "noise"])
# --wide: a set wider than the one the crop was first tuned on: more sizes, one to
# five people, every corpus photo without a face as a background (the ginger cat's fur and
# the coffee's browns are skin-coloured everywhere), one scene in six black and white, one
# in five with its group at the end of the long side and off the middle across.
WIDE_BANDS = (0.02, 0.03, 0.04, 0.05, 0.07, 0.10, 0.14, 0.20)
WIDE_BACKGROUNDS = BACKGROUNDS + ["chelsea.png", "blur:chelsea.png", "v.png", "blur:v.png"]
SKIN_BGR = ((120, 160, 215), (95, 135, 190), (70, 105, 160), (140, 180, 230))
IOU_DETECTED = 0.3
KEPT_CENTRE = 0.3
KEPT_TEXT = ("A face is kept by a square crop when its whole truth box is inside the square and "
             "the box's centre is within 0.3 x side of the square's centre on each axis. Each face "
             "of a multi-face scene counts on its own (placement makes keeping all of them possible).")
DETECTED_TEXT = "A face is found when some returned box has IoU >= 0.3 with its truth box."


# ----------------------------------------------------------------------------- people

def people_cmd(args):
    """Cut each person's head and shoulders around alt2's box, face <= 200 px wide."""
    cascade = cv2.CascadeClassifier(ALT2)
    os.makedirs(PEOPLE_DIR, exist_ok=True)
    for name, (rel, _, _) in PEOPLE.items():
        img = cv2.imread(os.path.join(args.source, rel), cv2.IMREAD_COLOR)
        if img is None:
            sys.exit(f"cannot read {rel} under {args.source}")
        boxes = cascade.detectMultiScale(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), 1.1, 3)
        fx, fy, fw, _ = max((list(map(int, b)) for b in boxes), key=lambda b: b[2])
        H, W = img.shape[:2]
        x0, y0 = max(0, int(fx - 1.1 * fw)), max(0, int(fy - 0.7 * fw))
        x1, y1 = min(W, int(fx + 2.1 * fw)), min(H, int(fy + 3.0 * fw))
        cut = img[y0:y1, x0:x1]
        s = min(1.0, CUT_FACE_MAX / fw)
        if s < 1.0:
            cut = cv2.resize(cut, (round(cut.shape[1] * s), round(cut.shape[0] * s)), interpolation=cv2.INTER_AREA)
        cv2.imwrite(os.path.join(PEOPLE_DIR, name + ".jpg"), cut, [cv2.IMWRITE_JPEG_QUALITY, 92])
        print(name, cut.shape[1], "x", cut.shape[0])


def load_people():
    """name -> cut (bgr float, alpha float, face box) for ff.place_face."""
    cascade = cv2.CascadeClassifier(ALT2)
    out = {}
    for name in PEOPLE:
        img = cv2.imread(os.path.join(PEOPLE_DIR, name + ".jpg"), cv2.IMREAD_COLOR)
        if img is None:
            sys.exit(f"no {name}.jpg in {PEOPLE_DIR}: run `face_sizes.py people` first")
        boxes = cascade.detectMultiScale(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), 1.1, 3)
        fx, fy, fw, fh = max((list(map(int, b)) for b in boxes), key=lambda b: b[2])
        H, W = img.shape[:2]
        cx, cy = fx + fw / 2.0, fy + fh / 2.0
        alpha = np.maximum(ff.smooth_ellipse(H, W, cx, cy - 0.05 * fw, 0.62 * fw, 0.85 * fw, 0.12),
                           ff.smooth_ellipse(H, W, cx, cy + 1.5 * fw, 1.45 * fw, 0.8 * fw, 0.2))
        # fade out towards the cut-out's own edges, so no straight cut shows where a photo ends
        ramp = 0.25 * fw
        ys, xs = np.mgrid[0:H, 0:W].astype(np.float64)
        edge = np.minimum(np.minimum(xs + 0.5, W - 0.5 - xs), np.minimum(ys + 0.5 + ramp, H - 0.5 - ys))
        alpha *= np.clip(edge / ramp, 0.0, 1.0)
        out[name] = (img.astype(np.float64), alpha, (fx, fy, fw, fh))
    return out


# ----------------------------------------------------------------------------- scenes

def skin_patch(canvas, rng, centre, radius):
    """A skin-coloured, softly shaded and lightly textured ellipse (a hand, sand, wood)."""
    h, w = canvas.shape[:2]
    cx, cy = centre
    rx, ry = radius, radius * rng.uniform(0.5, 1.0)
    pad = int(radius) + 4
    x0, y0, x1, y1 = max(0, int(cx) - pad), max(0, int(cy) - pad), min(w, int(cx) + pad), min(h, int(cy) + pad)
    a = ff.smooth_ellipse(y1 - y0, x1 - x0, cx - x0, cy - y0, rx, ry, 0.25)
    colour = np.array(SKIN_BGR[int(rng.integers(len(SKIN_BGR)))], np.float64)
    tex = 1.0 + 0.08 * rng.standard_normal((y1 - y0, x1 - x0))
    layer = colour[None, None, :] * cv2.GaussianBlur(tex, (0, 0), max(1.0, radius / 40))[..., None]
    region = canvas[y0:y1, x0:x1]
    canvas[y0:y1, x0:x1] = region * (1 - a[..., None]) + layer * a[..., None]
    return [x0, y0, x1 - x0, y1 - y0]


def scene_spec(seed, index, long_sides, people, wide=False):
    """Every choice of one scene, from (seed, index) alone."""
    rng = np.random.default_rng([seed, index])
    bands = WIDE_BANDS if wide else BANDS
    band = bands[index % len(bands)]
    aw, ah = ASPECTS[(index // len(bands)) % len(ASPECTS)]
    names = list(people)
    count = 1
    roll = rng.random()
    if wide:
        count = 1 + int(rng.integers(5))
    elif band <= 0.10 and roll < 0.25:
        count = 2 if roll < 0.15 else 3
    # Five people from four: the fifth is someone again (mirrored or not, another size).
    order = list(rng.permutation(len(names))) + list(rng.permutation(len(names)))
    who = [names[int(i)] for i in order[:count]]
    widths = [band * rng.uniform(0.92, 1.08) for _ in who]
    L = int(long_sides[int(rng.integers(len(long_sides)))])
    # never enlarge a cut-out more than MAX_ENLARGE times
    cap = min(people[n][2][2] * MAX_ENLARGE / f for n, f in zip(who, widths))
    L = int(max(min(L, cap), min(long_sides)))
    w, h = (L, round(L * ah / aw)) if aw >= ah else (round(L * aw / ah), L)
    backgrounds = WIDE_BACKGROUNDS if wide else BACKGROUNDS
    spec = dict(band=band, aspect=f"{aw}:{ah}", who=who, widths=widths, width=w, height=h,
                background=backgrounds[int(rng.integers(len(backgrounds)))],
                saturated=bool(rng.random() < 0.4), skin=bool(rng.random() < 0.2),
                offCentre=bool(rng.random() < 0.75))
    if wide:
        spec["gray"] = bool(rng.random() < 1 / 6)
        spec["edge"] = bool(rng.random() < 0.2)
    return rng, spec


def make_scene(corpus, people, seed, index, long_sides, wide=False):
    rng, spec = scene_spec(seed, index, long_sides, people, wide)
    w, h = spec["width"], spec["height"]
    L, S = max(w, h), min(w, h)
    landscape = w >= h
    canvas = ff.background(corpus, spec["background"], w, h, rng)
    fws = [max(8, int(round(f * L))) for f in spec["widths"]]
    # a row of people, 1.45 face widths apart; drop people until a square can keep them all
    while len(fws) > 1 and 1.45 * max(fws) * (len(fws) - 1) / 2 > 0.22 * S:
        fws.pop()
        spec["who"].pop()
        spec["widths"].pop()
    gap = 1.45 * max(fws)
    span = gap * (len(fws) - 1)
    half = span / 2 + max(fws) / 2
    # off the middle along the long axis, at most as far as a full-side square centred
    # on the group (kept inside the picture) still has each face within 0.25 S of its centre
    mid = L / 2
    edge = spec.get("edge", False)
    if (spec["offCentre"] or edge) and L > S:
        sign = 1 if rng.random() < 0.5 else -1
        reach = rng.uniform(0.9, 1.0) if edge else rng.uniform(0.3, 1.0)
        mid = L / 2 + sign * reach * max(0.0, (L - S) / 2 + 0.25 * S - span / 2)
    mid = min(max(mid, half + 2), L - half - 2)
    across0 = rng.uniform(0.38, 0.55) * S
    if edge:  # off the middle across too, as far as a full-side square still keeps the faces
        across0 = (rng.uniform(0.22, 0.27) if rng.random() < 0.5 else rng.uniform(0.73, 0.78)) * S
        # a portrait's row of people runs across (along x): keep all of it inside
        reach = 0.75 * max(fws) + (0 if landscape else span / 2)
        across0 = min(max(across0, reach + 2), S - reach - 2)
    boxes = []
    for k, (name, fw) in enumerate(zip(spec["who"], fws)):
        # people stand side by side: the row runs along x whatever the aspect
        step = -span / 2 + k * gap
        jitter = rng.uniform(-0.04, 0.04) * S
        centre = (mid + step, across0 + jitter) if landscape else (across0 + step, mid + jitter)
        mirror = bool(rng.random() < 0.5)
        angle = float(np.round(rng.uniform(-4, 4), 1))
        gain = float(np.round(rng.uniform(0.85, 1.15), 2))
        box, _ = ff.place_face(canvas, people[name], fw, centre, mirror=mirror, angle=angle, gain=gain)
        boxes.append(box)
    for b in boxes:
        assert b[0] >= 0 and b[1] >= 0 and b[0] + b[2] <= w and b[1] + b[3] <= h, (index, b, w, h)
    distractors = []
    kinds = (["saturated"] if spec["saturated"] else []) + (["skin"] if spec["skin"] else [])
    for kind in kinds:
        radius = float(rng.uniform(0.04, 0.10) * L)
        for _ in range(200):
            c = (rng.uniform(radius + 2, w - radius - 2), rng.uniform(radius + 2, h - radius - 2))
            r = radius * 1.15
            if all(fs.boxes_apart([c[0] - r, c[1] - r, 2 * r, 2 * r], b, 0.5 * b[2]) for b in boxes):
                break
        else:
            continue
        if kind == "saturated":
            colour = list(fs.DISTRACTOR_COLOURS)[int(rng.integers(len(fs.DISTRACTOR_COLOURS)))]
            shape = "flower" if rng.random() < 0.5 else "blob"
            dbox = fs.draw_distractor(canvas, rng, c, radius, fs.DISTRACTOR_COLOURS[colour], shape)
            distractors.append({"kind": kind, "shape": shape, "colour": colour, "box": dbox})
        else:
            distractors.append({"kind": kind, "box": skin_patch(canvas, rng, c, radius)})
    if spec.get("gray"):
        canvas = np.repeat(cv2.cvtColor(ff.to_u8(canvas), cv2.COLOR_BGR2GRAY)[..., None], 3, axis=2).astype(np.float64)
    info = {k: spec[k] for k in ("band", "aspect", "who", "width", "height", "background", "offCentre")
            if k in spec}
    info.update({k: spec[k] for k in ("gray", "edge") if k in spec})
    info["faces"] = boxes
    info["distractors"] = distractors
    return ff.to_u8(canvas), info


def make_cmd(args):
    corpus = ff.Corpus(args.corpus)
    people = load_people()
    if args.fixtures:
        out, seed, count, sides, quality = FIXTURE_DIR, 3, 35, FIXTURE_LONG_SIDES, 80
    else:
        out, seed, count, sides, quality = args.out, args.seed, args.count, LONG_SIDES, 90
    os.makedirs(out, exist_ok=True)
    scenes = {}
    for i in range(count):
        img, info = make_scene(corpus, people, seed, i, sides, args.wide)
        name = f"s{seed}-{i:03d}-{int(info['band'] * 100):02d}pc-{info['aspect'].replace(':', 'x')}.jpg"
        ff.write_bytes(os.path.join(out, name), ff.encode_jpeg(img, quality))
        scenes[name] = info
    doc = {"about": "scripts/face_sizes.py make: seeded scenes, faces at 2-20 % of the long side.",
           "seed": seed, "truthBoxes": "OpenCV alt2's box on the person's cut-out, moved with the paste",
           "detected": DETECTED_TEXT, "kept": KEPT_TEXT, "scenes": scenes}
    if args.fixtures:
        old = os.path.join(out, "truth.json")
        if os.path.exists(old):
            with open(old) as f:
                prev = json.load(f)
            if "floor" in prev:
                doc["floor"] = prev["floor"]
    ff.write_json(os.path.join(out, "truth.json"), doc)
    print(f"{count} scenes in {out}")


# ---------------------------------------------------------------------------- measure

def iou(a, b):
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / float(a[2] * a[3] + b[2] * b[3] - inter)


def found(truth, boxes):
    return any(iou(truth, b) >= IOU_DETECTED for b in boxes)


def kept(box, crop):
    x, y, w, h = box
    cx, cy, side = crop
    inside = x >= cx and y >= cy and x + w <= cx + side and y + h <= cy + side
    mx, my = cx + side / 2.0, cy + side / 2.0
    return bool(inside and abs(x + w / 2.0 - mx) <= KEPT_CENTRE * side and abs(y + h / 2.0 - my) <= KEPT_CENTRE * side)


def square_on(centre, w, h):
    """Full-side square centred on `centre` (x, y), kept inside (CropSquare(focus:))."""
    side = min(w, h)
    x = min(max(int(np.floor(centre[0] - side / 2.0)), 0), w - side)
    y = min(max(int(np.floor(centre[1] - side / 2.0)), 0), h - side)
    return [x, y, side]


def opencv_boxes(path, long_side, min_fraction):
    """alt2 detectMultiScale(gray, 1.1, 3) on a copy `long_side` px long (None: full size)."""
    gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    H, W = gray.shape
    s = 1.0
    if long_side and max(W, H) > long_side:
        s = long_side / max(W, H)
        gray = cv2.resize(gray, (round(W * s), round(H * s)), interpolation=cv2.INTER_AREA)
    cascade = cv2.CascadeClassifier(ALT2)
    m = max(20, int(min_fraction * max(gray.shape))) if min_fraction else 20
    boxes = cascade.detectMultiScale(gray, 1.1, 3, minSize=(m, m))
    return [[int(round(v / s)) for v in b] for b in boxes]


def vips_attention(path):
    """libvips smartcrop(side, side, interesting=attention): the square it returns.
    libvips places the square at attention_x/y - side/2, kept inside (checked by pixels)."""
    import pyvips
    image = pyvips.Image.new_from_file(path, access="random")
    side = min(image.width, image.height)
    crop, extra = image.smartcrop(side, side, interesting="attention", attention_x=True, attention_y=True)
    ax, ay = extra["attention_x"], extra["attention_y"]
    x = min(max(ax - side // 2, 0), image.width - side)
    y = min(max(ay - side // 2, 0), image.height - side)
    got = crop.numpy()
    pixels = image.numpy()
    for dx in (0, -1, 1, -2, 2):
        for dy in (0, -1, 1, -2, 2):
            xx, yy = x + dx, y + dy
            if 0 <= xx <= image.width - side and 0 <= yy <= image.height - side and np.array_equal(
                    got, pixels[yy:yy + side, xx:xx + side]):
                return [xx, yy, side]
    return [x, y, side]


def per_scene_python(path):
    """Everything Python measures for one scene (run in a worker)."""
    gray_shape = cv2.imread(path, cv2.IMREAD_GRAYSCALE).shape
    return {"cv800": opencv_boxes(path, 800, None),
            "cvFull": opencv_boxes(path, None, 0.015),
            "vips": vips_attention(path), "shape": gray_shape}


def run_hexmask(binary, folder, names, gravity, jobs, extra=()):
    """hexmask --gravity G --size 256 --json over the scenes: name -> [x, y, side]."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [binary, "--gravity", gravity, "--size", "256", "--json", "-j", str(jobs), "--out-dir", out]
        cmd += list(extra)
        cmd += [os.path.join(folder, n) for n in names]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{' '.join(cmd[:8])} ...: status {run.returncode}\n{run.stderr[-2000:]}")
    crops = {}
    for line in run.stdout.splitlines():
        row = json.loads(line)
        src = row.get("input") or row.get("source") or row.get("file")
        c = row.get("crop")
        if src and c:
            crops[os.path.basename(src)] = [c["x"], c["y"], c["side"]]
    missing = [n for n in names if n not in crops]
    if missing:
        sys.exit(f"hexmask --gravity {gravity}: no crop for {missing[:3]}; first row: {run.stdout[:400]}")
    return crops


def run_faces(binary, folder, names, jobs):
    """hexmask-faces --crop alt2,catface: name -> boxes (in upright input pixels)."""
    cascades = CASCADES + "haarcascade_frontalface_alt2.xml," + CASCADES + "haarcascade_frontalcatface.xml"
    chunks = [names[i::jobs] for i in range(jobs)]
    procs = [subprocess.Popen([binary, "--crop", cascades] + [os.path.join(folder, n) for n in c],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in chunks if c]
    result = {}
    for p in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            sys.exit(f"hexmask-faces: status {p.returncode}: {err[-1000:]}")
        for line in out.splitlines():
            row = json.loads(line)
            src = row.get("input") or row.get("path") or row.get("file")
            result[os.path.basename(src)] = row.get("faces", [])
    return result


ASPECT_GROUPS = {"landscape": ("4:3", "3:2", "16:9", "2:1"), "portrait": ("3:4", "9:16"), "square": ("1:1",)}


def band_names(scenes):
    """The bands the scenes have, smallest first ("2 %", ...)."""
    return [f"{b} %" for b in sorted({int(round(s["band"] * 100)) for s in scenes.values()})]


def tally(scenes, per_face):
    """per_face(name, info, k) -> bool; counts by band and aspect group: {col: [hits, total]}."""
    cols = {c: [0, 0] for c in band_names(scenes) + list(ASPECT_GROUPS) + ["all"]}
    for name, info in scenes.items():
        band = f"{int(round(info['band'] * 100))} %"
        group = next(g for g, a in ASPECT_GROUPS.items() if info["aspect"] in a)
        for k in range(len(info["faces"])):
            hit = bool(per_face(name, info, k))
            for col in (band, group, "all"):
                cols[col][0] += hit
                cols[col][1] += 1
    return cols


def markdown(title, rows):
    cols = list(next(iter(rows.values()))) if rows else []
    lines = [f"**{title}**", "", "| | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
    for label, counts in rows.items():
        lines.append(f"| {label} | " + " | ".join(f"{counts[c][0]}/{counts[c][1]}" for c in cols) + " |")
    return "\n".join(lines)


def measure_cmd(args):
    folder = args.folder
    with open(os.path.join(folder, "truth.json")) as f:
        truth = json.load(f)
    scenes = truth["scenes"]
    names = sorted(scenes)
    py = {}
    if not args.skip_python:
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            for name, r in zip(names, pool.map(per_scene_python, [os.path.join(folder, n) for n in names])):
                py[name] = r
    faces = run_faces(args.faces, folder, names, args.jobs) if args.faces else {}
    hm = {}
    if args.hexmask:
        for g in ("face", "attention"):
            hm[g] = run_hexmask(args.hexmask, folder, names, g, args.jobs)
    if args.compare:
        for g in ("face", "attention"):
            hm[g + " (compare)"] = run_hexmask(args.compare, folder, names, g, args.jobs)

    detection = {}
    if faces:
        detection["hexmask crop detector"] = tally(scenes, lambda n, i, k: found(i["faces"][k], faces[n]))
    if py:
        detection["OpenCV alt2 at 800 px"] = tally(scenes, lambda n, i, k: found(i["faces"][k], py[n]["cv800"]))
        detection["OpenCV alt2 full size"] = tally(scenes, lambda n, i, k: found(i["faces"][k], py[n]["cvFull"]))

    def largest(boxes, info):
        if not boxes:
            return square_on((info["width"] / 2.0, info["height"] / 2.0), info["width"], info["height"])
        b = max(boxes, key=lambda b: b[2] * b[3])
        return square_on((b[0] + b[2] / 2.0, b[1] + b[3] / 2.0), info["width"], info["height"])

    kept_rows = {"centre": tally(scenes, lambda n, i, k: kept(i["faces"][k], square_on(
        (i["width"] / 2.0, i["height"] / 2.0), i["width"], i["height"])))}
    if py:
        kept_rows["libvips attention"] = tally(scenes, lambda n, i, k: kept(i["faces"][k], py[n]["vips"]))
        kept_rows["OpenCV alt2 800 px, largest"] = tally(
            scenes, lambda n, i, k: kept(i["faces"][k], largest(py[n]["cv800"], i)))
        kept_rows["OpenCV alt2 full size, largest"] = tally(
            scenes, lambda n, i, k: kept(i["faces"][k], largest(py[n]["cvFull"], i)))
    for g, label in (("attention", "hexmask --gravity attention"), ("face", "hexmask --gravity face"),
                     ("attention (compare)", "--compare --gravity attention"),
                     ("face (compare)", "--compare --gravity face")):
        if g in hm:
            kept_rows[label] = tally(scenes, lambda n, i, k, g=g: kept(i["faces"][k], hm[g][n]))

    text = "\n\n".join([f"{len(scenes)} scenes, {sum(len(s['faces']) for s in scenes.values())} faces in {folder}. "
                        + DETECTED_TEXT + " " + KEPT_TEXT,
                        markdown("Faces found, by face width (% of the long side) and aspect", detection),
                        markdown("Faces kept by the square crop", kept_rows)])
    print(text)
    if args.write_floor:
        if not faces:
            sys.exit("--write-floor needs --faces")
        row = detection["hexmask crop detector"]
        truth["floor"] = {name.split()[0]: row[name][0] for name in band_names(scenes)}
        ff.write_json(os.path.join(folder, "truth.json"), truth)
        print(f"floor {truth['floor']} written to {folder}/truth.json")
    if args.results:
        per_scene = {n: {"faces": faces.get(n), **({"cv800": py[n]["cv800"], "cvFull": py[n]["cvFull"],
                                                     "vips": py[n]["vips"]} if py else {}),
                         **{"hexmask-" + g: hm[g][n] for g in hm}} for n in names}
        with open(args.results, "w") as f:
            json.dump({"folder": folder, "detection": detection, "kept": kept_rows, "markdown": text,
                       "scenes": per_scene}, f, indent=1)


def framing_cmd(args):
    """--face-size F on the one-face scenes: how many outputs show the face at 0.3-0.5 of the
    side, centred across (its centre within 0.1 side of the middle) and with its box's
    centre between 0.4 and 0.6 of the side from the top (the eyes at about 0.38)."""
    with open(os.path.join(args.folder, "truth.json")) as f:
        scenes = json.load(f)["scenes"]
    names = sorted(n for n, s in scenes.items() if len(s["faces"]) == 1)
    crops = run_hexmask(args.hexmask, args.folder, names, "face", args.jobs,
                        ["--face-size", str(args.share)])
    rows = {}
    for n in names:
        x, y, w, h = scenes[n]["faces"][0]
        cx, cy, side = crops[n]
        share = w / side
        across = abs(x + w / 2 - (cx + side / 2)) / side
        down = (y + h / 2 - cy) / side
        good = 0.3 <= share <= 0.5 and across <= 0.1 and 0.4 <= down <= 0.6
        # Whether the square asked for fits the picture unclamped (face centred across, its
        # box centre half a side down): near an edge the square slides and cannot centre it.
        want = min(w / args.share, scenes[n]["width"], scenes[n]["height"])
        fits = (x + w / 2 - want / 2 >= 0 and x + w / 2 + want / 2 <= scenes[n]["width"]
                and y + h / 2 - want / 2 >= 0 and y + h / 2 + want / 2 <= scenes[n]["height"])
        band = f"{int(round(scenes[n]['band'] * 100))} %"
        r = rows.setdefault(band, [0, 0, 0, 0])
        r[0] += good
        r[1] += 1
        r[2] += good and fits
        r[3] += fits
    total = [sum(r[i] for r in rows.values()) for i in range(4)]
    print(f"--face-size {args.share} on {total[1]} one-face scenes of {args.folder}: framed as asked "
          f"(share 0.3-0.5, centred across, box centre 0.4-0.6 down) in {total[0]}; "
          f"of the {total[3]} whose square fits unclamped, {total[2]}")
    print(" | ".join(f"{b}: {r[0]}/{r[1]} ({r[2]}/{r[3]} unclamped)"
                     for b, r in sorted(rows.items(), key=lambda i: int(i[0].split()[0]))))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("framing", help="--face-size on the one-face scenes")
    a.add_argument("folder")
    a.add_argument("--hexmask", required=True)
    a.add_argument("--share", type=float, default=0.4)
    a.add_argument("--jobs", type=int, default=2)
    a = sub.add_parser("people")
    a.add_argument("source", help="folder holding the files PEOPLE names (unpacked wheels / sdist)")
    a = sub.add_parser("make")
    a.add_argument("--out")
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--count", type=int, default=140)
    a.add_argument("--fixtures", action="store_true", help="the committed subset, Fixtures/faces/sizes")
    a.add_argument("--wide", action="store_true",
                   help="sizes 2-20 %% in eight bands, 1-5 people, more backgrounds, black and white, edges")
    a.add_argument("--corpus", default=os.path.join(ROOT, "..", "..", "shared", "corpus", "photos")
                   if not os.path.isdir("/work/shared/corpus/photos") else "/work/shared/corpus/photos")
    a = sub.add_parser("measure")
    a.add_argument("folder")
    a.add_argument("--hexmask", help="a hexmask binary: --gravity face / attention crops")
    a.add_argument("--faces", help="a hexmask-faces binary: the crop's own detector")
    a.add_argument("--compare", help="a second hexmask binary (say, main's), measured beside --hexmask")
    a.add_argument("--jobs", type=int, default=2)
    a.add_argument("--results", help="write the tables and per-scene answers here (JSON)")
    a.add_argument("--write-floor", action="store_true",
                   help="record the crop detector's found faces per band as truth.json's floor "
                        "(FaceSizeTests asserts it; raise it only when the detector gets better)")
    a.add_argument("--skip-python", action="store_true", help="no OpenCV / libvips rows (faster)")
    args = p.parse_args()
    if args.cmd == "make" and not args.fixtures and not args.out:
        p.error("make needs --out or --fixtures")
    {"people": people_cmd, "make": make_cmd, "measure": measure_cmd, "framing": framing_cmd}[args.cmd](args)


if __name__ == "__main__":
    main()
