#!/usr/bin/env python3
"""OpenCV's answers for the Swift Haar-cascade evaluator, measured on Fixtures/faces/detect.

Writes
  Fixtures/faces/opencv-faces.json         detectMultiScale boxes, four cascades, every picture
  Fixtures/faces/opencv-resize-check.json  SHA-256 of cv2.resize(INTER_LINEAR_EXACT) outputs

    python3 scripts/opencv_faces.py [--cases N] [--cascades DIR]

Needs only the committed fixtures, numpy and opencv-python (4.14.0 made the committed
JSON), and the cascade XML files of Debian's opencv-data (/usr/share/opencv4/haarcascades).

=====================================================================================
cv::resize(src, dst, Size(dw, dh), 0, 0, INTER_LINEAR_EXACT), 8-bit, one channel.
Verified byte for byte against cv2 4.14.0 by verify_resize() below (random sizes 1..400
and up to 1400, shrinking and enlarging, plus the cases listed there; the count is in
opencv-resize-check.json, "verifiedCases"). CascadeClassifier.detectMultiScale builds its
pyramid with exactly this resize (verify_pyramid() checks that too).

Per axis, source length n, destination length m, for every destination index d in 0..<m:

    inv   = Double(m) / Double(n)             // cv::resize's inv_scale, IEEE double
    scale = 1.0 / inv                         // NOT Double(n) / Double(m): the twice-rounded
                                              // value decides ties, see below
    f     = scale * (Double(d) + 0.5) - 0.5   // a rounded multiply, then a rounded subtract
                                              // (no fused multiply-add)
    i     = Int(floor(f))
    if i < 0 || n == 1      { i0 = 0;     w1 = 0 }      // before the first pixel: clamp
    else if i >= n - 1      { i0 = n - 1; w1 = 0 }      // on or past the last pixel: clamp
    else                    { i0 = i;     w1 = Int(((f - Double(i)) * 256).rounded(.toNearestOrEven)) }
    w0 = 256 - w1                             // w1 can be 256 (fraction >= 511/512): w0 = 0
    i1 = min(i0 + 1, n - 1)

Horizontal pass first, on every source row y that is used (8 fraction bits, fits UInt16):
    H[y][dx] = wx0[dx] * S[y][x0[dx]] + wx1[dx] * S[y][x1[dx]]
Then the vertical pass (16 fraction bits, fits UInt32), and one rounding at the end:
    V = wy0[dy] * H[y0[dy]][dx] + wy1[dy] * H[y1[dy]][dx]
    D[dy][dx] = UInt8((V + 32768) >> 16)      // at most 255, no clamping needed

Notes:
 * The fraction (f - i) is exact in double; * 256 is exact; ties (k + 0.5) round to even.
   Ties are common (e.g. m = 256 or 512 with odd n), so half-up rounding is wrong.
 * Exact rational coordinates, ((2d + 1) n - m) / 2m, are NOT the same: for some sizes
   (97 -> 768, 93 -> 256, 49 -> 256, ...) the double f lands a hair off an exact tie and
   rounds the other way. Use the double computation above.
 * The 2x shrink in both axes (OpenCV switches to INTER_AREA's fast path, (a+b+c+d+2)>>2)
   and the same-size copy give the same bytes as the rule, so no special case is needed.
 * The pyramid in detectMultiScale: level factors are 1, s, s*s, ... accumulated in double
   and stored as Float; the scaled picture is cvRound(Float(W) / factor) x
   cvRound(Float(H) / factor), computed in Float, rounded half to even; then it is resized
   with the rule above. verify_pyramid() checks this on the fixtures (raw windows of one
   pyramid level = raw windows of the picture pre-resized with this rule).
=====================================================================================
"""
import argparse
import hashlib
import json
import os
import re
import struct
import sys

import cv2
import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FACES = os.path.join(REPO, "Fixtures", "faces")
CASCADE_DIR = "/usr/share/opencv4/haarcascades"
CASCADES = ["haarcascade_frontalface_default.xml", "haarcascade_frontalface_alt2.xml",
            "haarcascade_profileface.xml", "haarcascade_frontalcatface.xml"]
SCALE_FACTOR = 1.1
MIN_NEIGHBORS = 3
VERIFY_SEED = 4242


# ----------------------------------------------------------- the bit-exact resize rule

def axis_taps(n, m):
    """(i0, i1, w0, w1) int64 arrays of length m for source length n -> destination m."""
    inv = m / n                      # double, as cv::resize computes inv_scale
    scale = 1.0 / inv
    d = np.arange(m, dtype=np.float64)
    f = scale * (d + 0.5) - 0.5      # numpy: separate IEEE multiply and subtract
    i = np.floor(f).astype(np.int64)
    w1 = np.rint((f - i) * 256.0).astype(np.int64)  # np.rint: half to even
    left = (i < 0) | (n == 1)
    right = (i >= n - 1) & ~left
    i0 = np.where(left, 0, np.where(right, n - 1, i))
    w1 = np.where(left | right, 0, w1)
    i1 = np.minimum(i0 + 1, n - 1)
    return i0, i1, 256 - w1, w1


