#!/usr/bin/env python3
"""The pyvips side of `make bench` (bench/run.py times these commands as separate processes).

    vips_jobs.py mask INPUT OUTPUT.png MASK.svg BORDER.svg
        The centred square of INPUT, cut with MASK (dest-in) and BORDER drawn over it,
        saved with pngsave compression=6: hexmask's default job done the usual vips way.
    vips_jobs.py avatars SIZE OUT_DIR MASK.svg BORDER.svg JOBS INPUT...
        thumbnail (shrink-on-load, centre crop) to SIZE², the same mask and border, one
        PNG per input; JOBS files at a time.
    vips_jobs.py avif SIZE OUT_DIR MASK.svg BORDER.svg JOBS Q INPUT...
        `avatars`, saved as AVIF instead: heifsave compression=av1 at quality Q (libvips's
        default effort 4, which is libaom speed 5; 4:2:0 below Q 90).
    vips_jobs.py sizes SIZES OUT_DIR MASKS BORDERS JOBS INPUT...
        Several sizes per input (SIZES, MASKS and BORDERS comma-separated, one per size),
        each made as `avatars` makes one: a thumbnail of the file for each size.
    vips_jobs.py sizes-once SIZES OUT_DIR MASKS BORDERS JOBS INPUT...
        The same from one decode: a thumbnail of the file at the largest size, the others
        thumbnail_image'd from it (as libvips suggests: https://github.com/libvips/libvips/issues/656).
    vips_jobs.py animated SIZE INPUT OUTPUT.webp MASK.png BORDER.svg Q
        Every page of an animated INPUT (n=-1) as a SIZE² frame: thumbnail to cover SIZE²
        (page-aware: the tall image keeps its page height), each page's centred square cut
        out and the pages joined again; the mask (`hexmask --mask-only`, one band) joined
        as the alpha of every page and BORDER drawn over, as hexmask does; webpsave at Q
        with lossless alpha, keeping the delays and the loop count.
    vips_jobs.py attention SIZE OUT_DIR JOBS INPUT...
        thumbnail with crop="attention" to SIZE², saved as PNG: libvips' own smart crop,
        for comparing --gravity attention's time (no mask, no border).

MASK.svg is `hexmask --svg - --size N` as written (only its alpha matters: the shape and
its border); BORDER.svg is the same document without the filled shape, so both tools draw
exactly hexmask's geometry.
"""

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import pyvips


def cut(image, mask, border):
    return image.composite([mask, border], ["dest-in", "over"])


def mask_job(source, output, mask_svg, border_svg):
    image = pyvips.Image.new_from_file(source, access="sequential")
    side = min(image.width, image.height)
    image = image.crop((image.width - side) // 2, (image.height - side) // 2, side, side)
    out = cut(image, pyvips.Image.svgload(mask_svg), pyvips.Image.svgload(border_svg))
    out.pngsave(output, compression=6)


def avatars_job(size, out_dir, mask_svg, border_svg, jobs, sources, avif_q=None):
    os.makedirs(out_dir, exist_ok=True)
    # Rendered once: the same mask for every avatar.
    mask = pyvips.Image.svgload(mask_svg).copy_memory()
    border = pyvips.Image.svgload(border_svg).copy_memory()

    def one(source):
        image = pyvips.Image.thumbnail(source, size, height=size, crop="centre")
        name = os.path.splitext(os.path.basename(source))[0]
        if avif_q is None:
            cut(image, mask, border).pngsave(os.path.join(out_dir, name + ".png"), compression=6)
        else:
            cut(image, mask, border).heifsave(os.path.join(out_dir, name + ".avif"),
                                              compression="av1", Q=avif_q)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, sources))


