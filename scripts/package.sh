#!/usr/bin/env bash
# Builds what `make deb` and `make dist` ship, from the same release binary:
#
#   scripts/package.sh deb    hexmask_VERSION-1_ARCH.deb in the current folder
#   scripts/package.sh dist   hexmask-VERSION-linux-ARCH.tar.gz in the current folder
#
# The binary is built with the Swift runtime linked in statically (--static-swift-stdlib)
# and stripped, so nothing of the toolchain is needed where it runs; it needs only the C
# libraries that `ldd` lists. The man page and completions are printed by that binary, as
# `make install` does. The version is scripts/version.sh's. Times are SOURCE_DATE_EPOCH
# (default: the last commit's), owners root, names sorted: the same tree makes the same
# archive. Environment: SWIFT (swift), SCRATCH (.build).
set -euo pipefail
cd "$(dirname "$0")/.."

kind=${1:-}
[[ $kind == deb || $kind == dist ]] || { echo "usage: $0 deb|dist" >&2; exit 2; }
needs=(strip)
[[ $kind == deb ]] && needs+=(dpkg-deb dpkg-shlibdeps)
for tool in "${needs[@]}"; do
  command -v "$tool" >/dev/null ||
    { echo "package: needs $tool (Debian: apt-get install" \
      "$(sed -n 's/^deb-check:[[:space:]]*//p' packaging/debian-packages))" >&2; exit 1; }
done
swift=${SWIFT:-swift}
scratch=${SCRATCH:-.build}
version=$(scripts/version.sh)
# The Debian revision: the packaging here is not Debian's, so always 1 per upstream version.
deb_version=$version-1
maintainer="Seed ca15a4f6 maintainers <maintainers@users.noreply.a-seed-ca15a4f6.example>"
if [[ -z ${SOURCE_DATE_EPOCH:-} ]]; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH

# The release build with the Swift runtime inside, in a scratch folder of its own: sharing
# `make build`'s would recompile every module each time one follows the other (measured,
# Swift 6.3). `-z now` with the default relro makes the GOT read-only after start
# (lintian's hardening-no-bindnow). `--disable-local-rpath`: no RUNPATH $ORIGIN, which
# would load a library lying beside the binary (a download folder) before the system's.
static=(--scratch-path "$scratch/static" -c release --static-swift-stdlib --disable-local-rpath
  -Xlinker -z -Xlinker now)
"$swift" build "${static[@]}" --product hexmask
built=$("$swift" build "${static[@]}" --show-bin-path)/hexmask

work=$scratch/package/$kind
rm -rf "$work"
mkdir -p "$work"
binary=$work/hexmask
# What dh_strip does to a program: no symbols, no .comment or .note sections.
strip --remove-section=.comment --remove-section=.note -o "$binary" "$built"
chmod 755 "$binary"
if [[ $("$binary" --version) != "hexmask $version" ]]; then
  echo "package: '$binary --version' says '$("$binary" --version)', VERSION says $version" >&2
  exit 1
fi
if ldd "$binary" | grep -q 'libswift\|libFoundation\|libdispatch\|libBlocksRuntime'; then
  echo "package: $binary still needs the Swift toolchain's libraries:" >&2
  ldd "$binary" >&2
  exit 1
fi
"$binary" --man >"$work/hexmask.1"
"$binary" --completions bash >"$work/hexmask.bash"
"$binary" --completions zsh >"$work/_hexmask"
"$binary" --completions fish >"$work/hexmask.fish"

# A file tree → a reproducible archive: fixed times, root-owned, sorted names.
settle() { find "$1" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +; }

if [[ $kind == dist ]]; then
  arch=$(uname -m)
  name=hexmask-$version-linux-$arch
  tree=$work/$name
  install -d "$tree"
  install -m 755 "$binary" "$tree/hexmask"
  install -m 644 "$work/hexmask.1" "$work/hexmask.bash" "$work/_hexmask" "$work/hexmask.fish" \
    LICENSE README.md "$tree/"
  # What the binary holds besides hexmask (the Swift runtime, libdispatch) and their
  # licences: the .deb's copyright file.
  install -m 644 packaging/copyright "$tree/COPYRIGHT"
  settle "$tree"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mode=u+rwX,go+rX,go-w \
    --format=gnu -C "$work" -cf - "$name" | gzip -9n >"$name.tar.gz"
  echo "package: wrote $name.tar.gz ($(stat -c %s "$name.tar.gz") bytes)"
  exit 0
fi

arch=$(dpkg --print-architecture)
root=$work/root
doc=$root/usr/share/doc/hexmask
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$doc" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/lintian/overrides"
install -m 755 "$binary" "$root/usr/bin/hexmask"
gzip -9n <"$work/hexmask.1" >"$root/usr/share/man/man1/hexmask.1.gz"
install -m 644 "$work/hexmask.bash" "$root/usr/share/bash-completion/completions/hexmask"
install -m 644 "$work/_hexmask" "$root/usr/share/zsh/vendor-completions/_hexmask"
install -m 644 "$work/hexmask.fish" "$root/usr/share/fish/vendor_completions.d/hexmask.fish"
install -m 644 packaging/copyright "$doc/copyright"
install -m 644 packaging/lintian-overrides "$root/usr/share/lintian/overrides/hexmask"
{
  printf 'hexmask (%s) unstable; urgency=medium\n\n' "$deb_version"
  printf '  * hexmask %s, packaged by make deb from its source tree.\n\n' "$version"
  printf ' -- %s  %s\n' "$maintainer" "$(date -R -u -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.Debian.gz"
chmod 644 "$root/usr/share/man/man1/hexmask.1.gz" "$doc/changelog.Debian.gz"

# Depends from what the binary really links, as dh_shlibdeps finds it: dpkg-shlibdeps reads
# the libraries' shlibs/symbols files and wants a debian/control naming the package.
shlibs=$work/shlibs
mkdir -p "$shlibs/debian"
printf 'Source: hexmask\n\nPackage: hexmask\nArchitecture: any\n' >"$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O --warnings=7 -e"$(realpath "../root/usr/bin/hexmask")" |
  sed -n 's/^shlibs:Depends=//p')
[[ -n $depends ]] || { echo "package: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

(cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/md5sums"
cat >"$root/DEBIAN/control" <<EOF
Package: hexmask
Version: $deb_version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Recommends: opencv-data
Section: graphics
Priority: optional
Description: cut photos into rounded hexagons with an anti-aliased edge
 hexmask cuts a photo into a rounded polygon (a hexagon unless asked for
 another) with an exactly anti-aliased edge and a border, and writes a PNG
 with transparency, a JPEG or a WebP. It is made for avatars and thumbnails:
 one file from a shell, or many from scripts, with several sizes from one
 decode and --shard for spreading a batch over machines.
 .
 It reads JPEG, PNG, WebP, HEIC and AVIF. With opencv-data installed,
 --gravity face centres the crop on the faces it finds.
EOF
chmod 644 "$root/DEBIAN/control"
settle "$root"
file=hexmask_${deb_version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$file" >/dev/null
echo "package: wrote $file ($(stat -c %s "$file") bytes)"
