#!/usr/bin/env python3
"""`make bench`: hexmask against libvips and ImageMagick doing the same jobs.

    python3 bench/run.py --bin .build/release [--runs 3] [--jobs a,b,c] [--work DIR]

Python 3 standard library only; pyvips is used when it can be imported (to generate the
inputs in one streamed pipeline, and as the "vips" tool), otherwise the `vips` command.

1. Generates the inputs into DIR (default .build/bench, not committed; reused while the
   recipe is unchanged) from the corpus photos ($HEXMASK_CORPUS/photos/, by default
   ../shared/corpus/photos/, else Fixtures/photos/rocket.jpg): upscaled with Lanczos-3,
   cropped, σ = 4 luma grain added so they compress like camera output rather than like
   smooth upscales, saved as JPEG q90:
     a.jpg          one 6000×4000 photo
     phone/*.jpg    18 phone-size 4032×3024 photos (every corpus photo, 3 crops each)
     c.jpg          one 20000×20000 photo (memory)
2. Runs each job with hexmask, the floor (bin/hexmask-floor: decode + encode only, see
   bench/hexmask-floor/main.swift) and, when installed, vips/pyvips and ImageMagick:
     (a) a.jpg → the centred 4000² square, hexagon-masked, 5 px white border, PNG
     (b) phone/ → 256² avatars, 2 files at a time
     (c) c.jpg → the whole 20000² square, masked, PNG
     (d) (b) on the phone photos as HEIC (needs heif-enc)
     (e) phone/ → 64², 128² and 256² avatars of each photo, 2 files at a time
     (f) planning 100 000 listed paths (--dry-run), with and without --shard
     (g) peak RSS of a -j 4 HEIC batch (8 phone-size photos → 256² avatars), with the
         default memory budget and with --memory-limit 256M; with --before BIN, also that
         hexmask (e.g. an older build) for comparison. Needs heif-enc and vips or
         ImageMagick's convert, but none of the other inputs: `--jobs g` runs it alone.
     (h) phone/ → 256² avatars with --gravity face and attention, against the centre
     (i) (b) with and without --colors 256 (palette PNG), and pngquant 256
         --nofs on the RGBA avatars, 2 at a time (needs pngquant)
     (j) phone/ → 256² avatars as WebP, AVIF and JPEG XL at their defaults (and JPEG XL
         lossless), and libvips' AVIF,
         with SSIM (and SSIMULACRA2 when the package imports) against each tool's PNG
     (k) (b) with its photos tagged Display P3 (an APP2 profile put in by
         scripts/tag_icc.py, no re-encoding): --colorspace srgb against keep and --strip,
         vipsthumbnail with and without --export-profile srgb; and (j)'s AVIF and the
         palette PNG (--colors 256) both ways, for the bytes. Its rows run round by round.
     (l) an animated GIF (100 frames, 480×480, a slow zoom and pan across
         Fixtures/photos/rocket.jpg quantised to 256 colours per frame by
         scripts/pan_zoom_gif.py; needs Pillow) → 256² animated WebP at the default quality,
         against pyvips doing the same (thumbnail n=-1, the --mask-only mask as every
         page's alpha, the border drawn over, webpsave at the same quality). Needs none of
         the other inputs: `--jobs l` runs it alone.
3. Measures median wall time over --runs runs (after one warm-up run for a and b), peak
   RSS (`/usr/bin/time -f %M`; for several processes, the largest one), CPU time and
   output bytes.
4. Prints one table per job and writes them to bench/results.md (--results).

Benchmarks, not tests: nothing here fails on a slow result; the issue's targets are
reported as met or not.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

try:
    import pyvips
except ImportError:  # the vips command does the same work, a little slower
    pyvips = None

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VIPS_JOBS = os.path.join(REPO, "bench", "vips_jobs.py")
GRAIN_SIGMA = 4
PHONE_COUNT = 18
FLOOR = "floor: hexmask-floor"
FLOOR_NOTE = ("decode + encode of hexmask's output pixels, loaded before its own clock starts "
              "(CPU and RSS include the loading)")
# Bump when the input recipe changes, so old inputs are regenerated.
RECIPE = 1


def log(message):
    print(message, file=sys.stderr, flush=True)


def run(command, **kwargs):
    return subprocess.run(command, check=True, **kwargs)


def version_of(command):
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=30)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return None


# ---------------------------------------------------------------------------- inputs


def corpus_photos():
    # HEXMASK_CORPUS names the corpus as for `make check` (a worktree elsewhere has no
    # ../shared beside it); otherwise the one beside the checkout.
    corpus = os.environ.get("HEXMASK_CORPUS") or os.path.join(REPO, "..", "shared", "corpus")
    folder = os.path.normpath(os.path.join(corpus, "photos"))
    photos = []
    if os.path.isdir(folder):
        photos = sorted(
            os.path.join(folder, name)
            for name in os.listdir(folder)
            if name.lower().endswith((".jpg", ".jpeg", ".png"))
        )
    return photos or [os.path.join(REPO, "Fixtures", "photos", "rocket.jpg")]


def image_size(path):
    if pyvips:
        image = pyvips.Image.new_from_file(path)
        return image.width, image.height
    out = subprocess.run(["vipsheader", "-f", "width", path], capture_output=True, text=True)
    width = int(out.stdout)
    out = subprocess.run(["vipsheader", "-f", "height", path], capture_output=True, text=True)
    return width, int(out.stdout)


def make_photo(source, width, height, output, zoom=1.0, anchor=(0.5, 0.5), flip=False, seed=1):
    """`source` scaled (Lanczos-3) to cover width×height × zoom, the width×height window at
    `anchor` (fractions) cut out, mirrored if `flip`, grain added, saved as JPEG q90."""
    source_width, source_height = image_size(source)
    scale = max(width / source_width, height / source_height) * zoom
    big_width = int(source_width * scale)
    big_height = int(source_height * scale)
    left = int((max(big_width - width, 0)) * anchor[0])
    top = int((max(big_height - height, 0)) * anchor[1])
    partial = output + ".part.jpg"
    if pyvips:
        image = pyvips.Image.new_from_file(source).resize(scale, kernel="lanczos3")
        image = image.extract_band(0, n=3) if image.bands > 3 else image
        image = image.crop(left, top, width, height)
        if flip:
            image = image.fliphor()
        noise = pyvips.Image.gaussnoise(width, height, sigma=GRAIN_SIGMA, mean=0, seed=seed)
        (image + noise).cast("uchar").jpegsave(partial, Q=90, strip=True)
    else:
        with tempfile.TemporaryDirectory(dir=os.path.dirname(output)) as scratch:
            step = lambda name: os.path.join(scratch, name)
            run(["vips", "resize", source, step("big.v"), str(scale), "--kernel", "lanczos3"])
            run(["vips", "extract_band", step("big.v"), step("rgb.v"), "0", "--n", "3"])
            run(["vips", "crop", step("rgb.v"), step("crop.v"), str(left), str(top),
                 str(width), str(height)])
            cropped = step("crop.v")
            if flip:
                run(["vips", "flip", cropped, step("flip.v"), "horizontal"])
                cropped = step("flip.v")
            run(["vips", "gaussnoise", step("noise.v"), str(width), str(height),
                 "--sigma", str(GRAIN_SIGMA), "--mean", "0", "--seed", str(seed)])
            run(["vips", "add", cropped, step("noise.v"), step("sum.v")])
            run(["vips", "cast", step("sum.v"), partial + "[Q=90,strip]", "uchar"])
    os.replace(partial, output)


def generate_inputs(work):
    """Makes the inputs unless `work` already has them from the same recipe."""
    photos = corpus_photos()
    by_name = {os.path.basename(p): p for p in photos}
    recipe = {
        "recipe": RECIPE,
        "photos": [os.path.basename(p) for p in photos],
        "grain": GRAIN_SIGMA,
        "phones": PHONE_COUNT,
    }
    stamp = os.path.join(work, "inputs.json")
    a = os.path.join(work, "a.jpg")
    c = os.path.join(work, "c.jpg")
    phone_dir = os.path.join(work, "phone")
    try:
        with open(stamp) as f:
            if json.load(f) == recipe:
                return a, phone_dir, c, photos
    except (OSError, ValueError):
        pass
    log(f"bench: generating inputs in {work} (once; vips{' via pyvips' if pyvips else ''})")
    if os.path.exists(stamp):
        os.remove(stamp)
    os.makedirs(work, exist_ok=True)
    landscape = by_name.get("coffee.png", photos[0])
    started = time.perf_counter()
    make_photo(landscape, 6000, 4000, a, seed=1)
    shutil.rmtree(phone_dir, ignore_errors=True)
    os.makedirs(phone_dir)
    anchors = [(0.5, 0.5), (0.2, 0.3), (0.8, 0.7)]
    for index in range(PHONE_COUNT):
        photo = photos[index % len(photos)]
        variant = index // len(photos)
        name = f"{index + 1:02d}-{os.path.splitext(os.path.basename(photo))[0]}.jpg"
        make_photo(photo, 4032, 3024, os.path.join(phone_dir, name), zoom=1.0 + 0.3 * variant,
                   anchor=anchors[variant % 3], flip=variant % 2 == 1, seed=100 + index)
    # The largest corpus photo gives the least blurry 20000² picture.
    biggest = max(photos, key=lambda p: min(image_size(p)))
    make_photo(biggest, 20000, 20000, c, seed=7)
    with open(stamp, "w") as f:
        json.dump(recipe, f)
    log(f"bench: inputs ready in {time.perf_counter() - started:.0f} s")
    return a, phone_dir, c, photos


def shape_svgs(hexmask, side, work):
    """hexmask's own SVG of the default shape for a side² canvas, as the mask (its alpha is
    the shape with its border) and as the border alone (the filled shape taken out)."""
    text = subprocess.run([hexmask, "--svg", "-", "--size", str(side)], check=True,
                          capture_output=True, text=True).stdout
    mask = os.path.join(work, f"mask-{side}.svg")
    border = os.path.join(work, f"border-{side}.svg")
    with open(mask, "w") as f:
        f.write(text)
    border_text, found = re.subn(r'<path id="hexmask-shape"[^>]*/>\s*', "", text)
    if not found:
        log("bench: warning: no hexmask-shape path in the SVG; the border SVG is the whole shape")
    with open(border, "w") as f:
        f.write(border_text)
    return mask, border


# ---------------------------------------------------------------------------- measuring


def output_names(folder):
    """The pictures a tool wrote into `folder`, in name order: hidden entries (hexmask's
    rerun records in .hexmask/) are bookkeeping, not outputs."""
    return [n for n in sorted(os.listdir(folder)) if not n.startswith(".")]


def output_bytes(path):
    if not os.path.exists(path):  # --dry-run writes nothing
        return None
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(path, n)) for n in output_names(path))
    return os.path.getsize(path)


def png_header(path):
    """(width, height) of a PNG, from its IHDR."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    return struct.unpack(">II", head[16:24])


