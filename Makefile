# hexmask — build, test, install. `make check` is exactly what CI (.ci/run) runs, after
# lint and docs and before slurm-check, deb-check and chromium-check.
#
#   make build                       release build (needs only the C libraries)
#   make test                        the fast lane: every test but the slow ones, optimised
#   make check                       everything: the whole suite optimised, then the library's
#                                    tests unoptimised, so that its bounds checks run
#   make install PREFIX=~/.local     installs the binary, man page and completions
#   make uninstall PREFIX=~/.local   removes exactly those files
#   make demo                        writes out/demo.png from the bundled photo
#   make test SCRATCH=/tmp/hm        builds somewhere other than .build
#   make lint                        swift format lint --strict (CI runs it before the tests)
#   make docs                        API documentation of HexMask with docc, into .build/docs
#                                    (CI runs it too; a docc warning fails it)
#   make man                         rewrites docs/hexmask.1 after a change to the option table
#   make gallery                     regenerates the pictures of README and docs/gallery.md
#   make bench                       hexmask against vips and ImageMagick (bench/results.md);
#                                    the benchmark and its tools live in bench/
#   make bench-deps                  installs the tools make bench compares against
#   make slurm-check                 runs docs/scale-out.md's Slurm recipe on a throwaway one-node
#                                    Slurm cluster (as root; CI runs it after make check)
#   make chromium-check              headless Chromium shows hexmask's AVIFs (lossy, lossless,
#                                    with and without ICC) as hexmask meant them, alpha
#                                    included, lossless JPEG XLs as their PNGs, a Display P3
#                                    avatar converted to sRGB in the colours of the
#                                    kept-profile one, and animated WebP, APNG and JPEG XL
#                                    playing as their GIF does (as root it installs
#                                    chromium; CI runs it last)
#   make deb                         hexmask_VERSION-1_ARCH.deb: static, stripped, man page,
#                                    completions (needs dpkg-dev)
#   make dist                        hexmask-VERSION-linux-ARCH.tar.gz for other distributions
#   make deb-check                   as root: lintian (where installed), dpkg -i, runs it with
#                                    the toolchain hidden, dpkg --purge (CI runs it after
#                                    make check)
#
# The Debian packages each target needs are listed once, in packaging/debian-packages (one
# line per purpose: build, test, slurm-check, deb-check, chromium-check, bench); as root on
# Debian/Ubuntu a target installs its missing ones with apt-get. build, demo, install, docs
# and deb need only the build line; test adds the test line.
#
# The version is written once, in Sources/HexMaskCLI/Version.swift; scripts/version.sh
# reads it for the packages. To release: change it, then `make man`.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
SWIFT ?= swift
SCRATCH ?= .build
INSTALL ?= install
DEMO_INPUT = Fixtures/photos/rocket.jpg
DEMO_OUTPUT = out/demo.png

SWIFT_BUILD = $(SWIFT) build --scratch-path $(SCRATCH)
# The C libraries (pkg-config names), and the Debian packages of each purpose, read from
# packaging/debian-packages (what each line is for is said there).
PKG_MODULES = libpng16 libjpeg libwebp libwebpmux libwebpdemux libheif zlib lcms2
# giflib ships no pkg-config file (Debian's libgif-dev, Homebrew's giflib): its header is
# looked for in the include folders the compiler searches by default.
GIF_HEADER_DIRS = /usr/include /usr/local/include /opt/homebrew/include
have_gif_header = for dir in $(GIF_HEADER_DIRS); do [ -f $$dir/gif_lib.h ] && exit 0; done; exit 1
PACKAGE_LIST = packaging/debian-packages
debian_packages = $(shell sed -n 's/^$(1):[[:space:]]*//p' $(PACKAGE_LIST))
BUILD_PACKAGES := $(call debian_packages,build)
TEST_PACKAGES := $(call debian_packages,test)
BENCH_PACKAGES := $(call debian_packages,bench)
# Where hexmask looks for the face cascade (faceModelFolders in FaceModelFile.swift).
FACE_CASCADES = $(addsuffix /haarcascade_frontalface_alt2.xml,/usr/share/opencv4/haarcascades \
  /usr/local/share/opencv4/haarcascades /opt/homebrew/share/opencv4/haarcascades \
  /usr/share/opencv/haarcascades)
