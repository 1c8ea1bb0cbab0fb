#!/usr/bin/env bash
# `make deb-check`: proves the .deb on this machine, as root. Where lintian is
# installed, runs it (no error, no warning that packaging/lintian-overrides does not
# justify). Installs the .deb with dpkg -i, then runs the installed /usr/bin/hexmask with
# the Swift toolchain made invisible (a tmpfs over its folder in a mount namespace of its
# own, and an empty environment): it must link no libswift*, render the demo photo into a
# valid PNG, show its man page with man, and register its bash completion. Last it purges
# the package and checks that nothing dpkg listed for it is left. Refuses to run where
# hexmask is installed already, so that it never removes a package it did not install.
#
#   scripts/deb-check.sh hexmask_VERSION-1_ARCH.deb
set -euo pipefail
cd "$(dirname "$0")/.."

deb=${1:?usage: $0 hexmask_VERSION-1_ARCH.deb}
version=$(scripts/version.sh)
fail() { echo "deb-check: $*" >&2; exit 1; }
step() { printf '\n==> deb-check: %s\n' "$*"; }

[[ $(id -u) == 0 ]] || fail "needs root: it installs and removes the package with dpkg"
for tool in man unshare; do
  command -v "$tool" >/dev/null || fail "needs $tool (Debian: man-db, util-linux)"
done
if dpkg-query -W -f '${Status}' hexmask 2>/dev/null | grep -q ' installed$'; then
  fail "hexmask is installed already; remove it first (this check installs and removes it)"
fi

# Informational tags are shown (-I) but only errors and warnings fail, as the issue asks.
# Only where lintian is installed: CI leaves it out, as installing it (124 packages) takes
# about 50 s, and CI should stay quick.
if command -v lintian >/dev/null; then
  step "lintian $deb"
  status=0
  report=$(lintian -I --fail-on error,warning "$deb" 2>&1) || status=$?
  grep -v '^running with root privileges' <<<"$report" || true
  ((status == 0)) || fail "lintian found errors or warnings (above)"
else
  step "lintian is not installed: not run (apt-get install lintian to run it here)"
fi

step "dpkg -i $deb"
work=$(mktemp -d)
installed=no
cleanup() {
  [[ $installed == yes ]] && dpkg --purge hexmask >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
dpkg -i "$deb"
installed=yes
dpkg -L hexmask >"$work/listed"
[[ $(/usr/bin/hexmask --version) == "hexmask $version" ]] || fail "installed --version is not $version"

# The toolchain's folder: /opt/swift for /opt/swift/usr/bin/swift.
toolchain=
if swift_path=$(command -v swift 2>/dev/null); then
  toolchain=$(dirname "$(dirname "$(dirname "$(realpath "$swift_path")")")")
fi
case $toolchain in
  "" | / | /usr | /usr/local) toolchain= ;;  # nothing of its own to hide
esac

step "ldd /usr/bin/hexmask: no libswift*"
ldd /usr/bin/hexmask
if readelf -d /usr/bin/hexmask | grep -E 'RPATH|RUNPATH'; then
  fail "/usr/bin/hexmask has a RUNPATH or RPATH: it would load libraries lying beside it"
fi
if ldd /usr/bin/hexmask | grep -E 'libswift|libFoundation|libdispatch|not found'; then
  fail "the installed hexmask needs a library it should not (listed above)"
fi

step "the installed hexmask with ${toolchain:-no} toolchain hidden"
cp Fixtures/photos/rocket.jpg "$work/rocket.jpg"
chmod 755 "$work"
# In the namespace: the toolchain's folder is an empty tmpfs, the environment is empty, and
# the steps below run with the installed files only.
unshare --mount --propagation private env -i PATH=/usr/bin:/bin TOOLCHAIN="$toolchain" \
  WORK="$work" VERSION="$version" bash -euo pipefail -c '
  if [[ -n $TOOLCHAIN ]]; then
    mount -t tmpfs -o ro,size=1m none "$TOOLCHAIN"
    [[ -z $(ls -A "$TOOLCHAIN") ]] || { echo "deb-check: $TOOLCHAIN still shows" >&2; exit 1; }
    echo "$TOOLCHAIN is now an empty tmpfs"
  fi
  if command -v swift >/dev/null; then echo "deb-check: swift is still on PATH" >&2; exit 1; fi
  [[ $(hexmask --version) == "hexmask $VERSION" ]]
  hexmask "$WORK/rocket.jpg" "$WORK/demo.png"
  # A PNG: the signature, an IHDR first, an IEND last; and hexmask decodes it again.
  [[ $(head -c 16 "$WORK/demo.png" | od -An -tx1 | tr -d " \n") == 89504e470d0a1a0a0000000d49484452 ]]
  [[ $(tail -c 12 "$WORK/demo.png" | od -An -tx1 | tr -d " \n") == 0000000049454e44ae426082 ]]
  hexmask "$WORK/demo.png" "$WORK/again.png" --size 64
  echo "rendered demo.png ($(stat -c %s "$WORK/demo.png") bytes), a PNG hexmask reads back"
  if [[ -f /usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml ]]; then
    hexmask "$WORK/rocket.jpg" "$WORK/face.png" --gravity face
    echo "rendered with --gravity face (the face model of opencv-data, the Recommends)"
  fi
  man -P cat hexmask 2>/dev/null | grep -q "hexmask $VERSION"
  echo "man hexmask shows the manual of hexmask $VERSION"
  completion=$(bash -c "source /usr/share/bash-completion/completions/hexmask && complete -p hexmask")
  [[ $completion == *" hexmask" ]]
  echo "bash completion: $completion"
' || fail "the installed hexmask failed with the toolchain hidden (see above)"

step "dpkg --purge hexmask"
dpkg --purge hexmask
installed=no
if dpkg-query -W hexmask >/dev/null 2>&1; then fail "dpkg still knows hexmask"; fi
left=()
while IFS= read -r path; do
  [[ $path != /. ]] || continue
  [[ -e $path || -L $path ]] || continue
  # A folder other packages own too (/usr/bin, /usr/share/man/man1…) stays, rightly.
  if [[ -d $path && ! -L $path ]] && dpkg-query -S "$path" >/dev/null 2>&1; then continue; fi
  left+=("$path")
done <"$work/listed"
((${#left[@]} == 0)) || fail "left behind after purge: ${left[*]}"
echo "deb-check: none of the $(wc -l <"$work/listed") paths dpkg listed is left; passed"