def png_encoding(path, rows=64):
    """How a PNG was compressed: zlib's level class from the stream header, and the filter
    types of `rows` rows from the middle of the image (where the picture is; transparent
    rows may be filtered differently): one type, or several (libpng's adaptive choice)."""
    level, filters, index, pending = None, set(), 0, b""
    inflater = zlib.decompressobj()
    with open(path, "rb") as f:
        f.read(8)
        while True:
            head = f.read(8)
            if len(head) < 8:
                break
            length, kind = struct.unpack(">I4s", head)
            body = f.read(length)
            f.read(4)
            if kind == b"IHDR":
                width, height = struct.unpack(">II", body[:8])
                stride = width * {0: 1, 2: 3, 4: 2, 6: 4}[body[9]] * body[8] // 8 + 1
                first = height // 2
                last = min(first + rows, height)
            elif kind == b"IDAT":
                if level is None:
                    level = body[1] >> 6
                pending += inflater.decompress(body)
                whole = len(pending) // stride
                if index + whole <= first:  # not there yet: drop whole rows
                    index += whole
                    pending = pending[whole * stride:]
                    continue
                while len(pending) >= stride and index < last:
                    if index >= first:
                        filters.add(pending[0])
                    pending = pending[stride:]
                    index += 1
                if index >= last:
                    break
            elif kind == b"IEND":
                break
    names = ["none", "sub", "up", "average", "paeth"]
    levels = ["fastest (0–1)", "fast (2–5)", "default (6)", "maximum (7–9)"]
    kinds = "+".join(names[k] if k < 5 else str(k) for k in sorted(filters))
    return (levels[level] if level is not None else "?"), kinds


class Result:
    def __init__(self, tool, command, note=""):
        self.tool = tool
        self.command = command
        self.note = note
        self.times = []
        self.cpu = []
        self.rss_kib = 0
        self.bytes = None
        self.error = None
        self.skipped = False
        self.reference = None  # job (j): the PNGs its quality is measured against

    @property
    def median(self):
        return statistics.median(self.times) if self.times else None