def resize_linear_exact(src, dw, dh):
    """numpy port of cv2.resize(src, (dw, dh), interpolation=cv2.INTER_LINEAR_EXACT),
    2-D uint8 only."""
    sh, sw = src.shape
    x0, x1, wx0, wx1 = axis_taps(sw, dw)
    y0, y1, wy0, wy1 = axis_taps(sh, dh)
    s = src.astype(np.int64)
    h = s[:, x0] * wx0 + s[:, x1] * wx1                                   # 8 fraction bits
    v = h[y0, :] * wy0[:, None] + h[y1, :] * wy1[:, None]                 # 16 fraction bits
    return ((v + 32768) >> 16).astype(np.uint8)


def verify_resize(cases, seed=VERIFY_SEED):
    """Compare resize_linear_exact with cv2 on `cases` random sizes plus fixed cases.
    Returns the number of cases checked; exits on the first mismatch."""
    rng = np.random.default_rng(seed)
    fixed = [
        # ties where exact rationals and the double rule disagree
        ((97, 61), (768, 768)), ((93, 7), (256, 7)), ((49, 5), (256, 5)), ((7, 123), (7, 256)),
        ((186, 3), (512, 3)), ((301, 11), (256, 11)), ((333, 9), (512, 9)),
        # 2x in both axes: OpenCV takes INTER_AREA's fast path
        ((640, 428), (320, 214)), ((98, 62), (49, 31)), ((2, 2), (1, 1)),
        # one pixel wide or high, identity, extremes
        ((1, 1), (5, 3)), ((1, 40), (1, 17)), ((40, 1), (13, 1)), ((5, 5), (1, 1)),
        ((33, 29), (33, 29)), ((3, 2), (1000, 3)), ((1000, 3), (3, 1000)),
    ]
    count = 0

    def check(sw, sh, dw, dh):
        img = rng.integers(0, 256, (sh, sw), dtype=np.uint8)
        want = cv2.resize(img, (dw, dh), interpolation=cv2.INTER_LINEAR_EXACT)
        got = resize_linear_exact(img, dw, dh)
        if not np.array_equal(want, got):
            bad = np.argwhere(want != got)[:5].tolist()
            sys.exit(f"resize rule differs from cv2 for {sw}x{sh} -> {dw}x{dh} at {bad}")

    for (sw, sh), (dw, dh) in fixed:
        check(sw, sh, dw, dh)
        count += 1
    for k in range(cases):
        top = 400 if k % 4 else 1400
        sw, sh = (int(v) for v in rng.integers(1, top + 1, 2))
        mode = k % 3
        if mode == 0:    # anything
            dw, dh = (int(v) for v in rng.integers(1, top + 1, 2))
        elif mode == 1:  # shrink, pyramid-like
            fct = rng.uniform(1.0, 6.0)
            dw, dh = max(1, int(round(sw / fct))), max(1, int(round(sh / fct)))
        else:            # enlarge
            fct = rng.uniform(1.0, max(1.0, min(4.0, 1600 / max(sw, sh))))
            dw, dh = max(1, int(round(sw * fct))), max(1, int(round(sh * fct)))
        check(sw, sh, dw, dh)
        count += 1
    return count


# ------------------------------------------------------------ the resize check fixture

LCG_MUL = 6364136223846793005
LCG_ADD = 1442695040888963407
MASK64 = (1 << 64) - 1


def lcg_gray(width, height, seed):
    """The test pictures of opencv-resize-check.json: row-major bytes from a 64-bit LCG,
    state = state * 6364136223846793005 + 1442695040888963407 (mod 2^64), starting at
    `seed`; each pixel is the top byte of the state after one step."""
    out = bytearray(width * height)
    state = seed
    for k in range(width * height):
        state = (state * LCG_MUL + LCG_ADD) & MASK64
        out[k] = state >> 56
    return np.frombuffer(bytes(out), np.uint8).reshape(height, width)


def pyramid_size(w, h, level, scale_factor=SCALE_FACTOR):
    factor = 1.0
    for _ in range(level):
        factor *= scale_factor
    f = np.float32(factor)
    return int(np.rint(np.float32(w) / f)), int(np.rint(np.float32(h) / f))


