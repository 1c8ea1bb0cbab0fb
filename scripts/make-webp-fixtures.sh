#!/bin/sh
# Makes the small WebP fixtures in Fixtures/webp/ from committed fixtures, with Debian's
# webp tools (cwebp, img2webp, webpmux: `apt-get install webp`) and python3 (stdlib only).
# Rerun from the package root; Fixtures/webp/MANIFEST.txt says what each file is.
set -eu
cd "$(dirname "$0")/.."
out=Fixtures/webp
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The PngSuite sources without their gAMA chunk: cwebp's PNG reader applies gAMA (to a 2.2
# screen), hexmask's does not, and the lossless fixtures must hold the pixels hexmask reads.
png=$tmp
for name in basn2c08 basn6a08; do
  python3 - "Fixtures/pngsuite/$name.png" "$tmp/$name.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
out, pos = data[:8], 8
while pos < len(data):
    (length,) = struct.unpack(">I", data[pos:pos + 4])
    if data[pos + 4:pos + 8] != b"gAMA":
        out += data[pos:pos + 12 + length]
    pos += 12 + length
open(sys.argv[2], "wb").write(out)
PY
done

# The Display P3 profile of sharp's p3.png, from its iCCP chunk.
python3 - Fixtures/icc/p3.png "$tmp/p3.icc" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos = 8
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"iCCP":
        name_end = body.index(b"\0")
        open(sys.argv[2], "wb").write(zlib.decompress(body[name_end + 2:]))
        break
    pos += 12 + length
else:
    sys.exit("no iCCP chunk")
PY

q() { "$@" -quiet; }
# Lossless: RGBA with graded alpha, and opaque RGB. -exact keeps the colour of clear pixels.
q cwebp -lossless -exact -metadata none "$png/basn6a08.png" -o "$out/lossless-alpha.webp"
q cwebp -lossless -metadata none "$png/basn2c08.png" -o "$out/lossless-rgb.webp"
# Lossy: opaque, from a photograph scaled to 96 px wide; and lossy colour with lossless alpha.
q cwebp -q 80 -resize 96 0 -metadata none Fixtures/photos/rocket.jpg -o "$out/lossy-photo.webp"
q cwebp -q 80 -alpha_q 100 -metadata none "$png/basn6a08.png" -o "$out/lossy-alpha.webp"
# Animated: two 32×32 frames, the first one opaque RGB, then the RGBA one.
img2webp -loop 0 -lossless -d 200 "$png/basn2c08.png" -d 200 "$png/basn6a08.png" \
  -o "$out/animated.webp" >/dev/null 2>&1
# An ICC profile (Display P3) in an opaque lossy picture.
q cwebp -q 80 -metadata none "$png/basn2c08.png" -o "$tmp/plain.webp"
webpmux -set icc "$tmp/p3.icc" "$tmp/plain.webp" -o "$out/icc-p3.webp" >/dev/null 2>&1
# An EXIF chunk saying "rotate 90° clockwise" (orientation 6) in the 96×64 photograph:
# hexmask, like browsers, does not rotate WebP by it.
python3 - "$tmp/exif.tiff" <<'PY'
import struct, sys
# Little-endian TIFF header, one IFD holding Orientation (0x0112) SHORT 1 = 6.
tiff = b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", 1)
tiff += struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0) + struct.pack("<I", 0)
open(sys.argv[1], "wb").write(tiff)
PY
webpmux -set exif "$tmp/exif.tiff" "$out/lossy-photo.webp" -o "$out/exif-orientation-6.webp" \
  >/dev/null 2>&1
cp "$tmp/p3.icc" "$out/icc-p3.icc"
ls -l "$out"
