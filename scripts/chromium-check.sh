#!/usr/bin/env bash
# make chromium-check: a browser shows hexmask's AVIFs and JPEG XLs as hexmask meant them.
#
#   scripts/chromium-check.sh HEXMASK
#
# HEXMASK is the built binary (the Makefile passes the debug one). Needs Debian's chromium,
# libheif-examples (heif-convert) and python3-pil; as root it installs the missing ones
# with apt-get (chromium costs some 40 s), otherwise it fails naming them. It never skips.
#
# For two photos, Fixtures/photos/rocket.jpg (Adobe RGB ICC profile) and
# Fixtures/attention/coffee-160.png (no profile), hexmask writes a 256² avatar as its
# default lossy AVIF (4:2:0) and as a lossless one (4:4:4 RGB). Headless Chromium renders
# each as an <img> at 0,0, natural size, on a page whose background is PAGE, at device
# scale 1 in sRGB, and scripts/chromium_compare.py compares the screenshot with libheif's
# decode of the same AVIF (the library hexmask writes and reads AVIF with), put over PAGE:
#   - opaque pixels within 3 levels, after converting the decode from its ICC profile to
#     sRGB (so a browser that ignored the profile fails); for 4:2:0 only where the chroma
#     is flat, since libheif and Chromium upsample chroma differently (see the script);
#   - transparent pixels (the hexagon's corners) and the page around the picture are the
#     page colour within 3, which shows that the alpha is honoured;
#   - for the lossless AVIFs, the decode over PAGE equals hexmask's own `--background
#     PAGE` PNG exactly: so what Chromium shows is what hexmask meant, pixel for pixel.
# Comparing with the decode of the same AVIF, rather than with hexmask's PNG, keeps the
# lossy encoder's error out (tested in AVIFWriterTests) and leaves only how the file is
# read: colour matrix, range, profile, alpha.
# Two controls: hexmask's PNG of the rocket must show exactly, its anti-aliased edge too
# (so the screenshot itself is exact: Chromium shows the AVIFs' edges as if their alpha
# were limited range, which is measured and printed but not checked, see docs/web.md,
# "How the AVIF defaults were chosen"); and the lossless rocket made from the JPEG with its
# profile taken out must fail the comparison, so the check can tell a picture shown in the
# wrong colours.
# Colour: a Display P3 photo (Fixtures/faces/detect/astronaut.jpg, tagged with
# Fixtures/icc/DisplayP3.icc by scripts/tag_icc.py, its pixels untouched) as a 256² PNG
# avatar with `--colorspace keep` (the P3 profile copied; Chromium converts) and with
# `--colorspace srgb` (hexmask converts with lcms2): the two screenshots' opaque pixels
# agree within 2 levels (chromium_compare.py agree). Without the border (--line 0): hexmask
# draws it after converting, so its anti-aliased inner edge is white blended into sRGB
# numbers in one and into P3 numbers (converted by Chromium afterwards) in the other, which
# differ where the blend leaves the sRGB gamut (up to 15 levels on 100 of the 43 964 opaque
# pixels of the default avatar); the outer edge, not opaque, is left out alike. Its
# control: the keep avatar with its profile taken out, pixels as they are (what `--strip`
# did before it converted), must differ from the converted one by more than 2 levels somewhere,
# so the check can fail.
# JPEG XL: the same two photos as lossless .jxl avatars must show as hexmask's PNG of the
# same command, edge included (chromium_compare.py shown … edge), profile honoured.
# Animations (scripts/animation_check.py): Fixtures/animation/photo-local-palettes.gif, given
# delays of 10, 200 and 70 ms, as hexmask's animated WebP, APNG and lossless JPEG XL, decoded by Chromium's
# WebCodecs (scripts/browser_frames.py): as many frames and distinct frames as the GIF, every
# frame's alpha the still `--mask-only` mask's on the middle row and column and 0 at the
# corners, and the GIF's played duration (10 ms plays as 100 ms) within one frame's delay.
# Its controls, a still PNG of the APNG's first frame and the WebP without its last frame,
# must fail.
# Exit status 0 means every comparison passed; anything else ends with a line starting
# "chromium-check: FAILED".
set -euo pipefail