HAS_FACE_CASCADES = ( for f in $(FACE_CASCADES); do [ -f "$$f" ] && exit 0; done; exit 1 )
RELEASE_BIN = $$($(SWIFT_BUILD) -c release --show-bin-path)
DEBUG_BIN = $$($(SWIFT_BUILD) --show-bin-path)
# The man page and completions are printed by the binary being installed, from its option
# table, so they always describe it; docs/hexmask.1 is the same text, kept equal by a test.
GENERATED = $(SCRATCH)/generated

VERSION := $(shell scripts/version.sh)
DEB = hexmask_$(VERSION)-1_$(shell dpkg --print-architecture 2>/dev/null).deb
DIST = hexmask-$(VERSION)-linux-$(shell uname -m).tar.gz
PACKAGE = SWIFT="$(SWIFT)" SCRATCH="$(SCRATCH)" scripts/package.sh

.PHONY: all build test check install uninstall demo clean deps test-deps lint docs man gallery \
  bench bench-deps \
  deb dist deb-check slurm-check chromium-check

all: build

# The C libraries, found through pkg-config: all that build, demo and install need. As root
# on Debian/Ubuntu the build line of the package list is installed; anywhere else the
# message names the packages.
deps:
	@if pkg-config --exists $(PKG_MODULES) 2>/dev/null && ($(have_gif_header)); then \
	  exit 0; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "make: installing $(BUILD_PACKAGES) with apt-get"; \
	  apt-get update && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y $(BUILD_PACKAGES) && \
	  pkg-config --exists $(PKG_MODULES) && ($(have_gif_header)); \
	else \
	  echo "make: hexmask needs $(PKG_MODULES) (found through pkg-config) and giflib's gif_lib.h." >&2; \
	  echo "  Debian/Ubuntu: sudo apt-get install $(BUILD_PACKAGES)" >&2; \
	  echo "  macOS (Homebrew): brew install libpng jpeg-turbo webp libheif zlib little-cms2 giflib pkg-config" >&2; \
	  exit 1; \
	fi

# What the tests run besides hexmask: rsvg-convert, groff and GNU parallel, and OpenCV's
# face cascades. As root on Debian/Ubuntu the test line of the package list is installed.
# The cascades are optional: without them (and no root to install them) a note says that
# the --gravity face tests will be skipped, and the tests go on.
test-deps: deps
	@required=no; \
	if command -v rsvg-convert >/dev/null && command -v groff >/dev/null && \
	  parallel --version </dev/null 2>/dev/null | grep -q '^GNU parallel'; then \
	  required=yes; \
	fi; \
	if [ $$required = yes ] && $(HAS_FACE_CASCADES); then \
	  exit 0; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "make: installing $(TEST_PACKAGES) with apt-get"; \
	  apt-get update && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y $(TEST_PACKAGES); \
	elif [ $$required = yes ]; then \
	  echo "make: no OpenCV face cascades, so the tests of --gravity face are skipped." >&2; \
	  echo "  Debian/Ubuntu: sudo apt-get install opencv-data; macOS (Homebrew): brew install opencv" >&2; \
	else \
	  echo "make: the tests need rsvg-convert, GNU parallel and groff (and opencv-data for --gravity face)." >&2; \
	  echo "  Debian/Ubuntu: sudo apt-get install $(TEST_PACKAGES)" >&2; \
	  echo "  macOS (Homebrew): brew install librsvg parallel groff (and opencv)" >&2; \
	  exit 1; \
	fi

build: deps
	$(SWIFT_BUILD) -c release

# The test lanes. The library is optimised from the command line, not in Package.swift
# (where SwiftPM would refuse it as a dependency by URL): the suite spends its time in the
# pixel loops, and the face detector's SIMD lanes are some 50 times slower unoptimised.
# `-Xswiftc -O` changes every Swift module's flags, so the optimised build has a scratch path
# of its own, $(OPTIMISED), and the two lanes never rebuild each other. Plain $(SCRATCH) is
# the unoptimised debug build that slurm-check, chromium-check and man use too.
# `make test` leaves out the suites marked slow (HEXMASK_LANE=fast; see
# Tests/TestSupport/Tags.swift). `make check` runs them all, with the shared corpus when
# CORPUS names it, then the library's own tests (HexMaskTests) unoptimised, where the
# bounds checks of unsafe buffers run; their slow ones (the vectorized cascade scan and the
# accuracy sweeps) run optimised only.
OPTIMISED = $(SCRATCH)/optimised
SWIFT_TEST_OPTIMISED = $(SWIFT) test --scratch-path $(OPTIMISED) -Xswiftc -O
# The shared corpus beside the checkout, when it is there; CORPUS= leaves it out.
CORPUS ?= $(wildcard ../shared/corpus)

