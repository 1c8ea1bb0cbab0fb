#!/bin/sh
# Regenerates the pictures of README's gallery under docs/gallery/ with hexmask itself, from
# the bundled photo. `make gallery` runs it with the release build; by hand:
#   scripts/gallery.sh .build/release/hexmask
# The gallery's pictures are 160 × 160 so that docs/ stays well under 1 MB (the colour pair
# 256 × 256, an avatar's size, where a dull picture shows).
set -eu

hexmask=${1:?usage: scripts/gallery.sh path/to/hexmask}
case $hexmask in /*) ;; *) hexmask=$PWD/$hexmask ;; esac
cd "$(dirname "$0")/.."

photo=Fixtures/photos/rocket.jpg
out=docs/gallery
size=160
rm -rf "$out"
# hexmask replaces only outputs it knows it made (its records), so the full-size ones go too.
rm -f docs/rocket-hexagon.png docs/rocket-octagon-blue.png docs/rocket-seed.png
mkdir -p "$out"

# run OUTPUT OPTION...: prints the command, quoted for a shell, and cuts the photo into OUTPUT.
run() {
  output=$1
  shift
  printf 'hexmask %s %s' "$photo" "$output"
  for word; do
    case $word in
      *[!A-Za-z0-9%./_-]*) printf " '%s'" "$word" ;;
      *) printf ' %s' "$word" ;;
    esac
  done
  echo
  # Pictures in the repository are stored small; the pixels are those of the default.
  case $output in
    *.png) "$hexmask" "$photo" "$output" "$@" --compression small ;;
    *) "$hexmask" "$photo" "$output" "$@" ;;
  esac
}

# picture NAME OPTION...: a small picture $out/NAME.
picture() {
  name=$1
  shift
  run "$out/$name" --size "$size" "$@"
}

# The three full-size pictures at the top of README.
run docs/rocket-hexagon.png --corner 10 --line 5
run docs/rocket-octagon-blue.png --sides 8 --corner 24 --line 8 --border-color dodgerblue
run docs/rocket-seed.png --layout seed

for sides in 3 4 5 6 7 8; do
  picture "sides-$sides.png" --sides "$sides"
done

picture corner-0.png --corner 0
picture corner-8pct.png --corner 8%
picture corner-20pct.png --corner 20%

picture line-0.png --line 0
picture line-gold.png --line 12 --border-color gold
picture line-translucent.png --line 10 --border-color '#1e90ff80'

picture layout-centered.png --line 16
picture layout-seed.png --line 16 --layout seed

picture pentagon-up.png --sides 5 --rotation -90 --border-color black --line 4

picture avatar.webp --quality 80
picture avatar.avif
picture avatar.jxl
picture avatar-colors.png --colors 64
picture avatar.jpg --background '#1e90ff'
echo "hexmask --mask-only --size $size $out/mask.png"
"$hexmask" --mask-only --size "$size" "$out/mask.png" --compression small
echo "hexmask --svg $out/octagon.svg --size $size --sides 8 --border-color dodgerblue"
"$hexmask" --svg "$out/octagon.svg" --size "$size" --sides 8 --border-color dodgerblue

# Smart crops: a portrait scene whose face the centre square cuts off, and the cat.
smart() {
  name=$1
  input=$2
  shift 2
  echo "hexmask $input $out/$name --size $size $*"
  "$hexmask" "$input" "$out/$name" --size "$size" "$@" --compression small
}
scene=Fixtures/faces/scenes/scene-29.jpg
cat=Fixtures/faces/detect/cat-chelsea.jpg
smart scene-center.png "$scene"
if "$hexmask" "$scene" /dev/null --gravity face 2>/dev/null; then
  smart scene-face.png "$scene" --gravity face
else
  echo "gallery: no face model (apt install opencv-data): scene-face.png not made" >&2
fi
smart cat-center.png "$cat"
smart cat-attention.png "$cat" --gravity attention

# Colour (README, "Colour"): a Display P3 photo, the astronaut tagged with
# Fixtures/icc/DisplayP3.icc by scripts/tag_icc.py (pixels untouched), as a 256 px avatar
# the way `--strip` left it before it converted (the profile dropped, the numbers not
# converted, so every viewer reads P3 numbers as sRGB: duller) and with `--colorspace srgb`
# (converted). The old --strip is emulated: the keep avatar with its profile taken out.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/hexmask-gallery.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
p3=$scratch/astronaut-p3.jpg
python3 scripts/tag_icc.py Fixtures/faces/detect/astronaut.jpg "$p3" \
  --profile Fixtures/icc/DisplayP3.icc
echo "hexmask astronaut-p3.jpg $out/colour-srgb.png --size 256 --colorspace srgb"
"$hexmask" "$p3" "$out/colour-srgb.png" --size 256 --colorspace srgb --compression small
echo "hexmask astronaut-p3.jpg $out/colour-strip-before.png --size 256 --colorspace keep," \
  "then its iCCP chunk taken out (the old --strip)"
"$hexmask" "$p3" "$scratch/keep.png" --size 256 --colorspace keep --compression small
python3 scripts/tag_icc.py "$scratch/keep.png" "$out/colour-strip-before.png" --remove

# A moving avatar (docs/gallery.md, "Animations"): a GIF with real motion, a slow zoom and
# pan across the rocket photo in 60 frames of 50 ms, each quantised to its own 256 colours
# as GIFs made from video are (scripts/pan_zoom_gif.py, Pillow), cut into an animated WebP.
# The GIF is made here, not kept: the same Pillow makes the same bytes.
gif=$scratch/rocket-pan-zoom.gif
echo "scripts/pan_zoom_gif.py $photo rocket-pan-zoom.gif --frames 60 --side 320 --delay 50"
python3 scripts/pan_zoom_gif.py "$photo" "$gif" --frames 60 --side 320 --delay 50
echo "hexmask rocket-pan-zoom.gif $out/avatar-moving.webp --size $size --quality 80"
"$hexmask" "$gif" "$out/avatar-moving.webp" --size "$size" --quality 80

du -sh docs
