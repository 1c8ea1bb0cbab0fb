#!/usr/bin/env python3
"""Every input kind x every output kind under --memory-limit: refused in one line, or
within the limit it was given (measured peak RSS over an idle render).

For each pair the script first asks hexmask what the render needs (the refusal under a
1 KiB limit names it), then runs it again with exactly that limit and measures the peak
resident memory with /usr/bin/time. A render that needs nothing from the budget (rows in,
rows out) is run without a limit and its peak reported as "rows". The inputs are made by
other tools (ImageMagick, cwebp, gif2webp, apngasm, avifenc, jpegtran) from one photo.

    python3 bench/memory_table.py --bin .build/release/hexmask --work /tmp/memtable \
        --photo ../shared/corpus/photos/hubble_deep_field.jpg [--side 2000]
"""
import argparse, os, re, subprocess, sys

UNITS = {"bytes": 1, "byte": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
OUTPUTS = [
    ("png", []), ("png", ["--colors", "256"]), ("png", ["--colors", "256", "--dither"]),
    ("jpg", []), ("webp", []), ("webp", ["--lossless"]), ("avif", []), ("avif", ["--lossless"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def make_inputs(work, photo, side):
    """The same picture in every container other tools write, stills and animations."""
    os.makedirs(work, exist_ok=True)
    p = lambda name: os.path.join(work, name)
    s = f"{side}x{side}"
    run(["convert", photo, "-resize", s + "^", "-gravity", "center", "-extent", s, p("still.png")])
    made = {"png": p("still.png")}
    run(["convert", p("still.png"), "-interlace", "PNG", p("adam7.png")]); made["png adam7"] = p("adam7.png")
    run(["convert", p("still.png"), "-quality", "85", p("still.jpg")]); made["jpeg"] = p("still.jpg")
    run(["jpegtran", "-progressive", "-outfile", p("prog.jpg"), p("still.jpg")]); made["jpeg progressive"] = p("prog.jpg")
    run(["jpegtran", "-rotate", "270", "-outfile", p("t.jpg"), p("still.jpg")])
    run(["exiftool", "-q", "-overwrite_original", "-Orientation=6", "-n", p("t.jpg")]); made["jpeg exif 6"] = p("t.jpg")
    run(["cwebp", "-quiet", p("still.png"), "-o", p("lossy.webp")]); made["webp"] = p("lossy.webp")
    run(["cwebp", "-quiet", "-lossless", p("still.png"), "-o", p("lossless.webp")]); made["webp lossless"] = p("lossless.webp")
    run(["avifenc", p("still.png"), p("still.avif")]); made["avif"] = p("still.avif")
    run(["convert", p("still.png"), "(", "+clone", "-modulate", "100,100,150", ")", "(", "+clone",
         "-modulate", "100,100,50", ")", "-set", "delay", "10", "-loop", "0", p("anim.gif")])
    made["gif"] = p("anim.gif")
    run(["convert", p("anim.gif"), "-coalesce", p("frame%d.png")])
    run(["apngasm", p("anim.apng"), p("frame0.png"), p("frame1.png"), p("frame2.png"), "1", "10"])
    made["apng"] = p("anim.apng")
    run(["gif2webp", "-quiet", p("anim.gif"), "-o", p("anim.webp")]); made["webp animated"] = p("anim.webp")
    return {k: v for k, v in made.items() if os.path.exists(v) and os.path.getsize(v) > 0}


def peak(binary, src, out, args, limit):
    extra = ["--memory-limit", str(limit)] if limit is not None else []
    timing = out + ".time"
    r = run(["/usr/bin/time", "-f", "%M", "-o", timing, binary, src, out, "--force"] + args + extra)
    with open(timing) as f:
        kib = int(f.read().split()[-1])
    return r.returncode, r.stderr.strip(), kib * 1024


def needed(message):
    m = re.search(r"needs ([0-9.]+) (bytes?|KiB|MiB|GiB|TiB)", message)
    return int(float(m.group(1)) * UNITS[m.group(2)]) if m else None


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--bin", required=True)
    a.add_argument("--work", required=True)
    a.add_argument("--photo", required=True)
    a.add_argument("--side", type=int, default=2000)
    o = a.parse_args()
    inputs = make_inputs(o.work, o.photo, o.side)
    tiny = os.path.join(o.work, "tiny.png")
    run(["convert", "-size", "16x16", "xc:gray", tiny])
    _, _, idle = peak(o.bin, tiny, os.path.join(o.work, "idle.png"), [], None)
    # What rows in and rows out hold (libpng's and libjpeg's rows, deflate's windows)
    # follows the width and is not taken from the budget: measured (the larger of a PNG's
    # and a JPEG's), left out below.
    rows = max(
        peak(o.bin, inputs[kind], os.path.join(o.work, "rows.png"), [], None)[2] - idle
        for kind in ("png", "jpeg"))
    print(f"Rows at {o.side} px wide: {rows / 2**20:.1f} MiB over an idle render, not budgeted.\n")
    print(f"| input ({o.side}²) | output | needs | peak over idle and rows | within |")
    print("|---|---|---:|---:|---|")
    broken = 0
    for name, src in inputs.items():
        for ext, args in OUTPUTS:
            out = os.path.join(o.work, "out." + ext)
            label = " ".join([ext] + args)
            code, err, _ = peak(o.bin, src, out, args, 1024)
            need = needed(err)
            if code == 0:
                _, _, rss = peak(o.bin, src, out, args, None)
                print(f"| {name} | {label} | rows | {(rss - idle) / 2**20:.0f} MiB | (rows) |")
                continue
            if need is None or "\n" in err:
                broken += 1
                print(f"| {name} | {label} | ? | | refusal not one line naming the need: {err!r} |")
                continue
            # The message rounds to three digits: give the render what it said and 1 % more.
            limit = need + need // 100 + 1
            code, err, rss = peak(o.bin, src, out, args, limit)
            over = rss - idle - rows
            ok = code == 0 and over <= limit
            broken += not ok
            print(f"| {name} | {label} | {need / 2**20:.1f} MiB | {over / 2**20:.1f} MiB "
                  f"| {'yes' if ok else 'NO ' + err[:80]} |")
    print(f"\n{broken} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
