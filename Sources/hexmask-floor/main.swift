// hexmask-floor — a benchmark tool, not part of hexmask: the "floor" `make bench` compares
// hexmask against (issue 6). It does the part of hexmask's job no tool can skip — decode the
// input and encode an output of the same size with the same PNG writer and settings — and
// nothing else: no shape, coverage, compositing or resizing.
//
//   hexmask-floor [--size N] [--max-pixels N] INPUT OUTPUT.png
//   hexmask-floor [--size N] [--max-pixels N] [-j N] INPUT... --out-dir DIR
//
// Mirrors `render(input:output:options:)` in Sources/HexMask/Pipeline/Render.swift:
// - the decoder is opened as hexmask opens it (`openDecoder(file:maxPixels:targetSide:)`,
//   so with `--size` a large JPEG is shrunk while it is decoded, exactly as in hexmask);
// - the centred square of the decoded picture is cropped (full size: the square hexmask
//   shows; with `--size`: the centred N × N pixels of the shrunk picture, standing in for
//   the resized square) and every decoded row up to its bottom is read, as hexmask reads;
// - the rows are written with `floorWriter` below, which must make the PNG writer exactly
//   as Render.swift's `makeWriter` makes it for a PNG (same type, same settings, same ICC
//   profile). `make bench` checks this by comparing the zlib level class and the row
//   filters of both outputs and warns when they differ — update `floorWriter` then.
// - in batch mode, files are spread over threads by the library's own `renderBatch`.
//
// Orientation is ignored (the bench's inputs have none). Output bytes differ from
// hexmask's, since the pixels differ (no transparent corners, no resampling).

import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The PNG writer hexmask would use for `side` × `side` RGBA output: keep in step with
/// `makeWriter` in Render.swift.
func floorWriter(file: CFile, side: Int, options: RenderOptions, profile: [UInt8]?)
  throws(ImageError) -> any ImageWriter
{
  try PNGWriter(file: file, width: side, height: side, iccProfile: profile)
}

/// Decodes `input` and writes the floor's PNG to `output`.
func floorRender(input: String, output: String, options: RenderOptions) throws(HexMaskError)
  -> RenderReport
{
  guard let source = fopen(input, "rb") else {
    throw HexMaskError(file: input, reason: "cannot open: \(String(cString: strerror(errno)))")
  }
  defer { fclose(source) }
  guard let destination = fopen(output, "wb") else {
    throw HexMaskError(file: output, reason: "cannot create: \(String(cString: strerror(errno)))")
  }
  defer { fclose(destination) }
  do throws(ImageError) {
    let decoder = try openDecoder(
      file: source, maxPixels: options.maxPixels, targetSide: options.size)
    let full = CropSquare(imageWidth: decoder.width, imageHeight: decoder.height)
    let side = min(options.size ?? full.side, full.side)
    let crop = CropSquare(
      left: (decoder.width - side) / 2, top: (decoder.height - side) / 2, side: side)
    let profile = options.keepColorProfile ? decoder.metadata.iccProfile : nil
    let writer = try floorWriter(file: destination, side: side, options: options, profile: profile)
    var row = [UInt8](repeating: 0, count: decoder.width * 4)
    for y in 0..<(crop.top + side) {
      try row.withUnsafeMutableBufferPointer { (bytes) throws(ImageError) in
        try decoder.readRow(into: bytes)
      }
      if y >= crop.top {
        try row.withUnsafeBufferPointer { (bytes) throws(ImageError) in
          try writer.writeRow(
            UnsafeBufferPointer(rebasing: bytes[(crop.left * 4)..<((crop.left + side) * 4)]))
        }
      }
    }
    try writer.finish()
    return RenderReport(side: side, warnings: decoder.warnings + writer.warnings)
  } catch {
    throw HexMaskError(file: input, reason: error.reason)
  }
}

/// Writes `text` to standard error.
func printError(_ text: String) {
  var text = text
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func usage() -> Never {
  printError(
    """
    usage: hexmask-floor [--size N] [--max-pixels N] INPUT OUTPUT.png
           hexmask-floor [--size N] [--max-pixels N] [-j N] INPUT... --out-dir DIR

    """)
  exit(2)
}

var options = RenderOptions()
var jobs = 2
var outDir: String?
var paths: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  func value() -> Int {
    guard let text = arguments.popFirst(), let number = Int(text), number > 0 else { usage() }
    return number
  }
  switch argument {
  case "--size": options.size = value()
  case "--max-pixels": options.maxPixels = value()
  case "-j", "--jobs": jobs = value()
  case "--out-dir":
    guard let dir = arguments.popFirst() else { usage() }
    outDir = dir
  case "-h", "--help": usage()
  default: paths.append(argument)
  }
}

if let outDir {
  guard !paths.isEmpty else { usage() }
  mkdir(outDir, 0o755)
  let items = paths.map { path in
    let file = path.split(separator: "/").last.map(String.init) ?? path
    let stem = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(
      separator: ".")
    return BatchItem(input: path, output: "\(outDir)/\(stem.isEmpty ? file : stem).png")
  }
  let results = renderBatch(
    items, options: options, jobs: jobs, overwrite: true,
    renderer: { input, output, options throws(HexMaskError) in
      try floorRender(input: input, output: output, options: options)
    })
  var failed = false
  for case let result? in results where result.status == .failed {
    printError("hexmask-floor: \(result.error.map { $0.description } ?? result.item.input)\n")
    failed = true
  }
  exit(failed ? 1 : 0)
}
guard paths.count == 2 else { usage() }
do {
  _ = try floorRender(input: paths[0], output: paths[1], options: options)
} catch {
  printError("hexmask-floor: \(error)\n")
  exit(1)
}