test: test-deps
	HEXMASK_LANE=fast $(SWIFT_TEST_OPTIMISED)

check: test-deps
	HEXMASK_CORPUS="$(CORPUS)" $(SWIFT_TEST_OPTIMISED)
	HEXMASK_LANE=fast $(SWIFT) test --scratch-path $(SCRATCH) --filter HexMaskTests

install: build
	bin="$(RELEASE_BIN)/hexmask" && mkdir -p "$(GENERATED)" && \
	  "$$bin" --man > "$(GENERATED)/hexmask.1" && \
	  "$$bin" --completions bash > "$(GENERATED)/hexmask.bash" && \
	  "$$bin" --completions zsh > "$(GENERATED)/_hexmask" && \
	  "$$bin" --completions fish > "$(GENERATED)/hexmask.fish" && \
	  $(INSTALL) -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)" && \
	  $(INSTALL) -m 755 "$$bin" "$(BINDIR)/hexmask"
	$(INSTALL) -m 644 "$(GENERATED)/hexmask.1" "$(MANDIR)/hexmask.1"
	$(INSTALL) -m 644 "$(GENERATED)/hexmask.bash" "$(BASHDIR)/hexmask"
	$(INSTALL) -m 644 "$(GENERATED)/_hexmask" "$(ZSHDIR)/_hexmask"
	$(INSTALL) -m 644 "$(GENERATED)/hexmask.fish" "$(FISHDIR)/hexmask.fish"

uninstall:
	rm -f "$(BINDIR)/hexmask" "$(MANDIR)/hexmask.1" "$(BASHDIR)/hexmask" \
	  "$(ZSHDIR)/_hexmask" "$(FISHDIR)/hexmask.fish"

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests

# API documentation, from the `///` comments and Sources/HexMask/HexMask.docc,
# with the toolchain's own docc (no package plugin). The HexMask target is built on its own
# scratch path, $(DOCS_BUILD), with the compiler writing its symbol graphs to
# $(SYMBOL_GRAPHS); its flags differ from the normal build's, so sharing $(SCRATCH) would
# make `make test` and `make docs` recompile HexMask each time the other ran. docc turns
# the graphs into a static site in $(DOCS_OUTPUT); every warning is an error. To read it:
#   cd .build/docs && python3 -m http.server   # then http://localhost:8000/documentation/hexmask
# (or `docc preview` with the same arguments, which serves on port 8080 and rebuilds when the
# catalog changes).
# When HexMask is up to date the build writes no graphs, so the last ones are kept; after a
# recompile, any graph older than this run (say, of an extension since removed) is deleted.
DOCC ?= $(or $(shell command -v docc 2>/dev/null),$(dir $(shell command -v $(SWIFT) 2>/dev/null))docc)
DOCS_BUILD = $(SCRATCH)/docs-build
SYMBOL_GRAPHS = $(SCRATCH)/symbol-graphs
DOCS_OUTPUT = $(SCRATCH)/docs
DOCS_CATALOG = Sources/HexMask/HexMask.docc

docs: deps
	@test -f "$(SYMBOL_GRAPHS)/HexMask.symbols.json" || rm -rf "$(DOCS_BUILD)"
	mkdir -p "$(SYMBOL_GRAPHS)" && touch "$(SYMBOL_GRAPHS)/.started"
	$(SWIFT) build --scratch-path "$(DOCS_BUILD)" --target HexMask \
	  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir \
	  -Xswiftc "$(abspath $(SYMBOL_GRAPHS))"
	@if [ "$(SYMBOL_GRAPHS)/HexMask.symbols.json" -nt "$(SYMBOL_GRAPHS)/.started" ]; then \
	  find "$(SYMBOL_GRAPHS)" -name '*.symbols.json' ! -newer "$(SYMBOL_GRAPHS)/.started" -delete; \
	fi
	"$(DOCC)" convert "$(DOCS_CATALOG)" --additional-symbol-graph-dir "$(SYMBOL_GRAPHS)" \
	  --output-path "$(DOCS_OUTPUT)" --fallback-display-name HexMask \
	  --fallback-bundle-identifier hexmask.HexMask --warnings-as-errors
	@echo "make: wrote $(DOCS_OUTPUT); to read it: cd $(DOCS_OUTPUT) && python3 -m http.server," \
	  "then open http://localhost:8000/documentation/hexmask"

