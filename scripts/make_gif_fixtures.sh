#!/usr/bin/env bash
# Makes the GIF fixtures of Fixtures/animation/ with ImageMagick 6 (`convert`) and
# gifsicle, the way Fixtures/animation/MANIFEST.txt says; then run
# scripts/gif_references.py to decode them with Chromium, ImageMagick and Pillow.
#
#   scripts/make_gif_fixtures.sh
#
# Two files have their logical screen size patched afterwards (bytes 6–9, little-endian),
# since gifsicle always grows the screen to hold every frame: the point of those two is a
# frame that reaches past it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/Fixtures/animation
work=$(mktemp -d "${TMPDIR:-/tmp}/gif-fixtures.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# The tiles, each a GIF of its own palette.
convert -size 8x8 xc:red -fill lime -draw 'rectangle 2,2 5,5' -transparent lime hole.gif
convert -size 6x6 xc:blue blue.gif
convert -size 10x5 gradient:yellow-purple ramp.gif
convert -size 7x13 gradient:lime-navy tall.gif

# Every disposal, transparency, an interlaced frame, delays of 0, 1, 2, 5, 10 and 3
# centiseconds, loop count 3, a 24×20 canvas larger than every frame (gifsicle merges the
# tiles' palettes into one global table).
gifsicle --logical-screen 24x20 --loopcount=3 \
  --delay 0 --disposal none --position 0,0 hole.gif \
  --delay 1 --disposal background --position 6,4 blue.gif \
  --delay 2 --disposal previous --position 10,8 ramp.gif \
  --delay 5 --disposal none --position 14,2 --interlace tall.gif --no-interlace \
  --delay 10 --disposal previous --position 2,10 hole.gif \
  --delay 3 --disposal background --position 16,12 blue.gif \
  --delay 4 --disposal none --position 1,1 ramp.gif \
  >"$out/mixed-disposal.gif"

# The same frames without a loop extension (plays once) and looping forever.
gifsicle --no-loopcount --delay 7 hole.gif blue.gif ramp.gif >"$out/loop-absent.gif"
gifsicle --loopcount=forever --delay 7 hole.gif blue.gif ramp.gif >"$out/loop-forever.gif"

# ImageMagick's own disposals: a white first frame, then small frames that go away.
for disposal in none background previous; do
  convert -delay 20 -size 16x16 xc:white -dispose "$disposal" \
    -page +2+2 -size 6x6 xc:red -page +8+8 -size 6x6 xc:blue \
    -page +4+9 \( -size 5x5 xc:lime -fill none -draw 'point 2,2' -transparent lime \) \
    -page +4+9 \( -size 5x5 xc:lime -fill black -draw 'point 2,2' -transparent lime \) \
    -loop 0 "$out/im-dispose-$disposal.gif"
done

# A photo: three 48² frames, each dithered to its own 64-colour palette, which ImageMagick
# writes as local tables; all interlaced (48 rows: every pass has rows).
convert "$root/Fixtures/photos/rocket.jpg" -resize 48x48^ -gravity center -extent 48x48 \
  \( +clone -rotate 90 \) \( +clone -negate \) -colors 64 -delay 8 -loop 2 \
  -interlace GIF "$out/photo-local-palettes.gif"

# An ICC profile (Display P3, from the WebP fixtures) in ImageMagick's ICCRGBG1012
# application extension.
convert -size 8x8 gradient:red-blue -colors 16 -profile "$root/Fixtures/webp/icc-p3.icc" \
  "$out/icc-p3.gif"

# A still GIF (one frame, no loop extension).
convert -size 12x9 gradient:orange-teal -colors 16 "$out/still.gif"

# The first frame past the screen: an 8×8 frame at 2,2 on a screen patched to 6×6
# (Chromium grows the canvas to 10×10, ImageMagick clips to 6×6); then a 4×4 frame.
gifsicle --logical-screen 6x6 --position 2,2 hole.gif --position 4,0 blue.gif \
  >"$out/first-frame-outside.gif"
# A later frame past the screen: 6×6 frame at 0,0, then an 8×8 one at 3,2 on 6×6.
gifsicle --logical-screen 6x6 --position 0,0 blue.gif --position 3,2 hole.gif \
  >"$out/later-frame-outside.gif"
python3 - "$out/first-frame-outside.gif" "$out/later-frame-outside.gif" <<'PY'
import sys
for path in sys.argv[1:]:
    data = bytearray(open(path, "rb").read())
    data[6:10] = bytes([6, 0, 6, 0])
    open(path, "wb").write(data)
PY
ls -l "$out"/*.gif