def sizes_job(sizes, out_dir, masks, borders, jobs, sources, once):
    os.makedirs(out_dir, exist_ok=True)
    shapes = [(pyvips.Image.svgload(m).copy_memory(), pyvips.Image.svgload(b).copy_memory())
              for m, b in zip(masks, borders)]
    largest = max(sizes)

    def one(source):
        stem = os.path.splitext(os.path.basename(source))[0]
        first = pyvips.Image.thumbnail(source, largest, height=largest, crop="centre") \
            if once else None
        if first is not None:
            first = first.copy_memory()
        for size, (mask, border) in zip(sizes, shapes):
            if once:
                image = first if size == largest else first.thumbnail_image(size, height=size)
            else:
                image = pyvips.Image.thumbnail(source, size, height=size, crop="centre")
            cut(image, mask, border).pngsave(
                os.path.join(out_dir, f"{stem}-{size}.png"), compression=6)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, sources))


def animated_job(size, source, output, mask_png, border_svg, quality):
    header = pyvips.Image.new_from_file(source, n=-1)
    pages = header.height // header.get("page-height")
    width, height = header.width, header.get("page-height")
    # thumbnail fits inside the box it is given, page by page: a box whose short side is
    # SIZE makes each page cover SIZE², and its centred square is cut out page by page
    # (thumbnail's crop= would treat the tall image as one picture).
    scale = size / min(width, height)
    box = (max(size, round(width * scale)), max(size, round(height * scale)))
    tall = pyvips.Image.thumbnail(source + "[n=-1]", box[0], height=box[1], size="force")
    page_height = tall.get("page-height")
    left, top = (tall.width - size) // 2, (page_height - size) // 2
    if (tall.width, page_height) != (size, size):
        tall = pyvips.Image.arrayjoin(
            [tall.crop(left, index * page_height + top, size, size) for index in range(pages)],
            across=1)
    mask = pyvips.Image.new_from_file(mask_png).extract_band(0).copy_memory()
    border = pyvips.Image.svgload(border_svg).copy_memory()
    colour = tall.extract_band(0, n=3) if tall.bands >= 3 else tall.colourspace("srgb")
    alpha = mask.replicate(1, pages)
    if tall.bands == 4:  # the GIF's own transparency, times the shape
        alpha = (tall.extract_band(3) * alpha / 255).cast("uchar")
    framed = colour.bandjoin(alpha).composite(border.replicate(1, pages), "over")
    framed = framed.copy()
    framed.set_type(pyvips.GValue.gint_type, "page-height", size)
    framed.set_type(pyvips.GValue.array_int_type, "delay", header.get("delay"))
    framed.set_type(pyvips.GValue.gint_type, "loop", header.get("loop"))
    # strip: no EXIF chunk of vips's own, so the bytes are the frames'.
    if quality == "lossless":
        framed.webpsave(output, lossless=True, strip=True)
    else:
        framed.webpsave(output, Q=int(quality), alpha_q=100, effort=4, strip=True)


def attention_job(size, out_dir, jobs, sources):
    os.makedirs(out_dir, exist_ok=True)

    def one(source):
        image = pyvips.Image.thumbnail(source, size, height=size, crop="attention")
        name = os.path.splitext(os.path.basename(source))[0] + ".png"
        image.pngsave(os.path.join(out_dir, name), compression=6)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, sources))


def main(argv):
    if len(argv) == 5 and argv[0] == "mask":
        mask_job(*argv[1:])
    elif len(argv) >= 8 and argv[0] == "avif":
        avatars_job(int(argv[1]), argv[2], argv[3], argv[4], int(argv[5]), argv[7:],
                    avif_q=int(argv[6]))
    elif len(argv) >= 7 and argv[0] == "avatars":
        avatars_job(int(argv[1]), argv[2], argv[3], argv[4], int(argv[5]), argv[6:])
    elif len(argv) >= 7 and argv[0] in ("sizes", "sizes-once"):
        sizes_job([int(n) for n in argv[1].split(",")], argv[2], argv[3].split(","),
                  argv[4].split(","), int(argv[5]), argv[6:], argv[0] == "sizes-once")
    elif len(argv) == 7 and argv[0] == "animated":
        animated_job(int(argv[1]), argv[2], argv[3], argv[4], argv[5], argv[6])
    elif len(argv) >= 5 and argv[0] == "attention":
        attention_job(int(argv[1]), argv[2], int(argv[3]), argv[4:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
