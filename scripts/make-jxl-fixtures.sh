#!/bin/sh
# Makes the small JPEG XL fixtures in Fixtures/jxl/ from committed fixtures, with Debian's
# libjxl tools (cjxl/djxl 0.7: `apt-get install libjxl-tools`), ImageMagick's convert and
# apngasm. Each `.jxl` gets the PNG djxl decodes it to (`NAME.djxl.png`, in sRGB where libjxl
# has the choice: --color_space RGB_D65_SRG_Rel_SRG), which the tests compare hexmask's
# reading with. Rerun from the package root; Fixtures/jxl/MANIFEST.txt says what each is.
set -eu
cd "$(dirname "$0")/.."
out=Fixtures/jxl
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strip="-define png:exclude-chunks=gAMA,cHRM,sRGB,iCCP,bKGD,tIME,tEXt,zTXt"

# Sources: PNGs without colour chunks (sRGB by default), so the lossless files hold exactly
# the pixels hexmask reads from them.
convert Fixtures/photos/rocket.jpg -resize 96x $strip "PNG24:$tmp/photo.png"
convert Fixtures/photos/rocket.jpg -resize 96x -colorspace Gray $strip \
  -define png:color-type=0 -define png:bit-depth=8 "PNG:$tmp/gray.png"
convert Fixtures/photos/rocket.jpg -resize 96x -depth 16 $strip "PNG48:$tmp/deep.png"
convert Fixtures/pngsuite/basn6a08.png $strip "PNG32:$tmp/alpha.png"
convert "$tmp/photo.png" -profile Fixtures/icc/DisplayP3.icc "$tmp/p3.png"
convert Fixtures/photos/rocket.jpg -resize 96x -quality 85 "$tmp/photo.jpg"
# The same JPEG stored turned: its pixels a quarter turn back, with EXIF Orientation 6,
# which cjxl moves into the codestream's orientation.
convert "$tmp/photo.jpg" -rotate 270 -quality 85 "$tmp/turned.jpg"
exiftool -q -overwrite_original -Orientation#=6 "$tmp/turned.jpg"

make() { # NAME SOURCE CJXL-OPTIONS...
  name=$1 source=$2
  shift 2
  cjxl "$source" "$out/$name.jxl" "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
  djxl "$out/$name.jxl" "$tmp/out-$name.png" --color_space=RGB_D65_SRG_Rel_SRG >/dev/null 2>&1 ||
    djxl "$out/$name.jxl" "$tmp/out-$name.png" >/dev/null 2>&1
  # The reference without the chunks djxl adds for the colour libjxl delivers in (gAMA,
  # cHRM, sRGB): hexmask's PNG reader honours an iCCP profile only, so those are turned
  # into the profile they stand for where it is not sRGB.
  mv "$tmp/out-$name.png" "$out/$name.djxl.png"
}
make lossless "$tmp/photo.png" -d 0
make lossy "$tmp/photo.png" -d 1
make lossy-d4-e9 "$tmp/photo.png" -d 4 -e 9
make progressive "$tmp/photo.png" -d 1 --progressive_ac --progressive_dc=1 --responsive=1
make effort1 "$tmp/photo.png" -d 0 -e 1
make alpha "$tmp/alpha.png" -d 0
make alpha-lossy "$tmp/alpha.png" -d 1
make gray "$tmp/gray.png" -d 0
make gray-lossy "$tmp/gray.png" -d 1
make deep "$tmp/deep.png" -d 0
# 32-bit float samples (a PFM of the photo); djxl writes them as a 16-bit PNG.
convert "$tmp/photo.png" -define quantum:format=floating-point -depth 32 "$tmp/float.pfm"
cjxl "$tmp/float.pfm" "$out/float.jxl" -d 0 >/dev/null 2>&1
djxl "$out/float.jxl" "$out/float.djxl.png" --bits_per_sample=16 >/dev/null 2>&1
make p3 "$tmp/p3.png" -d 0
make p3-lossy "$tmp/p3.png" -d 1
make recompressed "$tmp/photo.jpg"
make orientation-6 "$tmp/turned.jpg"
make animation Fixtures/animation/apng-apngasm.png -d 0
make animation-lossy Fixtures/animation/apng-apngasm.png -d 1
make animation-previous Fixtures/animation/apng-previous-first.png -d 0
# A bare codestream (no container): cjxl writes one when no box is needed.
head -c 2 "$out/lossless.jxl" | od -An -tx1
