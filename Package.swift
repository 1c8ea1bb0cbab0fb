// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

let package = Package(
  name: "hexmask",
  products: [
    .library(name: "HexMask", targets: ["HexMask"]),
    .executable(name: "hexmask", targets: ["hexmask"]),
  ],
  targets: [
    // System libraries, imported through module maps.
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng16",
      providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
    .systemLibrary(
      name: "CJPEG", pkgConfig: "libjpeg",
      providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]),
    // libwebp and libwebpmux (for the ICC chunk); both come with these packages.
    .systemLibrary(
      name: "CWebP", pkgConfig: "libwebp",
      providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
    // libheif (HEIC/HEIF and AVIF, with its HEVC and AV1 plug-ins) reports errors as
    // return values, never longjmp.
    .systemLibrary(
      name: "CHeif", pkgConfig: "libheif",
      providers: [.apt(["libheif-dev"]), .brew(["libheif"])]),
    // zlib reports errors as return codes (no longjmp), so Swift calls it directly.
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    // Little CMS 2 (ICC colour transforms, for converting to sRGB) reports errors through
    // return values and a per-context log handler, never longjmp.
    .systemLibrary(
      name: "CLCMS2", pkgConfig: "lcms2",
      providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
    // libjxl (JPEG XL, still and animated, read and written) reports errors as return
    // values, never longjmp. Its pkg-config file adds a define SwiftPM refuses (and the C
    // API does not need), so the module map names the library itself.
    .systemLibrary(
      name: "CJXL",
      providers: [.apt(["libjxl-dev"]), .brew(["jpeg-xl"])]),
    // giflib (GIF, still and animated) reports errors as return codes, never longjmp. It
    // has no pkg-config file on Debian, so the module map names the library itself.
    .systemLibrary(
      name: "CGIF",
      providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
    // The only C code: each libpng/libjpeg call that may longjmp runs inside a setjmp
    // region owned by a function of this target, so no longjmp ever crosses a Swift frame.
    .target(name: "CImageShims", dependencies: ["CPNG", "CJPEG"]),
    // Named temporary files that SIGINT/SIGTERM must not leave behind, and Linux's unnamed
    // ones (O_TMPFILE, linkat), which Swift cannot reach without _GNU_SOURCE.
    .target(name: "CFileShims"),
    // All image work: decode → crop → shape → coverage → composite → encode. libwebp and
    // zlib never longjmp, so they are called from Swift directly. No unsafe flags, so that
    // other packages can depend on this one by URL; `make test` optimises it from the
    // command line instead (see the Makefile).
    .target(
      name: "HexMask", dependencies: [
        "CImageShims", "CWebP", "CZlib", "CHeif", "CLCMS2", "CGIF", "CJXL",
      ]),
    // Arguments → job description → exit status; files, batches and reruns.
    .target(name: "HexMaskCLI", dependencies: ["HexMask", "CFileShims"]),
    .executableTarget(name: "hexmask", dependencies: ["HexMaskCLI"]),
    // The benchmark tools, at home in bench/ with the rest of the benchmark. Not products;
    // not installed; no test runs them.
    // Times PNG encoder settings on decoded photos (docs/performance.md, PNG encoding presets).
    .executableTarget(
      name: "png-encode-bench", dependencies: ["HexMask"], path: "bench/png-encode-bench"),
    // For `make bench`: decode + encode only, the "floor" hexmask is measured against (see
    // its main.swift).
    .executableTarget(
      name: "hexmask-floor", dependencies: ["HexMask"], path: "bench/hexmask-floor"),
    // Run by ValueSweepTests: every public field at its extreme values through every entry
    // point, in a process of its own so that a trap fails the test instead of ending it.
    // Not a product; not installed.
    .executableTarget(name: "hexmask-value-sweep", dependencies: ["HexMask"]),
    // Runs one face cascade over pictures and prints the boxes, for comparing the evaluator
    // with OpenCV's (scripts/opencv_faces.py, FaceAgreementTests). Not a product; not installed.
    .executableTarget(name: "hexmask-faces", dependencies: ["HexMask"]),
    // Runs a program and prints its peak memory, for tests that bound it (MemoryBombTests).
    // Not a product; not installed.
    .executableTarget(name: "hexmask-peak"),
    // What both test targets share: the package root and fixtures, temporary folders, the
    // seeded generator, and running a child process. Foundation only.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "HexMaskTests", dependencies: ["HexMask", "CWebP", "CZlib", "TestSupport"]),
    .testTarget(
      name: "HexMaskCLITests",
      dependencies: [
        "HexMaskCLI", "HexMask", "hexmask", "hexmask-value-sweep", "hexmask-faces", "hexmask-peak",
        "TestSupport", "CGIF",
      ]),
  ]
)