def measure(result, output, runs, warmup, timeout):
    """Runs `result.command` warmup + runs times, each time on a fresh output."""
    time_tool = os.path.exists("/usr/bin/time")
    for index in range(warmup + runs):
        if os.path.isdir(output):
            shutil.rmtree(output)
        elif os.path.exists(output):
            os.remove(output)
        if result.command[0] == "__mkdir__":
            os.makedirs(output)
        command = result.command[1:] if result.command[0] == "__mkdir__" else result.command
        with tempfile.NamedTemporaryFile("r") as usage:
            if time_tool:
                wrapped = ["/usr/bin/time", "-f", "%M %U %S", "-o", usage.name, "--"] + command
            else:  # a fresh Python process reports its children's peak RSS and CPU time
                wrapped = [sys.executable, "-c",
                           "import resource,subprocess,sys\n"
                           "code=subprocess.call(sys.argv[2:])\n"
                           "u=resource.getrusage(resource.RUSAGE_CHILDREN)\n"
                           "open(sys.argv[1],'w').write(f'{u.ru_maxrss} {u.ru_utime} {u.ru_stime}')\n"
                           "sys.exit(code)", usage.name] + command
            started = time.perf_counter()
            try:
                done = subprocess.run(wrapped, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                result.error = f"timed out after {timeout} s"
                return
            elapsed = time.perf_counter() - started
            if done.returncode != 0:
                tail = done.stderr.strip().splitlines()[-3:]
                result.error = f"exit {done.returncode}: " + " / ".join(tail)
                return
            fields = usage.read().split()[-3:]
        # The floor times itself, leaving out the loading of the reference pixels.
        own = re.search(r"^floor-seconds ([0-9.e+-]+)$", done.stdout, re.M)
        if own:
            elapsed = float(own.group(1))
        if index >= warmup:
            result.times.append(elapsed)
            result.rss_kib = max(result.rss_kib, int(fields[0]))
            result.cpu.append(float(fields[1]) + float(fields[2]))
        log(f"bench:   {result.tool}: {elapsed:.2f} s")
    result.bytes = output_bytes(output)


# ---------------------------------------------------------------------------- jobs


def job_a(tools, a, work, hexmask_bin, floor_bin):
    side = 4000
    mask, border = shape_svgs(hexmask_bin, side, work)
    out = lambda name: os.path.join(work, "out-a", name)
    os.makedirs(os.path.join(work, "out-a"), exist_ok=True)
    jobs = [
        (Result("hexmask", [hexmask_bin, a, out("hexmask.png")]), out("hexmask.png")),
    ]
    if tools["pyvips"]:
        jobs.append((Result(
            f"vips {tools['vips_version']} (pyvips)",
            [sys.executable, VIPS_JOBS, "mask", a, out("vips.png"), mask, border],
            "crop + SVG mask dest-in + border over, pngsave compression=6"), out("vips.png")))
    elif tools["vips"]:
        square = out("square.v")
        jobs.append((Result(
            f"vips {tools['vips_version']} (CLI)",
            ["sh", "-c", f"vips crop '{a}' '{square}' 1000 0 {side} {side} && "
             f"vips composite '{square} {mask} {border}' '{out('vips.png')}' '8 2' "
             f"--compression 6 ; s=$?; rm -f '{square}'; exit $s"],
            "crop + SVG mask dest-in + border over, compression 6"), out("vips.png")))
    if tools["convert"]:
        jobs.append((Result(
            "ImageMagick 6 convert",
            ["convert", a, "-gravity", "center", "-crop", f"{side}x{side}+0+0", "+repage",
             "-alpha", "set", "(", "-background", "none", mask, ")", "-compose", "DstIn",
             "-composite", "(", "-background", "none", border, ")", "-compose", "Over",
             "-composite", out("magick.png")],
            "SVG mask DstIn + border Over; PNG at IM's defaults (zlib 7, adaptive)"),
            out("magick.png")))
    jobs.append((Result(FLOOR, [floor_bin, "--pixels", out("hexmask.png"), a, out("floor.png")],
                        FLOOR_NOTE), out("floor.png")))
    return jobs


def job_b(tools, phone_dir, work, hexmask_bin, floor_bin, outputs="out-b", magick=True):
    """Avatars of a folder of phone photos; job (d) runs it on HEIC, without ImageMagick."""
    side = 256
    files = sorted(os.path.join(phone_dir, n) for n in os.listdir(phone_dir))
    mask, border = shape_svgs(hexmask_bin, side, work)
    out = lambda name: os.path.join(work, outputs, name)
    os.makedirs(os.path.join(work, outputs), exist_ok=True)
    jobs = [(Result("hexmask -j 2", [hexmask_bin, "-q", phone_dir, "--out-dir", out("hexmask"),
                                     "--size", str(side), "-j", "2"]), out("hexmask"))]
    if tools["vipsthumbnail"]:
        jobs.append((Result(
            f"vipsthumbnail {tools['vips_version']} (no mask)",
            ["__mkdir__", "vipsthumbnail", "--size", f"{side}x{side}", "--smartcrop", "centre",
             "-o", out("vipsthumbnail") + "/%s.png"] + files,
            "shrink-on-load + centre crop only; no mask, no border"), out("vipsthumbnail")))
    if tools["pyvips"]:
        jobs.append((Result(
            f"vips {tools['vips_version']} (pyvips, 2 threads)",
            [sys.executable, VIPS_JOBS, "avatars", str(side), out("pyvips"), mask, border, "2"]
            + files,
            "thumbnail centre crop + SVG mask dest-in + border over, compression=6"),
            out("pyvips")))
    if tools["mogrify"] and magick:
        per_process = (len(files) + 1) // 2
        jobs.append((Result(
            "ImageMagick 6 mogrify, xargs -P 2 (no mask)",
            ["__mkdir__", "sh", "-c",
             f"printf '%s\\n' \"$@\" | xargs -P 2 -n {per_process} mogrify -path "
             f"'{out('magick')}' -format png -thumbnail {side}x{side}^ -gravity center "
             f"-extent {side}x{side}", "sh"] + files,
            "thumbnail + centre extent only; no mask, no border"), out("magick")))
    jobs.append((Result(FLOOR + " -j 2",
                        [floor_bin, "--size", str(side), "-j", "2", "--pixels", out("hexmask"),
                         "--out-dir", out("floor")] + files, FLOOR_NOTE), out("floor")))
    return jobs


def job_h(tools, phone_dir, work, hexmask_bin):
    """Avatars of the phone photos with each smart crop against the centre square, and
    one photo alone (-j 1), so the look and the detector's share of a photo shows."""
    side = 256
    files = sorted(os.path.join(phone_dir, n) for n in os.listdir(phone_dir))
    out = lambda name: os.path.join(work, "out-h", name)
    os.makedirs(os.path.join(work, "out-h"), exist_ok=True)
    hexmask = [hexmask_bin, "-q", phone_dir, "--size", str(side), "-j", "2"]
    jobs = [(Result(f"hexmask -j 2 --gravity {g}",
                    hexmask + ["--out-dir", out(g), "--gravity", g]), out(g))
            for g in ("center", "face", "attention")]
    one = files[0]
    for g in ("center", "face"):
        jobs.append((Result(f"hexmask, one photo, --gravity {g}",
                            ["__mkdir__", hexmask_bin, "-q", one, out(f"one-{g}") + "/a.png",
                             "--size", str(side), "--gravity", g]), out(f"one-{g}")))
    if tools["pyvips"]:
        jobs.append((Result(
            f"vips {tools['vips_version']} (pyvips, 2 threads), attention",
            [sys.executable, VIPS_JOBS, "attention", str(side), out("pyvips"), "2"] + files,
            "thumbnail with crop=attention only; no mask, no border"), out("pyvips")))
    return jobs


def targets_h(jobs):
    centre, face, attention = (jobs[i][0] for i in range(3))
    out = []
    if centre.error or face.error or not centre.median:
        return out
    ratio = face.median / centre.median
    out.append(f"target --gravity face ≤ 1.3× the centre: {ratio:.2f}× — {verdict(ratio <= 1.3)}")
    if not attention.error and attention.median:
        out.append(f"--gravity attention: {attention.median / centre.median:.2f}× the centre")
    one_centre, one_face = jobs[3][0], jobs[4][0]
    if not one_centre.error and not one_face.error and one_face.median:
        out.append(f"one photo: the look and the detector add {one_face.median - one_centre.median:.3f} s "
                   f"({(one_face.median - one_centre.median) / one_face.median:.0%} of its time)")
    return out


# Jobs whose rows are compared with each other by ratios close to 1: their runs go round
# by round over the rows (each row's warm-up in the first round) rather than row by row.
INTERLEAVED = {"k", "l"}


# libvips's AVIF quality in job (j): the Q at which its SSIM on the phone avatars is
# nearest hexmask's AVIF default: Q 75 gave SSIM 0.9724 and Q 80 0.9751 on six of the
# avatars, against 0.9745 for hexmask's AVIF.
VIPS_AVIF_Q = 79


def job_j(tools, phone_dir, work, hexmask_bin):
    """Avatars for the web: hexmask's WebP, AVIF and JPEG XL defaults (and its lossless
    JPEG XL), and libvips's AVIF, each with its own PNG as the reference for the quality
    (Result.reference)."""
    side = 256
    files = sorted(os.path.join(phone_dir, n) for n in os.listdir(phone_dir))
    mask, border = shape_svgs(hexmask_bin, side, work)
    out = lambda name: os.path.join(work, "out-j", name)
    os.makedirs(os.path.join(work, "out-j"), exist_ok=True)
    hexmask = [hexmask_bin, "-q", phone_dir, "--size", str(side), "-j", "2"]
    jobs = [(Result(f"hexmask -j 2 --format {f}", hexmask + ["--out-dir", out(f), "--format", f]),
             out(f)) for f in ("webp", "avif", "jxl", "png")]
    jobs.append((Result("hexmask -j 2 --format jxl --lossless",
                        hexmask + ["--out-dir", out("jxl-lossless"), "--format", "jxl",
                                   "--lossless"]), out("jxl-lossless")))
    if tools["pyvips"]:
        vips = f"vips {tools['vips_version']} (pyvips, 2 threads)"
        jobs.append((Result(
            f"{vips}, AVIF Q {VIPS_AVIF_Q}",
            [sys.executable, VIPS_JOBS, "avif", str(side), out("vips-avif"), mask, border, "2",
             str(VIPS_AVIF_Q)] + files, "job (b)'s vips avatars, heifsave av1"), out("vips-avif")))
        jobs.append((Result(f"{vips}, PNG", [sys.executable, VIPS_JOBS, "avatars", str(side),
                            out("vips-png"), mask, border, "2"] + files), out("vips-png")))
    for result, _ in jobs:
        result.reference = out("vips-png") if result.tool.startswith("vips") else out("png")
    return jobs


def targets_j(jobs):
    """Mean SSIM and SSIMULACRA2 of each lossy output against its tool's own PNG, and the
    issue's target: AVIF bytes ≤ 0.85× WebP's at no lower SSIM (−0.005)."""
    try:
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import avif_bench
    except ImportError as error:
        return [f"quality not measured: {error} (bench/avif_bench.py needs numpy)"]
    out, scores = [], {}
    with tempfile.TemporaryDirectory() as work:
        for result, folder in jobs:
            if result.error or result.reference == folder or not os.path.isdir(folder):
                continue
            values = []
            for name in output_names(folder):
                stem = os.path.splitext(name)[0]
                reference = os.path.join(result.reference, stem + ".png")
                path = os.path.join(folder, name)
                flat = avif_bench.flattened(reference, work)
                values.append((avif_bench.ssim(flat, avif_bench.flattened(path, work)),
                               avif_bench.ssimulacra2(reference, path, work)))
            ssim = statistics.mean(v[0] for v in values)
            s2 = None if values[0][1] is None else statistics.mean(v[1] for v in values)
            scores[result.tool] = (ssim, result.bytes)
            out.append(f"{result.tool}: {len(values)} avatars, mean SSIM {ssim:.4f}, "
                       f"SSIMULACRA2 {'–' if s2 is None else f'{s2:.1f}'}, "
                       f"{result.bytes / len(values):,.0f} bytes each")
    webp, avif, jxl = (scores.get(f"hexmask -j 2 --format {f}") for f in ("webp", "avif", "jxl"))
    if webp and jxl:
        ratio = jxl[1] / webp[1]
        out.append(f"target JPEG XL ≤ WebP's bytes at SSIM ≥ WebP's: {ratio:.2f}×, "
                   f"SSIM {jxl[0] - webp[0]:+.4f} — {verdict(ratio <= 1 and jxl[0] >= webp[0])}")
    png = next((r for r, _ in jobs if r.tool == "hexmask -j 2 --format png"), None)
    lossless = next((r for r, _ in jobs if r.tool.endswith("--format jxl --lossless")), None)
    if png and lossless and png.bytes and lossless.bytes:
        ratio = lossless.bytes / png.bytes
        out.append(f"target lossless JPEG XL ≤ 0.8× the PNG's bytes: {ratio:.2f}× — "
                   f"{verdict(ratio <= 0.8)}")
    if webp and avif:
        ratio = avif[1] / webp[1]
        out.append(f"target AVIF ≤ 0.85× WebP's bytes at SSIM ≥ WebP's − 0.005: {ratio:.2f}×, "
                   f"SSIM {avif[0] - webp[0]:+.4f} — "
                   f"{verdict(ratio <= 0.85 and avif[0] >= webp[0] - 0.005)}")
    return out


# Job (k): the phone photos tagged Display P3. The profile is the lcms2-made one of the
# colour fixtures (P3 primaries, D65, the sRGB curve; scripts/make-p3-profile.c), put into
# each JPEG by scripts/tag_icc.py as an APP2 segment without re-encoding, so the decode
# costs what job (b)'s does and only the colour handling differs.
P3_PROFILE = os.path.join(REPO, "Fixtures", "icc", "DisplayP3.icc")


def p3_inputs(phone_dir, work):
    """The phone JPEGs with the Display P3 profile, in $WORK/phone-p3, made once (again
    when the profile changes: a copy of it next to the folder is the stamp); None without
    the profile or scripts/tag_icc.py."""
    try:
        sys.path.insert(0, os.path.join(REPO, "scripts"))
        import tag_icc
        with open(P3_PROFILE, "rb") as f:
            profile = f.read()
    except (ImportError, OSError) as error:
        log(f"bench: (k) needs {P3_PROFILE} and scripts/tag_icc.py: {error}")
        return None
    folder = os.path.join(work, "phone-p3")
    stamp = folder + ".icc"
    try:
        with open(stamp, "rb") as f:
            if f.read() == profile and os.path.isdir(folder):
                return folder
    except OSError:
        pass
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name in sorted(os.listdir(phone_dir)):
        with open(os.path.join(phone_dir, name), "rb") as f:
            tagged = tag_icc.retag_jpeg(f.read(), profile)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(tagged)
    with open(stamp, "wb") as f:
        f.write(profile)
    return folder


def job_k(tools, phone_dir, p3_dir, work, hexmask_bin):
    """Job (b) on the P3-tagged photos: `--colorspace srgb` (converted with lcms2) against
    `keep` (the profile copied) and `--strip` (converted, then no profile), with job (b)'s
    untagged photos and vipsthumbnail with and without --export-profile srgb for scale;
    then job (j)'s AVIF and the palette PNG (--colors 256) both ways, for the bytes."""
    side = 256
    files = sorted(os.path.join(p3_dir, n) for n in os.listdir(p3_dir))
    out = lambda name: os.path.join(work, "out-k", name)
    os.makedirs(os.path.join(work, "out-k"), exist_ok=True)
    hexmask = lambda folder: [hexmask_bin, "-q", folder, "--size", str(side), "-j", "2"]
    jobs = [
        (Result(f"hexmask -j 2 --colorspace {mode}",
                hexmask(p3_dir) + ["--out-dir", out(mode), "--colorspace", mode]), out(mode))
        for mode in ("keep", "srgb")
    ]
    jobs.append((Result("hexmask -j 2 --strip", hexmask(p3_dir) + ["--out-dir", out("strip"),
                                                                    "--strip"],
                        "converts to sRGB, then writes no profile"), out("strip")))
    jobs.append((Result("hexmask -j 2, job (b)'s untagged photos",
                        hexmask(phone_dir) + ["--out-dir", out("untagged")],
                        "no profile: nothing to convert"), out("untagged")))
    if tools["vipsthumbnail"]:
        thumbnail = ["__mkdir__", "vipsthumbnail", "--size", f"{side}x{side}", "--smartcrop",
                     "centre"]
        vips = f"vipsthumbnail {tools['vips_version']} (no mask)"
        jobs.append((Result(vips, thumbnail + ["-o", out("vips-keep") + "/%s.png"] + files,
                            "keeps the profile"), out("vips-keep")))
        jobs.append((Result(f"{vips} --export-profile srgb",
                            thumbnail + ["--export-profile", "srgb",
                                         "-o", out("vips-srgb") + "/%s.png"] + files,
                            "converted to sRGB"), out("vips-srgb")))
    for extra, name in ((["--format", "avif"], "avif"), (["--colors", "256"], "colors")):
        for mode in ("keep", "srgb"):
            jobs.append((Result(f"hexmask -j 2 {' '.join(extra)} --colorspace {mode}",
                                hexmask(p3_dir) + ["--out-dir", out(f"{name}-{mode}"),
                                                   "--colorspace", mode] + extra),
                         out(f"{name}-{mode}")))
    return jobs


def png_chunk_kinds(path):
    """The chunk types of a PNG, in order."""
    kinds = []
    with open(path, "rb") as f:
        f.read(8)
        while True:
            head = f.read(8)
            if len(head) < 8:
                return kinds
            length, kind = struct.unpack(">I4s", head)
            kinds.append(kind.decode("latin-1"))
            f.seek(length + 4, os.SEEK_CUR)


def targets_k(jobs):
    """The colour targets: srgb ≤ 1.15× keep, and the AVIF and palette bytes no larger
    with srgb; the rest as ratios, and which colour chunks the PNGs carry."""
    by_tool = {result.tool: (result, folder) for result, folder in jobs}

    def pair(keep_tool, srgb_tool):
        keep, srgb = by_tool.get(keep_tool, (None,))[0], by_tool.get(srgb_tool, (None,))[0]
        if not keep or not srgb or keep.error or srgb.error or not keep.median:
            return None
        return keep, srgb

    def times(label, found):
        keep, srgb = found
        wall = srgb.median / keep.median
        cpu = statistics.median(srgb.cpu) / statistics.median(keep.cpu)
        # The rows run round by round, so each round's two runs met the same load.
        paired = statistics.median(s / k for s, k in zip(srgb.times, keep.times))
        return wall, cpu, (f"{label}: wall {wall:.2f}× (per round, median {paired:.2f}×), "
                           f"CPU {cpu:.2f}× ({keep.median:.2f} → {srgb.median:.2f} s)")

    out = []
    found = pair("hexmask -j 2 --colorspace keep", "hexmask -j 2 --colorspace srgb")
    if found:
        wall, cpu, text = times("target --colorspace srgb ≤ 1.15× keep", found)
        out.append(f"{text} — {verdict(wall <= 1.15)} (CPU: {verdict(cpu <= 1.15)})")
    for tool, label in (("hexmask -j 2 --strip", "--strip against keep"),
                        ("hexmask -j 2, job (b)'s untagged photos",
                         "job (b)'s untagged photos against keep")):
        found = pair("hexmask -j 2 --colorspace keep", tool)
        if found:
            out.append(times(label, found)[2])
    vips = next((tool for tool in by_tool if tool.startswith("vipsthumbnail")
                 and not tool.endswith("srgb")), None)
    found = vips and pair(vips, vips + " --export-profile srgb")
    if found:
        out.append(times("vipsthumbnail --export-profile srgb against without", found)[2])
    for label, extra in (("AVIF", "--format avif"), ("palette PNG", "--colors 256")):
        found = pair(f"hexmask -j 2 {extra} --colorspace keep",
                     f"hexmask -j 2 {extra} --colorspace srgb")
        if not found:
            continue
        keep, srgb = found
        count = len(output_names(by_tool[keep.tool][1]))
        saved = (keep.bytes - srgb.bytes) / max(count, 1)
        out.append(f"target {label} bytes with srgb ≤ keep: {srgb.bytes:,} against "
                   f"{keep.bytes:,} ({srgb.bytes / keep.bytes:.3f}×, {saved:,.0f} bytes saved "
                   f"an avatar) — {verdict(srgb.bytes <= keep.bytes)}")
    # Which colour chunks the PNGs carry: the profile was read (keep) and replaced (srgb).
    chunks = []
    for tool in ("hexmask -j 2 --colorspace keep", "hexmask -j 2 --colorspace srgb",
                 "hexmask -j 2 --strip"):
        result, folder = by_tool.get(tool, (None, None))
        if not result or result.error or not os.path.isdir(folder):
            continue
        names = output_names(folder)
        kinds = [png_chunk_kinds(os.path.join(folder, n)) for n in names]
        counts = ", ".join(f"{sum(k in found for found in kinds)} {k}"
                           for k in ("iCCP", "sRGB", "cICP"))
        chunks.append(f"{tool.replace('hexmask -j 2 ', '')}: {counts}")
    if chunks:
        out.append(f"colour chunks of the {len(names)} PNGs: " + "; ".join(chunks))
    return out


def heic_inputs(phone_dir, work):
    """The phone JPEGs as HEIC (heif-enc, quality 50, with a 320 px thumbnail as iPhones
    write one), made once; None when heif-enc is not installed (make bench-deps)."""
    if not shutil.which("heif-enc"):
        return None
    folder = os.path.join(work, "heic")
    if not os.path.isdir(folder):
        os.makedirs(folder + ".part", exist_ok=True)
        for name in sorted(os.listdir(phone_dir)):
            source = os.path.join(phone_dir, name)
            target = os.path.join(folder + ".part", os.path.splitext(name)[0] + ".heic")
            subprocess.run(["heif-enc", "-q", "50", "-t", "320", "-o", target, source],
                           check=True, stdout=subprocess.DEVNULL)
        os.rename(folder + ".part", folder)
    return folder


def memory_heic_inputs(work):
    """8 phone-size (4032×3024) HEIC photos for job (g), made from the corpus photos with
    vips or ImageMagick and heif-enc (quality 50, a 320 px thumbnail), once."""
    folder = os.path.join(work, "heic-memory")
    if os.path.isdir(folder):
        return folder
    if not shutil.which("heif-enc") or not (shutil.which("vips") or shutil.which("convert")):
        return None
    os.makedirs(folder + ".part", exist_ok=True)
    photos = corpus_photos()
    for index in range(8):
        photo = photos[index % len(photos)]
        jpeg = os.path.join(folder + ".part", f"{index:02d}.jpg")
        if shutil.which("vips"):
            make_photo(photo, 4032, 3024, jpeg, zoom=1.0 + 0.3 * (index // len(photos)),
                       seed=200 + index)
        else:
            run(["convert", photo, "-resize", "4032x3024^", "-gravity", "center", "-extent",
                 "4032x3024", "-attenuate", "0.3", "+noise", "Gaussian", "-quality", "90",
                 jpeg])
        subprocess.run(["heif-enc", "-q", "50", "-t", "320", "-o", jpeg[:-4] + ".heic", jpeg],
                       check=True, stdout=subprocess.DEVNULL)
        os.remove(jpeg)
    os.rename(folder + ".part", folder)
    return folder


def job_g(heic_dir, work, hexmask_bin, before_bin):
    """Peak RSS of 4 HEIC decodes at once, with and without a tight --memory-limit."""
    out = lambda name: os.path.join(work, "out-g", name)
    os.makedirs(os.path.join(work, "out-g"), exist_ok=True)
    command = lambda binary, name, extra=(): [binary, "-q", heic_dir, "--out-dir", out(name),
                                              "--size", "256", "-j", "4", *extra]
    jobs = [
        (Result("hexmask -j 4", command(hexmask_bin, "default"),
                "default budget: a quarter of the memory"), out("default")),
        (Result("hexmask -j 4 --memory-limit 256M",
                command(hexmask_bin, "limited", ["--memory-limit", "256M"]),
                "decodes wait for the budget"), out("limited")),
    ]
    if before_bin:
        jobs.append((Result("before: " + (version_of([before_bin, "--version"]) or before_bin)
                            + " -j 4", command(before_bin, "before"), before_bin),
                     out("before")))
    return jobs


def targets_g(jobs):
    """The peaks side by side."""
    return [" · ".join(f"{result.tool}: {mib(result.rss_kib)} MiB" for result, _ in jobs
                       if not result.error)]


def job_d(tools, heic_dir, work, hexmask_bin, floor_bin):
    return job_b(tools, heic_dir, work, hexmask_bin, floor_bin, outputs="out-d", magick=False)


SIZES = [64, 128, 256]


def job_e(tools, phone_dir, work, hexmask_bin):
    """Three avatar sizes of each phone photo: hexmask's list from one decode, against the
    256 px job alone, three separate hexmask runs and pyvips both ways."""
    files = sorted(os.path.join(phone_dir, n) for n in os.listdir(phone_dir))
    svgs = [shape_svgs(hexmask_bin, side, work) for side in SIZES]
    out = lambda name: os.path.join(work, "out-e", name)
    os.makedirs(os.path.join(work, "out-e"), exist_ok=True)
    sizes = ",".join(map(str, SIZES))
    hexmask = [hexmask_bin, "-q", phone_dir, "-j", "2"]
    jobs = [
        (Result(f"hexmask -j 2 --size {sizes}", hexmask + ["--out-dir", out("hexmask"),
                                                            "--size", sizes]), out("hexmask")),
        (Result("hexmask -j 2 --size 256 (the largest size alone)",
                hexmask + ["--out-dir", out("alone"), "--size", "256"]), out("alone")),
        (Result("hexmask -j 2, one run per size",
                ["sh", "-c", " && ".join(
                    f"'{hexmask_bin}' -q '{phone_dir}' -j 2 --out-dir '{out('runs')}' "
                    f"--size {side} --name '{{name}}-{side}.png'" for side in SIZES)],
                "a decode per size"), out("runs")),
    ]
    if tools["pyvips"]:
        masks = ",".join(m for m, _ in svgs)
        borders = ",".join(b for _, b in svgs)
        jobs.append((Result(
            f"vips {tools['vips_version']} (pyvips, 2 threads), a thumbnail per size",
            [sys.executable, VIPS_JOBS, "sizes", sizes, out("pyvips"), masks, borders, "2"]
            + files, "thumbnail centre crop per size + SVG mask + border, compression=6"),
            out("pyvips")))
        jobs.append((Result(
            f"vips {tools['vips_version']} (pyvips, 2 threads), one decode",
            [sys.executable, VIPS_JOBS, "sizes-once", sizes, out("pyvips-once"), masks,
             borders, "2"] + files,
            "thumbnail at 256, thumbnail_image to 128 and 64 + SVG mask + border"),
            out("pyvips-once")))
    return jobs


def targets_e(jobs):
    listed, alone = jobs[0][0], jobs[1][0]
    vips = next((r for r, _ in jobs if r.tool.endswith("a thumbnail per size")
                 and not r.error and r.median), None)
    out = []
    if listed.error or alone.error:
        return out
    ratio = listed.median / alone.median
    out.append(f"target ≤ 1.3× the 256 px job alone: {ratio:.2f}× — {verdict(ratio <= 1.3)}")
    if vips and vips.median:
        ratio = listed.median / vips.median
        out.append(f"target ≤ 0.4× pyvips ({vips.tool}): {ratio:.2f}× — "
                   f"{verdict(ratio <= 0.4)}")
    return out


PLANNED = 100_000


def listed_paths(work):
    """PLANNED empty files in 100 folders and a NUL-separated list of them, relative to
    `work` as `find many -print0` run there lists them, made once: planning needs the
    files to exist (each is stat'ed), not to be pictures."""
    listing = os.path.join(work, "many.list")
    if not os.path.exists(listing):
        names = []
        for index in range(PLANNED):
            sub = os.path.join("many", f"{index % 100:02d}")
            os.makedirs(os.path.join(work, sub), exist_ok=True)
            name = os.path.join(sub, f"p{index:06d}.jpg")
            open(os.path.join(work, name), "w").close()
            names.append(name)
        with open(listing + ".part", "w") as f:
            f.write("\0".join(names))
        os.rename(listing + ".part", listing)
    return listing


def job_i(phone_dir, work, hexmask_bin):
    """Job (b)'s hexmask batch as RGBA PNGs and as palette PNGs (--colors 256), and
    pngquant (same colours, no dithering like hexmask's default) on the RGBA avatars, for
    comparison: its time comes on top of the RGBA batch's."""
    side = 256
    out = lambda name: os.path.join(work, "out-i", name)
    os.makedirs(os.path.join(work, "out-i"), exist_ok=True)
    batch = [hexmask_bin, "-q", phone_dir, "--size", str(side), "-j", "2"]
    jobs = [
        (Result("hexmask -j 2 (RGBA PNG)", batch + ["--out-dir", out("rgba")]), out("rgba")),
        (Result("hexmask -j 2 --colors 256", batch + ["--out-dir", out("colors"),
                                                      "--colors", "256"]), out("colors")),
    ]
    if shutil.which("pngquant"):
        # Run after the RGBA batch, whose last run leaves its avatars in place.
        jobs.append((Result(
            "pngquant 256 --nofs on the RGBA avatars, xargs -P 2",
            ["__mkdir__", "sh", "-c",
             f"ls '{out('rgba')}'/*.png | xargs -P 2 -I @ sh -c "
             f"'pngquant 256 --nofs --strip --force --output \"$0/$(basename \"$1\")\" \"$1\"' "
             f"'{out('pngquant')}' @"],
            "the RGBA batch's avatars, one pngquant process each"), out("pngquant")))
    else:
        log("bench: (i) pngquant is not installed: not compared")
    return jobs


def targets_i(jobs):
    rgba, colors = jobs[0][0], jobs[1][0]
    out = []
    if rgba.error or colors.error or not rgba.median:
        return out
    ratio = colors.median / rgba.median
    cpu = statistics.median(colors.cpu) / statistics.median(rgba.cpu)
    out.append(f"target --colors 256 adds ≤ 20 % to the batch: {ratio:.2f}× "
               f"(+{colors.median - rgba.median:.2f} s) — {verdict(ratio <= 1.2)}; "
               f"CPU time {cpu:.2f}× (steadier on a busy machine)")
    out.append(f"bytes: --colors 256 {colors.bytes / rgba.bytes:.2f}× the RGBA PNGs'")
    quant = find(jobs, "pngquant")
    if quant:
        out.append(f"pngquant: {quant.median:.2f} s on top of the RGBA batch "
                   f"({(rgba.median + quant.median) / rgba.median:.2f}× the batch in all), "
                   f"hexmask's palette bytes {colors.bytes / quant.bytes:.2f}× pngquant's")
    return out


# Job (l): the animated GIF's recipe; bump ANIMATION_RECIPE when scripts/pan_zoom_gif.py
# changes what it makes.
ANIMATION_PHOTO = os.path.join(REPO, "Fixtures", "photos", "rocket.jpg")
ANIMATION_FRAMES = 100
ANIMATION_SIDE = 480
ANIMATION_RECIPE = 1


def animated_input(work):
    """$WORK/anim/pan-zoom.gif, made once per recipe; None without Pillow."""
    try:
        sys.path.insert(0, os.path.join(REPO, "scripts"))
        import pan_zoom_gif
    except ImportError as error:
        log(f"bench: (l) needs Pillow (python3-pil): {error}")
        return None
    folder = os.path.join(work, "anim")
    gif = os.path.join(folder, "pan-zoom.gif")
    stamp = os.path.join(folder, "recipe.json")
    recipe = {"recipe": ANIMATION_RECIPE, "frames": ANIMATION_FRAMES, "side": ANIMATION_SIDE,
              "photo": os.path.basename(ANIMATION_PHOTO)}
    try:
        with open(stamp) as f:
            if json.load(f) == recipe and os.path.exists(gif):
                return gif
    except (OSError, ValueError):
        pass
    os.makedirs(folder, exist_ok=True)
    log(f"bench: (l) making {gif} (once)")
    pan_zoom_gif.make(ANIMATION_PHOTO, gif + ".part", ANIMATION_FRAMES, ANIMATION_SIDE)
    os.replace(gif + ".part", gif)
    with open(stamp, "w") as f:
        json.dump(recipe, f)
    return gif


def webp_frames(path):
    """The number of ANMF chunks of a WebP: its frames (0 for a still)."""
    count = 0
    with open(path, "rb") as f:
        f.seek(12)
        while True:
            head = f.read(8)
            if len(head) < 8:
                return count
            kind, length = head[:4], struct.unpack("<I", head[4:])[0]
            count += kind == b"ANMF"
            f.seek(length + (length & 1), os.SEEK_CUR)


def animation_psnr(lossy, reference):
    """Per-frame PSNR (dB) of an animation against its lossless twin, both put over mid
    grey (their alpha is the same shape): a list, one value a frame. Needs Pillow and numpy."""
    import numpy
    from PIL import Image

    def frames(path):
        picture, out = Image.open(path), []
        for index in range(picture.n_frames):
            picture.seek(index)
            rgba = numpy.asarray(picture.convert("RGBA"), dtype=numpy.float64)
            alpha = rgba[..., 3:] / 255
            out.append(rgba[..., :3] * alpha + 128 * (1 - alpha))
        return out

    return [float(10 * numpy.log10(255 ** 2 / max(numpy.mean((a - b) ** 2), 1e-12)))
            for a, b in zip(frames(lossy), frames(reference))]


def job_l(tools, gif, work, hexmask_bin):
    side = 256
    out = lambda name: os.path.join(work, "out-l", name)
    os.makedirs(os.path.join(work, "out-l"), exist_ok=True)
    mask = out("mask.png")
    run([hexmask_bin, "--mask-only", "--size", str(side), mask, "--force"])
    _, border = shape_svgs(hexmask_bin, side, work)
    jobs = [(Result("hexmask", [hexmask_bin, gif, out("hexmask.webp"), "--size", str(side)]),
             out("hexmask.webp"))]
    # Each tool's lossless twin, made once, untimed: the quality of its lossy frames.
    run([hexmask_bin, gif, out("hexmask-lossless.png"), "--size", str(side), "--force"])
    jobs[0][0].reference = out("hexmask-lossless.png")
    if tools["pyvips"]:
        jobs.append((Result(
            f"vips {tools['vips_version']} (pyvips)",
            [sys.executable, VIPS_JOBS, "animated", str(side), gif, out("vips.webp"), mask,
             border, "90"],
            "thumbnail n=-1 + --mask-only alpha + border over, webpsave Q 90"),
            out("vips.webp")))
        run([sys.executable, VIPS_JOBS, "animated", str(side), gif, out("vips-lossless.webp"),
             mask, border, "lossless"])
        jobs[-1][0].reference = out("vips-lossless.webp")
    return jobs


def targets_l(jobs):
    """The issue's targets: ≤ 0.6× vips' time at ≤ 1.1× its bytes; the peaks; and every
    output must have all the frames (a still would be small and quick)."""
    hexmask, vips = jobs[0][0], find(jobs, "vips")
    out = []
    for result, output in jobs:
        if not result.error and os.path.exists(output):
            frames = webp_frames(output)
            if frames != ANIMATION_FRAMES:
                out.append(f"**{result.tool} wrote {frames} frames, not {ANIMATION_FRAMES}**")
    if hexmask.error or not vips:
        return out
    ratio = hexmask.median / vips.median
    bytes_ratio = hexmask.bytes / vips.bytes
    cpu = statistics.median(hexmask.cpu) / statistics.median(vips.cpu)
    out.append(f"target ≤ 0.6× vips' time at ≤ 1.1× its bytes: {ratio:.2f}×, "
               f"{bytes_ratio:.2f}× the bytes — {verdict(ratio <= 0.6 and bytes_ratio <= 1.1)}; "
               f"CPU time {cpu:.2f}× (steadier on a busy machine)")
    out.append(f"peak RSS: hexmask {mib(hexmask.rss_kib)} MiB, vips {mib(vips.rss_kib)} MiB")
    # Bytes mean little without the quality they buy: each WebP against its own tool's
    # lossless frames (hexmask's APNG, vips' lossless WebP), frame by frame.
    try:
        for result, output in jobs:
            if result.error or not result.reference:
                continue
            psnr = animation_psnr(output, result.reference)
            out.append(f"{result.tool}: PSNR against its lossless frames {statistics.mean(psnr):.1f} "
                       f"dB on average, first frame {psnr[0]:.1f}, last {psnr[-1]:.1f}, lowest "
                       f"{min(psnr):.1f}")
    except ImportError as error:
        out.append(f"quality not measured: {error} (needs Pillow and numpy)")
    return out


def job_f(tools, work, hexmask_bin):
    """What --shard adds to planning: --dry-run of 100 000 listed paths (relative, as the
    README's recipes list them), all of them and one shard of 4 (a quarter of the listing
    is printed)."""
    listing = listed_paths(work)
    hexmask_bin = os.path.abspath(hexmask_bin)
    out = os.path.join(work, "out-f")
    plan = (f"cd '{work}' && '{hexmask_bin}' -r --files-from '{listing}' -0 --out-dir out-f "
            f"--dry-run")
    return [
        (Result("hexmask --dry-run, 100 000 listed paths", ["sh", "-c", plan + " > /dev/null"]),
         out),
        (Result("the same with --shard 0/4",
                ["sh", "-c", plan + " --shard 0/4 > /dev/null"]), out),
    ]


def targets_f(jobs):
    whole, shard = jobs[0][0], jobs[1][0]
    if whole.error or shard.error:
        return []
    return [f"target: planning with --shard under 0.5 s: {shard.median:.2f} s — "
            f"{verdict(shard.median < 0.5)} (without --shard: {whole.median:.2f} s)"]


def job_c(tools, c, work, hexmask_bin, floor_bin):
    side = 20000
    limit = "400000000"
    mask, border = shape_svgs(hexmask_bin, side, work)
    out = lambda name: os.path.join(work, "out-c", name)
    os.makedirs(os.path.join(work, "out-c"), exist_ok=True)
    jobs = [(Result("hexmask --max-pixels 400000000",
                    [hexmask_bin, "--max-pixels", limit, c, out("hexmask.png")]),
             out("hexmask.png"))]
    if tools["pyvips"]:
        jobs.append((Result(
            f"vips {tools['vips_version']} (pyvips)",
            [sys.executable, VIPS_JOBS, "mask", c, out("vips.png"), mask, border],
            "SVG mask dest-in + border over, pngsave compression=6"), out("vips.png")))
    elif tools["vips"]:
        jobs.append((Result(
            f"vips {tools['vips_version']} (CLI)",
            ["vips", "composite", f"{c} {mask} {border}", out("vips.png"), "8 2",
             "--compression", "6"],
            "SVG mask dest-in + border over, compression 6"), out("vips.png")))
    if tools["convert"]:
        skipped = Result("ImageMagick 6", [])
        skipped.error = ("not run: Debian's policy.xml allows at most 16K pixels a side "
                         "(\"width or height exceeds limit\")")
        skipped.skipped = True
        jobs.append((skipped, None))
    jobs.append((Result(FLOOR, [floor_bin, "--max-pixels", limit, "--pixels", out("hexmask.png"),
                                c, out("floor.png")], FLOOR_NOTE),
                 out("floor.png")))
    return jobs


def check_outputs(jobs, side):
    """Every output must be side² PNGs (side: one size or a list of them; None: nothing is
    written); a tool that wrote something else is an error."""
    for result, output in jobs:
        if result.error or side is None or not os.path.exists(output):
            continue
        files = ([os.path.join(output, n) for n in output_names(output)]
                 if os.path.isdir(output) else [output])
        for path in files:
            try:
                size = png_header(path)
            except (OSError, ValueError) as error:
                result.error = str(error)
                break
            if size[0] != size[1] or size[0] not in (side if isinstance(side, list) else [side]):
                result.error = f"{os.path.basename(path)} is {size[0]}×{size[1]}, not {side}²"
                break


def encoder_check(jobs):
    """The floor must encode hexmask's pixels with hexmask's writer and settings, or its
    time means nothing: then its output is the same bytes as hexmask's."""
    (hexmask, ours), (floor, theirs) = jobs[0], jobs[-1]
    if hexmask.error or floor.error or not floor.tool.startswith(FLOOR):
        return None
    pairs = [(ours, theirs)]
    if os.path.isdir(ours):
        pairs = [(os.path.join(ours, n), os.path.join(theirs, n)) for n in output_names(ours)]
    for mine, other in pairs:
        with open(mine, "rb") as f, open(other, "rb") as g:
            same = f.read() == g.read() if os.path.getsize(mine) < 1 << 28 else None
        if same is None:  # too large to hold twice: compare in blocks
            with open(mine, "rb") as f, open(other, "rb") as g:
                same = all(a == b for a, b in zip(iter(lambda: f.read(1 << 24), b""),
                                                   iter(lambda: g.read(1 << 24), b"")))
            same = same and os.path.getsize(mine) == os.path.getsize(other)
        if not same:
            level, filters = png_encoding(mine)
            level2, filters2 = png_encoding(other)
            return (f"**WARNING: the floor's output is not hexmask's bytes** "
                    f"({os.path.basename(mine)}: hexmask zlib level class {level}, filters "
                    f"{filters}; floor {level2}, {filters2}): it does not encode like hexmask, "
                    f"so update `floorWriter` in bench/hexmask-floor/main.swift")
    level, filters = png_encoding(pairs[0][0])
    return (f"the floor's output is byte-identical to hexmask's (PNG: zlib level class "
            f"{level}, row filters {filters} in mid-image rows)")


# ---------------------------------------------------------------------------- report


def mib(kib):
    return f"{kib / 1024:.0f}"


def table(title, jobs, targets):
    lines = [f"### {title}", "",
             "| tool | median wall | × hexmask | CPU (user+sys) | peak RSS MiB | output bytes |",
             "|---|---:|---:|---:|---:|---:|"]
    base = jobs[0][0].median
    for result, _ in jobs:
        name = result.tool + (f" — {result.note}" if result.note else "")
        if result.error:
            status = result.error if result.skipped else f"failed: {result.error}"
            lines.append(f"| {name} | {status} | | | | |")
            continue
        ratio = f"{result.median / base:.2f}" if base else "–"
        lines.append(
            f"| {name} | {result.median:.2f} s | {ratio} | {statistics.median(result.cpu):.2f} s "
            f"| {mib(result.rss_kib)} | "
            f"{'–' if result.bytes is None else format(result.bytes, ',')} |")
    hexmask, floor = jobs[0][0], jobs[-1][0]
    lines.append("")
    if hexmask.median and floor.median and floor.tool.startswith(FLOOR):
        lines.append(f"hexmask / floor: **{hexmask.median / floor.median:.2f}×** "
                     f"(hexmask {hexmask.median:.2f} s, floor {floor.median:.2f} s)")
    for target in targets(jobs):
        lines.append(f"- {target}")
    return "\n".join(lines) + "\n"


def find(jobs, prefix):
    for result, _ in jobs:
        if result.tool.startswith(prefix) and not result.error and result.median:
            return result
    return None


def verdict(ok):
    return "met" if ok else "**not met**"


def targets_a(jobs):
    hexmask, vips, magick = jobs[0][0], find(jobs, "vips"), find(jobs, "ImageMagick")
    out = []
    if hexmask.error:
        return out
    if vips:
        ratio = hexmask.median / vips.median
        out.append(f"target ≤ 0.5× vips wall time with output bytes ≤ vips': {ratio:.2f}×, "
                   f"{hexmask.bytes / vips.bytes:.2f}× the bytes — "
                   f"{verdict(ratio <= 0.5 and hexmask.bytes <= vips.bytes)}")
    if magick:
        ratio = hexmask.median / magick.median
        out.append(f"target ≤ 0.1× ImageMagick: {ratio:.2f}× — {verdict(ratio <= 0.1)}")
    return out


def targets_d(jobs):
    """No target for HEIC yet: the ratios, for the record (HEVC decoding dominates)."""
    hexmask, floor = jobs[0][0], jobs[-1][0]
    vips = find(jobs, "vips ")
    out = []
    if hexmask.error:
        return out
    if vips and vips.median:
        out.append(f"× vips ({vips.tool}): {hexmask.median / vips.median:.2f}")
    if floor.median:
        out.append(f"× the floor: {hexmask.median / floor.median:.2f}")
    return out


def targets_b(jobs):
    hexmask, floor = jobs[0][0], jobs[-1][0]
    vips = find(jobs, "vips ") or find(jobs, "vipsthumbnail")
    out = []
    if hexmask.error:
        return out
    if vips:
        ratio = hexmask.median / vips.median
        out.append(f"target ≤ 0.5× vips ({vips.tool}): {ratio:.2f}× — {verdict(ratio <= 0.5)}")
    if floor.median:
        ratio = hexmask.median / floor.median
        out.append(f"target ≤ 1.1× the floor: {ratio:.2f}× — {verdict(ratio <= 1.1)}")
    return out


def targets_c(jobs):
    hexmask = jobs[0][0]
    if hexmask.error:
        return []
    mb = hexmask.rss_kib * 1024 / 1e6
    return [f"target peak RSS ≤ 300 MB: {mb:.0f} MB — {verdict(mb <= 300)}"]


def machine_note():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            memory = f", {kib / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{os.cpu_count()} cores ({model}){memory}, {platform.system()} {platform.release()}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="folder with hexmask and hexmask-floor")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", default="a,b,c,d,e,f,g,h,i,j,k,l",
                        help="which jobs: a, b, c, d, e, f, g, h, i, j, k, l")
    parser.add_argument("--before", help="job (g): another hexmask binary to compare with")
    parser.add_argument("--work", default=os.path.join(REPO, ".build", "bench"))
    parser.add_argument("--results", default=os.path.join(REPO, "bench", "results.md"))
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per run")
    args = parser.parse_args()
    if args.runs < 3:
        log("bench: note: fewer than 3 runs; medians are rough")

    hexmask_bin = os.path.join(args.bin, "hexmask")
    floor_bin = os.path.join(args.bin, "hexmask-floor")
    for path in (hexmask_bin, floor_bin):
        if not os.access(path, os.X_OK):
            sys.exit(f"bench: {path} is missing; build with `swift build -c release`")
    selected = args.jobs.split(",")
    # Job (g) makes its own inputs; the others share the ones vips makes.
    needs_inputs = any(key in selected for key in "abcdefhijk")
    if needs_inputs and not shutil.which("vips"):
        sys.exit("bench: the inputs are made with vips; install libvips-tools (make bench-deps)")
    vips_version = (version_of(["vips", "--version"]) or "?").replace("vips-", "")
    tools = {
        "vips": True,
        "vips_version": vips_version,
        "vipsthumbnail": bool(shutil.which("vipsthumbnail")),
        "pyvips": pyvips is not None,
        "convert": bool(shutil.which("convert")),
        "mogrify": bool(shutil.which("mogrify")),
    }
    missing = [name for name in ("convert", "vipsthumbnail") if not tools[name]]
    if pyvips is None:
        missing.append("pyvips")
    if missing:
        log(f"bench: not installed, so not compared: {', '.join(missing)} (make bench-deps)")

    work = os.path.abspath(args.work)
    if needs_inputs:
        a, phone_dir, c, photos = generate_inputs(work)
    else:
        a, phone_dir, c, photos = None, None, None, corpus_photos()
    sections = []
    plans = [
        ("a", "(a) 6000×4000 JPEG → 4000² hexagon PNG (default options: 5 px white border)",
         lambda: job_a(tools, a, work, hexmask_bin, floor_bin), 4000, 1, targets_a),
        ("b", f"(b) {PHONE_COUNT} phone JPEGs (4032×3024) → 256² avatars, 2 at a time",
         lambda: job_b(tools, phone_dir, work, hexmask_bin, floor_bin), 256, 1, targets_b),
        ("c", "(c) 20000×20000 JPEG → 20000² hexagon PNG (memory)",
         lambda: job_c(tools, c, work, hexmask_bin, floor_bin), 20000, 0, targets_c),
    ]
    plans.append(
        ("e", f"(e) {PHONE_COUNT} phone JPEGs (4032×3024) → 64², 128² and 256² avatars, "
         "2 at a time", lambda: job_e(tools, phone_dir, work, hexmask_bin), SIZES, 1, targets_e))
    plans.append(
        ("f", f"(f) planning {PLANNED:,} listed paths (--dry-run)".replace(",", " "),
         lambda: job_f(tools, work, hexmask_bin), None, 1, targets_f))
    plans.append(
        ("h", f"(h) {PHONE_COUNT} phone JPEGs (4032×3024) → 256² avatars: --gravity face and "
         "attention against the centre", lambda: job_h(tools, phone_dir, work, hexmask_bin),
         256, 1, targets_h))
    plans.append(
        ("i", f"(i) {PHONE_COUNT} phone JPEGs (4032×3024) → 256² avatars, 2 at a time: palette "
         "PNG (--colors 256) against RGBA PNG and pngquant",
         lambda: job_i(phone_dir, work, hexmask_bin), 256, 1, targets_i))
    plans.append(
        ("j", f"(j) {PHONE_COUNT} phone JPEGs (4032×3024) → 256² avatars for the web, 2 at a "
         "time: WebP, AVIF and JPEG XL", lambda: job_j(tools, phone_dir, work, hexmask_bin), None, 1,
         targets_j))
    p3_dir = p3_inputs(phone_dir, work) if "k" in selected else None
    if p3_dir:
        plans.append(
            ("k", f"(k) {PHONE_COUNT} phone JPEGs (4032×3024) tagged Display P3 → 256² avatars, "
             "2 at a time: --colorspace srgb against keep",
             lambda: job_k(tools, phone_dir, p3_dir, work, hexmask_bin), None, 1, targets_k))
    heic_dir = heic_inputs(phone_dir, work) if "d" in selected else None
    if heic_dir:
        plans.append(
            ("d", f"(d) {PHONE_COUNT} phone photos as HEIC (4032×3024) → 256² avatars, 2 at a time",
             lambda: job_d(tools, heic_dir, work, hexmask_bin, floor_bin), 256, 1, targets_d))
    elif "d" in selected:
        log("bench: (d) needs heif-enc (libheif-examples; make bench-deps): not run")
    memory_dir = memory_heic_inputs(work) if "g" in selected else None
    if memory_dir:
        plans.append(
            ("g", "(g) 8 phone photos as HEIC (4032×3024) → 256² avatars, 4 at a time: peak RSS",
             lambda: job_g(memory_dir, work, hexmask_bin, args.before), 256, 0, targets_g))
    elif "g" in selected:
        log("bench: (g) needs heif-enc and vips or ImageMagick (make bench-deps): not run")
    animation = animated_input(work) if "l" in selected else None
    if animation:
        plans.append(
            ("l", f"(l) a {ANIMATION_FRAMES}-frame {ANIMATION_SIDE}×{ANIMATION_SIDE} animated GIF "
             "→ 256² animated WebP", lambda: job_l(tools, animation, work, hexmask_bin), None, 1,
             targets_l))
    commands = []
    for key, title, make_jobs, side, warmup, targets in plans:
        if key not in selected:
            continue
        log(f"bench: {title}")
        jobs = make_jobs()
        load_before = os.getloadavg()[0]
        if key in INTERLEAVED:  # round by round, so a change in load hits every row alike
            for round_index in range(args.runs):
                for result, output in jobs:
                    if not result.skipped and not result.error:
                        measure(result, output, 1, warmup if round_index == 0 else 0,
                                args.timeout)
        else:
            for result, output in jobs:
                if not result.skipped:
                    measure(result, output, args.runs, warmup, args.timeout)
        load_after = os.getloadavg()[0]
        check_outputs(jobs, side)
        section = table(title, jobs, targets)
        check = encoder_check(jobs)
        if check:
            section += f"- {check}\n"
        # Other work on the machine slows everyone; the load shows whether there was any.
        section += (f"- load average (1 min) before / after: {load_before:.1f} / "
                    f"{load_after:.1f} on {os.cpu_count()} cores\n")
        print(section, flush=True)
        sections.append(section)
        commands.append(f"({key})")
        for result, _ in jobs:
            if result.skipped:
                continue
            shown = [p.replace(work, "$WORK").replace(REPO + "/", "") for p in result.command
                     if p != "__mkdir__"]
            shown = ["python3" if p == sys.executable else p for p in shown]
            for folder in ("$WORK/phone/", "$WORK/phone-p3/"):
                phones = [p for p in shown if p.startswith(folder)]
                if phones:
                    shown = [p for p in shown if p not in phones] + [folder + "*.jpg"]
            if shown[:2] == ["sh", "-c"]:  # sh -c SCRIPT sh FILES: show the pipeline
                shown = [shown[2].replace('"$@"', " ".join(shown[4:]))]
            commands.append(f"    {result.tool}: {' '.join(shown)}")

    versions = [
        version_of([hexmask_bin, "--version"]),
        f"vips {vips_version}" + (f", pyvips {pyvips.__version__}" if pyvips else ""),
        (version_of(["convert", "-version"]) or "").replace("Version: ", "").split(" http")[0]
        if tools["convert"] else None,
    ]
    header = [
        "# hexmask benchmark (`make bench`)",
        "",
        f"{datetime.date.today().isoformat()} · {machine_note()}",
        "",
        "Versions: " + " · ".join(v for v in versions if v),
        "",
        f"Median wall time of {args.runs} runs (a and b after one warm-up run); CPU is "
        "user + sys (above the wall time when a tool uses both cores); peak RSS from "
        "`/usr/bin/time -f %M` (for several processes, the largest one); bytes are the "
        "output file(s). \"× hexmask\" is the tool's time over hexmask's. The floor "
        "(`hexmask-floor`) only decodes the input and encodes hexmask's own output pixels "
        "with hexmask's PNG writer and settings (its output must be hexmask's bytes).",
        "",
        f"Inputs (generated by bench/run.py from {', '.join(os.path.basename(p) for p in photos)}"
        f": Lanczos-3 upscale, σ = {GRAIN_SIGMA} grain, JPEG q90).",
        "",
        "",
    ]
    report = "\n".join(header) + "\n".join(sections) + "\n## Commands\n\n```\n" + \
        "\n".join(commands) + "\n```\n"
    with open(args.results, "w") as f:
        f.write(report)
    log(f"bench: wrote {args.results}")


if __name__ == "__main__":
    main()
