#!/bin/sh
# Makes the HEIC/AVIF fixtures in Fixtures/heif/ from Fixtures/photos/rocket.jpg with
# Debian's open tools: heif-enc/heif-convert (libheif-examples), avifenc (libavif-bin),
# exiftool (libimage-exiftool-perl) and python3 (standard library only; see
# scripts/heif_fixture_pngs.py). Run from the package root: sh scripts/make-heif-fixtures.sh
# Encoders are not bit-exact across versions: the tests check sizes, alpha, metadata and
# known colours, not exact pixels, so remaking the files keeps them passing.
set -eu
out=Fixtures/heif
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# 640x427 → 8-bit PNG → 128x85 PNG sources (plain, alpha, 16-bit, ICC) and 64x16 grey bands.
heif-enc -q 95 Fixtures/photos/rocket.jpg -o "$work/rocket.heic" >/dev/null
heif-convert "$work/rocket.heic" "$work/rocket.png" >/dev/null
python3 scripts/heif_fixture_pngs.py "$work/rocket.png" Fixtures/icc/p3.png "$work"

heif-enc -q 50 "$work/rocket-128.png" -o "$out/rocket.heic"
heif-enc -q 50 "$work/rocket-alpha.png" -o "$out/rocket-alpha.heic"
heif-enc -q 50 -b 10 "$work/rocket-16.png" -o "$out/rocket-10bit.heic"
# Lossless RGB 10-bit: the decoded 10-bit values are exactly the ones written.
heif-enc -L -p chroma=444 --matrix_coefficients=0 -b 10 "$work/bands-16.png" -o "$out/bands-10bit.heic"
heif-enc -q 50 "$work/rocket-icc.png" -o "$out/rocket-icc.heic"
cp "$work/profile.icc" "$out/rocket-icc.icc"
heif-enc -q 50 -t 64 "$work/rocket-128.png" -o "$out/rocket-thumbnail.heic"
cp "$out/rocket.heic" "$out/rocket-exif6.heic"
exiftool -q -overwrite_original -Orientation#=6 "$out/rocket-exif6.heic"
avifenc -s 8 --min 20 --max 30 "$work/rocket-alpha.png" "$out/rocket-alpha.avif" >/dev/null
avifenc -s 8 --min 20 --max 30 -d 10 "$work/rocket-16.png" "$out/rocket-10bit.avif" >/dev/null
ls -l "$out"
