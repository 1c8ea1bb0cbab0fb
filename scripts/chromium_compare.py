#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The pixel comparisons of scripts/chromium-check.sh.

    chromium_compare.py shown SCREENSHOT.png DECODED.png '#rrggbb' 444|420 [edge]
    chromium_compare.py flattens DECODED.png '#rrggbb' FLAT.png
    chromium_compare.py agree SHOT_A.png SHOT_B.png PICTURE.png

`shown`: SCREENSHOT is Chromium's rendering of an AVIF as an <img> at 0,0 on a page of
that colour; DECODED is the same AVIF decoded by libheif (the library hexmask reads and
writes AVIF with), straight RGBA with the AVIF's ICC profile if it has one. Checks:
  - where DECODED is opaque, the screenshot is DECODED's colour within 3 levels (after
    DECODED is converted from its profile to sRGB, as Chromium does for an <img>). For a
    420 (lossy) AVIF only where the chroma is flat: where the nine 2×2 blocks around the
    pixel hold the same Cb and Cr within 1 level. Elsewhere the two decoders legitimately
    differ: libheif 1.15 upsamples 4:2:0 chroma by repeating each sample, Chromium
    (libavif, libyuv) bilinearly, which moves pixels at a colour edge by 30 levels or
    more;
  - over all opaque pixels, the mean signed difference of each channel is within 1 level,
    which a wrong matrix, range or profile (a shift of several levels) would break;
  - where DECODED is transparent (alpha 0), the screenshot is the page colour within 3;
  - the page around the picture is the page colour within 3.
Each region must hold enough pixels that the check means something. Pixels of the
anti-aliased edge (alpha 1…254) are measured and printed, and checked (within 3 of
hexmask's formula) only with `edge`: scripts/chromium-check.sh asks it for a PNG of the
same pixels, where Chromium blends exactly, not for the AVIFs, whose edge Chromium shows
as if their alpha were limited range (docs/web.md, "How the AVIF defaults were chosen").

`flattens`: DECODED put over the colour with hexmask's own formula (Flattening.swift)
equals FLAT (hexmask's `--background` output) exactly, pixel for pixel. When DECODED has
an ICC profile, the colour is first put into that profile's numbers (littleCMS, relative
colorimetric with black point compensation), as hexmask writes a border or background
into a kept profile's numbers.

`agree`: two screenshots of two versions of one picture (a Display P3 photo's
avatar with its profile kept, and converted to sRGB by hexmask) show the same colours:
wherever PICTURE (either version; only its alpha is read) is opaque, the screenshots'
pixels are within 2 levels, over at least half of the picture's area. Both pictures are
put at 0,0 at natural size, so their pixels line up. The anti-aliased edge (alpha 1…254)
is left out: hexmask blends it after the conversion, in sRGB numbers, which differ from a
blend in P3 numbers converted afterwards (so chromium-check makes these avatars without
a border, whose inner edge is opaque but blended likewise).

Prints one line per comparison; exits 1 with a line starting "FAILED:" when one fails.
Needs Debian's python3-pil (PIL with littleCMS), nothing else.
"""
import io
import sys

from PIL import Image, ImageCms

TOLERANCE = 3


def colour(text):
    text = text.lstrip("#")
    if len(text) != 6:
        sys.exit(f"FAILED: colour {text!r} is not #rrggbb")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def rgba(path):
    image = Image.open(path)
    image.load()
    if image.mode != "RGBA":
        sys.exit(f"FAILED: {path} is {image.mode}, not RGBA (the AVIF lost its alpha)")
    return image


def in_srgb(image):
    """The RGB of `image` in sRGB: converted with littleCMS from its ICC profile if any."""
    rgb = image.convert("RGB")
    profile = image.info.get("icc_profile")
    if not profile:
        return rgb  # untagged pictures are sRGB to a browser
    source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    return ImageCms.profileToProfile(
        rgb, source, ImageCms.createProfile("sRGB"),
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode="RGB")


# lcms2's cmsFLAGS_BLACKPOINTCOMPENSATION; Debian's Pillow 9 has no ImageCms.Flags.
BLACK_POINT_COMPENSATION = 0x2000


def in_profile(colour_rgb, image):
    """`colour_rgb`, an sRGB colour, in the numbers of `image`'s ICC profile (itself when
    the image has none)."""
    profile = image.info.get("icc_profile")
    if not profile:
        return colour_rgb
    transform = ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(profile)), "RGB",
        "RGB", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=BLACK_POINT_COMPENSATION)
    return ImageCms.applyTransform(Image.new("RGB", (1, 1), colour_rgb), transform).getpixel((0, 0))


def block_chroma(rgb):
    """Each 2×2 block's mean (Cb, Cr), BT.601 full range, from `rgb`'s stored values."""
    pixels = rgb.load()
    blocks = {}
    for by in range(rgb.height // 2):
        for bx in range(rgb.width // 2):
            cb = cr = 0.0
            for x, y in ((2 * bx, 2 * by), (2 * bx + 1, 2 * by), (2 * bx, 2 * by + 1),
                         (2 * bx + 1, 2 * by + 1)):
                r, g, b = pixels[x, y]
                cb += -0.168736 * r - 0.331264 * g + 0.5 * b
                cr += 0.5 * r - 0.418688 * g - 0.081312 * b
            blocks[bx, by] = (cb / 4, cr / 4)
    return blocks


def flat_chroma(blocks, x, y):
    """Whether the 3×3 blocks around pixel (x, y) hold the same chroma within 1 level, so
    that no upsampling filter can move the pixel's colour."""
    bx, by = x // 2, y // 2
    cb, cr = blocks.get((bx, by), (None, None))
    if cb is None:
        return False
    for nx in (bx - 1, bx, bx + 1):
        for ny in (by - 1, by, by + 1):
            other = blocks.get((nx, ny))
            if other is None or abs(other[0] - cb) > 1 or abs(other[1] - cr) > 1:
                return False
    return True