RESIZE_IMAGES = [
    ("a", 97, 61, 1, [(48, 30), (50, 31), pyramid_size(97, 61, 1), pyramid_size(97, 61, 4),
                      (194, 122), (768, 768), (13, 200), (97, 1), (1, 1)]),
    ("b", 640, 427, 2, [pyramid_size(640, 427, 1), pyramid_size(640, 427, 2), pyramid_size(640, 427, 7),
                        pyramid_size(640, 427, 20), (320, 214), (100, 67), (24, 24), (800, 534), (427, 640)]),
    ("c", 33, 29, 3, [(30, 26), (24, 24), (17, 15), (66, 58), (100, 87), (2, 2), (1, 29), (33, 29)]),
]


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def resize_check(verified):
    images = []
    for name, w, h, seed, targets in RESIZE_IMAGES:
        src = lcg_gray(w, h, seed)
        entry = {"name": name, "width": w, "height": h, "seed": seed,
                 "sha256": sha256(src.tobytes()), "sum": int(src.sum(dtype=np.int64)),
                 "first8": src.reshape(-1)[:8].tolist(), "resizes": []}
        for dw, dh in targets:
            out = cv2.resize(src, (dw, dh), interpolation=cv2.INTER_LINEAR_EXACT)
            assert np.array_equal(out, resize_linear_exact(src, dw, dh)), (name, dw, dh)
            entry["resizes"].append({"width": dw, "height": dh, "sha256": sha256(out.tobytes()),
                                     "rowSums": out.sum(axis=1, dtype=np.int64).tolist()})
        images.append(entry)
    return {
        "opencv": cv2.__version__,
        "call": "cv2.resize(src, (width, height), interpolation=cv2.INTER_LINEAR_EXACT)",
        "generator": "source pixels, row-major, one byte each: state = seed; for every pixel "
                     "state = state * 6364136223846793005 + 1442695040888963407 (mod 2^64), "
                     "pixel = state >> 56",
        "rule": "see the comment block at the top of scripts/opencv_faces.py",
        "sha256Of": "the destination's bytes, row-major, no padding; rowSums: each row's sum, to find the first bad row",
        "verifiedCases": verified,
        "images": images,
    }


# ------------------------------------------------------------------- the face boxes

def exif_orientation(data):
    """The EXIF Orientation of a JPEG (1 if none), read from APP1 IFD0."""
    pos = 2
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        marker = data[pos + 1]
        if marker in (0xD9, 0xDA):
            break
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        seg = data[pos + 4:pos + 2 + length]
        if marker == 0xE1 and seg[:6] == b"Exif\x00\x00":
            tiff = seg[6:]
            e = ">" if tiff[:2] == b"MM" else "<"
            ifd = struct.unpack(e + "I", tiff[4:8])[0]
            count = struct.unpack(e + "H", tiff[ifd:ifd + 2])[0]
            for k in range(count):
                tag, typ, _, value = struct.unpack(e + "HHIH", tiff[ifd + 2 + 12 * k:ifd + 12 + 12 * k])
                if tag == 0x0112:
                    return value
        pos += 2 + length
    return 1


def upright(stored, orientation):
    if orientation == 6:
        return cv2.rotate(stored, cv2.ROTATE_90_CLOCKWISE)
    if orientation == 8:
        return cv2.rotate(stored, cv2.ROTATE_90_COUNTERCLOCKWISE)
    if orientation == 3:
        return cv2.rotate(stored, cv2.ROTATE_180)
    assert orientation == 1, orientation
    return stored


def fixture_names(folder):
    return sorted(n for n in os.listdir(folder) if n.lower().endswith(".jpg"))


