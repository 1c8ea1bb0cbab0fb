#!/bin/sh
# Prints hexmask's version: the one place it is written is `hexmaskVersion` in
# Sources/HexMaskCLI/Version.swift, which `--version` and the man page print; the Makefile,
# the .deb and the tarball take it from here. Fails when the line is not found.
cd "$(dirname "$0")/.." || exit 1
version=$(sed -n 's/^let hexmaskVersion = "\([0-9.]*\)"$/\1/p' Sources/HexMaskCLI/Version.swift)
[ -n "$version" ] || { echo "version: no 'let hexmaskVersion = \"…\"' in Sources/HexMaskCLI/Version.swift" >&2; exit 1; }
echo "$version"