def shown(screenshot_path, decoded_path, page_text, chroma, edge=""):
    page = colour(page_text)
    if chroma not in ("444", "420"):
        sys.exit(f"FAILED: chroma {chroma!r} is not 444 or 420")
    screenshot = Image.open(screenshot_path).convert("RGB")
    decoded = rgba(decoded_path)
    width, height = decoded.size
    if screenshot.width <= width or screenshot.height <= height:
        sys.exit(f"FAILED: the screenshot ({screenshot.size}) leaves no page around the "
                 f"{width}×{height} picture")
    shot = screenshot.load()
    alpha = decoded.getchannel("A").load()
    srgb = in_srgb(decoded).load()
    blocks = block_chroma(decoded.convert("RGB")) if chroma == "420" else None
    worst = {"opaque": 0, "transparent": 0, "page": 0, "edge": 0}
    signed, opaque = [0, 0, 0], 0
    counts = dict.fromkeys(worst, 0)
    where = {}

    def note(region, xy, expected):
        counts[region] += 1
        got = shot[xy]
        difference = max(abs(g - e) for g, e in zip(got, expected))
        if difference > worst[region]:
            worst[region] = difference
            where[region] = (xy, got, expected)

    for y in range(screenshot.height):
        for x in range(screenshot.width):
            if x >= width or y >= height:
                note("page", (x, y), page)
                continue
            a = alpha[x, y]
            if a == 255:
                opaque += 1
                for c in range(3):
                    signed[c] += shot[x, y][c] - srgb[x, y][c]
                if blocks is None or flat_chroma(blocks, x, y):
                    note("opaque", (x, y), srgb[x, y])
            elif a == 0:
                note("transparent", (x, y), page)
            else:  # hexmask's formula, in sRGB values
                note("edge", (x, y),
                     tuple((v * a + u * (255 - a) + 127) // 255 for v, u in zip(srgb[x, y], page)))
    bias = [round(v / max(opaque, 1), 2) for v in signed]
    compared = "opaque" if blocks is None else "opaque, flat chroma"
    print(f"  {compared} {counts['opaque']} px: max diff {worst['opaque']}; "
          f"transparent {counts['transparent']} px: {worst['transparent']}; "
          f"page {counts['page']} px: {worst['page']}; "
          f"edge {counts['edge']} px ({'checked' if edge else 'not checked'}): {worst['edge']}; "
          f"mean signed diff (R, G, B) over all {opaque} opaque px: {bias}")
    area = width * height
    # A hexagon fills about 3/4 of its square, its corners the rest less the edge; flat
    # chroma is some 7 % (a busy photo) to 50 % of the opaque pixels of a 256² avatar.
    minimum = {"opaque": area // 2 if blocks is None else area // 40,
               "transparent": area // 20, "page": 1}
    failures = [f"only {counts[r]} {r} pixels (want ≥ {n})" for r, n in minimum.items()
                if counts[r] < n]
    for region in ("opaque", "transparent", "page") + (("edge",) if edge else ()):
        if worst[region] > TOLERANCE:
            xy, got, expected = where[region]
            failures.append(f"{region} pixel {xy} is {got} in Chromium, want {expected} "
                            f"(diff {worst[region]} > {TOLERANCE})")
    if max(abs(b) for b in bias) > 1:
        failures.append(f"the opaque pixels are shifted by {bias} on average (a colour matrix, "
                        "range or profile read differently)")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))


def flattens(decoded_path, page_text, flat_path):
    decoded = rgba(decoded_path)
    page = in_profile(colour(page_text), decoded)
    flat = Image.open(flat_path).convert("RGB")
    if flat.size != decoded.size:
        sys.exit(f"FAILED: {flat_path} is {flat.size}, the AVIF {decoded.size}")
    mismatches = 0
    for (r, g, b, a), got in zip(decoded.getdata(), flat.getdata()):
        want = tuple((v * a + u * (255 - a) + 127) // 255 for v, u in zip((r, g, b), page))
        mismatches += want != got
    print(f"  decoded AVIF over {page_text} (in its profile's numbers: {page}) against "
          f"hexmask's --background output: {mismatches} pixels differ")
    if mismatches:
        sys.exit(f"FAILED: {mismatches} pixels of {decoded_path} over {page_text} differ "
                 f"from {flat_path}")


AGREE_TOLERANCE = 2


def agree(first_path, second_path, picture_path):
    first = Image.open(first_path).convert("RGB")
    second = Image.open(second_path).convert("RGB")
    alpha = rgba(picture_path).getchannel("A")
    width, height = alpha.size
    if first.size != second.size or first.width < width or first.height < height:
        sys.exit(f"FAILED: screenshots {first.size} and {second.size} do not both hold the "
                 f"{width}×{height} picture")
    a, b, coverage = first.load(), second.load(), alpha.load()
    worst, where, count, total = 0, None, 0, 0
    for y in range(height):
        for x in range(width):
            if coverage[x, y] != 255:
                continue
            count += 1
            difference = max(abs(p - q) for p, q in zip(a[x, y], b[x, y]))
            total += difference
            if difference > worst:
                worst, where = difference, (x, y)
    print(f"  opaque {count} px: max diff {worst}, mean {total / max(count, 1):.2f}"
          + (f" (worst at {where}: {a[where]} against {b[where]})" if where else ""))
    if count < width * height // 2:
        sys.exit(f"FAILED: only {count} opaque pixels (want ≥ {width * height // 2})")
    if worst > AGREE_TOLERANCE:
        sys.exit(f"FAILED: opaque pixel {where} is {a[where]} in one screenshot and "
                 f"{b[where]} in the other (diff {worst} > {AGREE_TOLERANCE})")


def main():
    args = sys.argv[1:]
    if len(args) in (5, 6) and args[0] == "shown" and args[5:] in ([], ["edge"]):
        shown(*args[1:])
    elif len(args) == 4 and args[0] == "flattens":
        flattens(*args[1:])
    elif len(args) == 4 and args[0] == "agree":
        agree(*args[1:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