def load_upright(path, stats):
    """cv2.imread, checked against decoding without orientation and turning ourselves."""
    with open(path, "rb") as f:
        data = f.read()
    orientation = exif_orientation(data)
    auto = cv2.imread(path, cv2.IMREAD_COLOR)
    raw = cv2.imread(path, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    mine = upright(raw, orientation)
    if orientation != 1:
        applied = np.array_equal(auto, mine)
        stats.setdefault("imreadAppliedOrientation", []).append(applied)
    return mine, orientation


def measure_faces(detect, cascade_dir):
    cascades = {}
    for name in CASCADES:
        cc = cv2.CascadeClassifier(os.path.join(cascade_dir, name))
        if cc.empty():
            sys.exit(f"cannot load {name} from {cascade_dir}")
        cascades[name] = cc
    pictures = {}
    stats = {}
    for name in fixture_names(detect):
        img, orientation = load_upright(os.path.join(detect, name), stats)
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        found = {}
        for cname, cc in cascades.items():
            boxes = cc.detectMultiScale(gray, scaleFactor=SCALE_FACTOR, minNeighbors=MIN_NEIGHBORS)
            found[cname] = [[int(v) for v in b] for b in boxes] if len(boxes) else []
        pictures[name] = {"width": int(img.shape[1]), "height": int(img.shape[0]),
                          "graySum": int(gray.sum(dtype=np.int64)), "exifOrientation": orientation,
                          "cascades": found}
    return pictures, stats


def verify_pyramid(detect, cascade_dir, factors=(1.15, 1.35, 1.55, 1.75, 1.95)):
    """detectMultiScale at one pyramid level (minSize = maxSize = that level's window,
    minNeighbors 0: raw windows) must equal detectMultiScale at factor 1 on the picture
    pre-resized with the rule; INTER_LINEAR (not exact) is counted for contrast."""
    cc = cv2.CascadeClassifier(os.path.join(cascade_dir, CASCADES[0]))
    win = 24
    same = {"rule": 0, "INTER_LINEAR": 0}
    levels = nonempty = 0
    for name in fixture_names(detect):
        gray = cv2.cvtColor(cv2.imread(os.path.join(detect, name)), cv2.COLOR_BGR2GRAY)
        H, W = gray.shape
        for s in factors:
            f = np.float32(s)
            w = int(round(win * s))
            raw = cc.detectMultiScale(gray, scaleFactor=s, minNeighbors=0, minSize=(w, w), maxSize=(w, w))
            want = sorted((int(x), int(y)) for x, y, _, _ in raw) if len(raw) else []
            sw, sh = int(np.rint(np.float32(W) / f)), int(np.rint(np.float32(H) / f))
            for label, small in (("rule", resize_linear_exact(gray, sw, sh)),
                                 ("INTER_LINEAR", cv2.resize(gray, (sw, sh), interpolation=cv2.INTER_LINEAR))):
                d = cc.detectMultiScale(small, scaleFactor=1.5, minNeighbors=0, minSize=(win, win), maxSize=(win, win))
                got = sorted((int(np.rint(np.float32(x) * f)), int(np.rint(np.float32(y) * f)))
                             for x, y, _, _ in d) if len(d) else []
                same[label] += got == want
            levels += 1
            nonempty += bool(want)
    return {"levels": levels, "levelsWithRawWindows": nonempty, "sameAsRule": same["rule"],
            "sameAsINTER_LINEAR": same["INTER_LINEAR"]}


def write_json(path, doc):
    """Indented JSON with arrays of numbers kept on one line."""
    text = json.dumps(doc, indent=1)
    text = re.sub(r"\[\s*(-?\d[-\d.,\s]*?)\s*\]",
                  lambda m: "[" + ", ".join(m.group(1).replace(",", " ").split()) + "]", text)
    with open(path, "w") as f:
        f.write(text + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=3000, help="random resize cases to verify")
    ap.add_argument("--cascades", default=CASCADE_DIR)
    ap.add_argument("--out", default=FACES)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if cv2.__version__ != "4.14.0":
        print(f"warning: opencv {cv2.__version__}, the committed JSON was made with 4.14.0")

    verified = verify_resize(args.cases)
    print(f"resize rule = cv2 INTER_LINEAR_EXACT on {verified} cases")
    write_json(os.path.join(args.out, "opencv-resize-check.json"), resize_check(verified))

    detect = os.path.join(args.out, "detect")
    pyramid = verify_pyramid(detect, args.cascades)
    print(f"pyramid: {pyramid}")
    if pyramid["sameAsRule"] != pyramid["levels"]:
        sys.exit("detectMultiScale's pyramid does not match the resize rule")

    pictures, stats = measure_faces(detect, args.cascades)
    applied = stats.get("imreadAppliedOrientation", [])
    doc = {
        "opencv": cv2.__version__,
        "scaleFactor": SCALE_FACTOR,
        "minNeighbors": MIN_NEIGHBORS,
        "minSize": "default (the cascade's window)",
        "call": "cv2.CascadeClassifier(path).detectMultiScale(cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY), "
                "scaleFactor=1.1, minNeighbors=3); boxes [x, y, w, h] in OpenCV's order",
        "upright": "cv2.imread applies the EXIF orientation" if applied and all(applied)
                   else "turned by this script from the EXIF orientation",
        "cascadeFiles": {n: {"path": os.path.join(CASCADE_DIR, n),
                             "sha256": sha256(open(os.path.join(args.cascades, n), "rb").read())}
                         for n in CASCADES},
        "pyramidCheck": pyramid,
        "pictures": pictures,
    }
    write_json(os.path.join(args.out, "opencv-faces.json"), doc)
    print(f"imread applied EXIF orientation: {applied}")
    for c in CASCADES:
        n = sum(len(p["cascades"][c]) for p in pictures.values())
        k = sum(bool(p["cascades"][c]) for p in pictures.values())
        print(f"{c}: {n} boxes in {k} of {len(pictures)} pictures")


if __name__ == "__main__":
    main()