die() {
  printf 'chromium-check: FAILED: %s\n' "$*" >&2
  exit 1
}

[[ $# -eq 1 ]] || die "usage: $0 HEXMASK"
[[ -x $1 ]] || die "$1 is not an executable hexmask"
hexmask=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
compare=$root/scripts/chromium_compare.py
python=/usr/bin/python3
page='#2a7fd4'
started=$SECONDS

# The Debian packages: the chromium-check line of packaging/debian-packages.
package_list=$root/packaging/debian-packages
read -ra packages <<<"$(sed -n 's/^chromium-check:[[:space:]]*//p' "$package_list")"
((${#packages[@]} > 0)) || die "packaging/debian-packages has no chromium-check line"
have_all() {
  command -v chromium && command -v heif-convert && "$python" -c 'import PIL.ImageCms'
} >/dev/null 2>&1
if ! have_all; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium-check: installing ${packages[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update </dev/null >/dev/null
    apt-get install -y --no-install-recommends "${packages[@]}" </dev/null >/dev/null
    have_all || die "${packages[*]} are still missing after apt-get install"
  else
    die "needs ${packages[*]} (Debian/Ubuntu: sudo apt-get install ${packages[*]})"
  fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/hexmask-chromium.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Chromium's screenshot of NAME.EXT (EXT avif unless given) on the page: NAME-shot.png,
# 288² (the picture is 256²).
# As root it needs --no-sandbox; its own profile folder keeps it away from any user's.
shoot() {
  local name=$1 extension=${2:-avif}
  printf '<!doctype html><html><head><style>html,body{margin:0;padding:0;background:%s}
img{position:absolute;left:0;top:0}</style></head><body><img src="%s.%s"></body></html>\n' \
    "$page" "$name" "$extension" >"$work/$name.html"
  timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --force-device-scale-factor=1 --force-color-profile=srgb --window-size=288,288 \
    --user-data-dir="$work/profile" --screenshot="$work/$name-shot.png" \
    "file://$work/$name.html" >"$work/$name-chromium.log" 2>&1 ||
    die "chromium failed on $name.$extension: $(tail -n 3 "$work/$name-chromium.log")"
  [[ -s $work/$name-shot.png ]] || die "chromium wrote no screenshot of $name.$extension"
}

decode() {
  heif-convert "$work/$1.avif" "$work/$1-decoded.png" >/dev/null ||
    die "heif-convert cannot read hexmask's $1.avif"
}

for photo in Fixtures/photos/rocket.jpg Fixtures/attention/coffee-160.png; do
  base=$(basename "${photo%.*}")
  for kind in lossy lossless; do
    name=$base-$kind
    options=(--size 256 --quiet)
    [[ $kind == lossless ]] && options+=(--lossless)
    "$hexmask" "$root/$photo" "$work/$name.avif" "${options[@]}" ||
      die "hexmask cannot write $name.avif"
    decode "$name"
    shoot "$name"
    echo "chromium-check: $photo, $kind AVIF on $page"
    chroma=420
    [[ $kind == lossless ]] && chroma=444
    "$python" "$compare" shown "$work/$name-shot.png" "$work/$name-decoded.png" "$page" \
      "$chroma" || die "Chromium shows $photo's $kind AVIF differently (above)"
  done
  "$hexmask" "$root/$photo" "$work/$base-flat.png" --size 256 --background "$page" --quiet ||
    die "hexmask cannot write $base-flat.png"
  "$python" "$compare" flattens "$work/$base-lossless-decoded.png" "$page" \
    "$work/$base-flat.png" || die "the lossless AVIF of $photo is not hexmask's picture"
done

# JPEG XL: a lossless .jxl shows as hexmask's PNG of the same command, pixel for pixel,
# the anti-aliased edge included (its colour compared where Chromium's canvas keeps it:
# premultiplied, so where alpha is 255), the rocket's Adobe RGB profile honoured.
for photo in Fixtures/photos/rocket.jpg Fixtures/attention/coffee-160.png; do
  base=$(basename "${photo%.*}")-jxl
  "$hexmask" "$root/$photo" "$work/$base.jxl" --size 256 --lossless --quiet ||
    die "hexmask cannot write $base.jxl"
  "$hexmask" "$root/$photo" "$work/$base.png" --size 256 --quiet ||
    die "hexmask cannot write $base.png"
  shoot "$base" jxl
  echo "chromium-check: $photo, lossless JPEG XL on $page, against hexmask's PNG"
  "$python" "$compare" shown "$work/$base-shot.png" "$work/$base.png" "$page" 444 edge ||
    die "Chromium shows $photo's lossless JPEG XL differently from its PNG (above)"
done

# The controls. hexmask's own PNG, edge included:
"$hexmask" "$root/Fixtures/photos/rocket.jpg" "$work/png.png" --size 256 --quiet ||
  die "hexmask cannot write png.png"
shoot png png
echo "chromium-check: control, the rocket as hexmask's PNG, edge checked too"
"$python" "$compare" shown "$work/png-shot.png" "$work/png.png" "$page" 444 edge ||
  die "Chromium shows hexmask's PNG differently (above): the screenshot is not exact"
# The same pixels without their profile must not pass as the tagged ones. Not made with
# --strip, which converts to sRGB first since --colorspace: the profile is taken out of the
# JPEG (scripts/tag_icc.py, the pixels untouched), so hexmask has nothing to convert.
"$python" "$root/scripts/tag_icc.py" "$root/Fixtures/photos/rocket.jpg" \
  "$work/rocket-bare.jpg" --remove || die "cannot take the profile out of rocket.jpg"
"$hexmask" "$work/rocket-bare.jpg" "$work/control.avif" --size 256 --lossless --quiet ||
  die "hexmask cannot write control.avif"
shoot control
echo "chromium-check: control, the rocket without its profile (must fail):"
if "$python" "$compare" shown "$work/control-shot.png" "$work/rocket-lossless-decoded.png" \
  "$page" 444 2>&1 | sed 's/^FAILED:/  as it should: FAILED:/'; then
  die "the comparison passed a picture shown without its colour profile"
fi

# Colour: the same P3 photo shown with its profile and converted to sRGB by hexmask.
"$python" "$root/scripts/tag_icc.py" "$root/Fixtures/faces/detect/astronaut.jpg" \
  "$work/p3.jpg" --profile "$root/Fixtures/icc/DisplayP3.icc" ||
  die "cannot tag the astronaut with the Display P3 profile"
for mode in keep srgb; do
  "$hexmask" "$work/p3.jpg" "$work/p3-$mode.png" --size 256 --line 0 \
    --colorspace "$mode" --quiet || die "hexmask cannot write p3-$mode.png"
  shoot "p3-$mode" png
done
echo "chromium-check: a Display P3 photo, --colorspace srgb against keep (its profile kept)"
"$python" "$compare" agree "$work/p3-srgb-shot.png" "$work/p3-keep-shot.png" \
  "$work/p3-keep.png" || die "Chromium shows the converted P3 avatar in other colours (above)"
"$python" "$root/scripts/tag_icc.py" "$work/p3-keep.png" "$work/p3-bare.png" --remove ||
  die "cannot take the profile out of p3-keep.png"
shoot p3-bare png
echo "chromium-check: control, the kept P3 avatar without its profile (must fail):"
if "$python" "$compare" agree "$work/p3-srgb-shot.png" "$work/p3-bare-shot.png" \
  "$work/p3-keep.png" 2>&1 | sed 's/^FAILED:/  as it should: FAILED:/'; then
  die "the comparison passed a P3 picture shown without its profile"
fi

echo "chromium-check: animations, hexmask's animated WebP, APNG and JPEG XL of a GIF with varied delays"
mkdir "$work/animation"
"$python" "$root/scripts/animation_check.py" "$hexmask" \
  "$root/Fixtures/animation/photo-local-palettes.gif" "$work/animation" ||
  die "Chromium does not play hexmask's animations as the GIF plays (above)"

echo "chromium-check: passed ($(chromium --version 2>/dev/null | head -n 1)," \
  "$((SECONDS - started)) s)"