man:
	$(SWIFT_BUILD)
	"$(DEBUG_BIN)/hexmask" --man > docs/hexmask.1

gallery: build
	scripts/gallery.sh "$(RELEASE_BIN)/hexmask"

demo: build
	@test -f $(DEMO_INPUT) || { echo "make: $(DEMO_INPUT) is missing" >&2; exit 1; }
	mkdir -p out
	"$(RELEASE_BIN)/hexmask" $(DEMO_INPUT) $(DEMO_OUTPUT)
	@echo "wrote $(DEMO_OUTPUT)"

# The benchmark (docs/performance.md): builds release (hexmask and the hexmask-floor tool of
# bench/hexmask-floor) and runs bench/run.py, which makes its inputs under $(SCRATCH)/bench, times hexmask and
# whichever of vips/pyvips and ImageMagick are installed, and writes bench/results.md.
# Takes several minutes. BENCH_ARGS passes options, e.g. BENCH_ARGS='--jobs a,b --runs 5';
# CORPUS names the corpus whose photos make the inputs (as for check).
BENCH_ARGS ?=

bench: build
	HEXMASK_CORPUS="$(CORPUS)" python3 bench/run.py --bin "$(RELEASE_BIN)" --work "$(SCRATCH)/bench" \
	  $(BENCH_ARGS)

bench-deps:
	@if command -v vips >/dev/null && command -v convert >/dev/null && [ -x /usr/bin/time ] && \
	  command -v heif-enc >/dev/null && \
	  python3 -c 'import pyvips' 2>/dev/null; then \
	  exit 0; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "make: installing $(BENCH_PACKAGES) with apt-get, and pyvips with pip"; \
	  apt-get update && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y $(BENCH_PACKAGES) && \
	  { pip install pyvips || pip install --break-system-packages pyvips; }; \
	else \
	  echo "make: make bench compares against libvips and ImageMagick when installed:" >&2; \
	  echo "  Debian/Ubuntu: sudo apt-get install $(BENCH_PACKAGES) && pip install pyvips" >&2; \
	  echo "  macOS (Homebrew): brew install vips imagemagick hyperfine jpeg-turbo && pip install pyvips" >&2; \
	fi

# The "Slurm array" recipe of docs/scale-out.md, submitted with `sbatch --wait` to a single-node cluster
# that scripts/slurm-check.sh starts in a temporary folder (munged, slurmctld and slurmd,
# no systemd, no cgroups) and removes afterwards; the result must equal one plain run. As
# root it installs Debian's slurmctld, slurmd, slurm-client and munge when missing. It uses
# the debug hexmask, which `make check` has already built.
slurm-check: deps
	$(SWIFT_BUILD) --product hexmask
	scripts/slurm-check.sh "$(DEBUG_BIN)/hexmask"

# Chromium renders hexmask's AVIFs as <img> on a coloured page, compared with
# libheif's decode of the same files and hexmask's --background output, and plays its
# animated WebP and APNG of a GIF (scripts/chromium-check.sh). It uses the debug hexmask, which `make check` has built.
chromium-check: deps
	$(SWIFT_BUILD) --product hexmask
	scripts/chromium-check.sh "$(DEBUG_BIN)/hexmask"

# Packages for people without Swift. Both build release with the Swift runtime
# linked in (--static-swift-stdlib), strip it, and take the man page and completions from
# it; see scripts/package.sh. The .deb's Depends come from dpkg-shlibdeps.
deb: deps
	$(PACKAGE) deb

dist: deps
	$(PACKAGE) dist

# Installs the .deb on this machine and removes it again: root only (scripts/deb-check.sh).
deb-check: deb
	scripts/deb-check.sh "$(DEB)"

clean:
	rm -rf "$(SCRATCH)" out "$(DEB)" "$(DIST)"
