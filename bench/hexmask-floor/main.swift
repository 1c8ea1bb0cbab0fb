// hexmask-floor — a benchmark tool, not part of hexmask: the "floor" `make bench` compares
// hexmask against. It does the part of hexmask's job no tool can skip — decode the
// input and encode the same output pixels with the same PNG writer and settings — and nothing
// else: no shape, coverage, compositing or resizing.
//
//   hexmask-floor [--size N] [--max-pixels N] [--pixels REF.png] INPUT OUTPUT.png
//   hexmask-floor [--size N] [--max-pixels N] [--pixels REFDIR] [-j N] INPUT... --out-dir DIR
//
// With `--pixels`, the rows encoded are hexmask's own output (REF.png, or REFDIR/<name>.png in
// batch mode), decoded into memory before the clock starts; without it, the centred square of
// the decoded picture (opaque, so it encodes differently from hexmask's transparent corners).
// The time from then to the last byte written is printed as `floor-seconds S` on standard
// output; `make bench` reports that, so loading the reference costs the floor nothing.
//
// Mirrors `HexMask.render(from:to:…)` in Sources/HexMask/Pipeline/Render.swift:
// - the decoder is opened as hexmask opens it (`openDecoder(file:maxPixels:targetSide:)`,
//   so with `--size` a large JPEG is shrunk while it is decoded, exactly as in hexmask);
// - every decoded row down to the bottom of the centred square is read, as hexmask reads
//   (with `--size`, the centred N × N pixels of the shrunk picture stand in for the
//   resized square), and the output rows are written in step with them;
// - the rows are written with `floorWriter` below, which must make the PNG writer exactly
//   as Render.swift's `makeWriter` makes it for a PNG (same type, same settings, same ICC
//   profile). `make bench` checks this by comparing the zlib level class and the row
//   filters of both outputs and warns when they differ — update `floorWriter` then.
// - in batch mode, files are spread over `-j` threads, each taking the next file, as
//   hexmask's batch runner does.
//
// Orientation is ignored (the bench's inputs have none).

import Dispatch
import HexMask
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The floor's settings: hexmask's defaults for what it shares with hexmask.
struct FloorOptions: Sendable {
  var size: Int?
  var maxPixels = HexMask.Input.defaultMaxPixels
  var output = HexMask.Output()
}

/// A file that could not be done, and why.
struct FloorError: Error, CustomStringConvertible {
  var file: String
  var reason: String
  var description: String { "\(file): \(reason)" }
}

/// The PNG writer hexmask would use for `side` × `side` RGBA output: keep in step with
/// `makeWriter` in Render.swift.
func floorWriter(file: CFile, side: Int, options: FloorOptions, profile: [UInt8]?)
  throws(ImageError) -> any ImageWriter
{
  try PNGStreamEncoder(
    file: file, width: side, height: side, compression: .default,
    iccProfile: profile, threads: options.output.threads)
}

/// A square image held in memory as RGBA rows.
struct Pixels: Sendable {
  var side: Int
  var bytes: [UInt8]
}

/// Decodes the square PNG at `path` into memory.
func loadPixels(_ path: String) throws(FloorError) -> Pixels {
  guard let file = fopen(path, "rb") else {
    throw FloorError(file: path, reason: "cannot open: \(String(cString: strerror(errno)))")
  }
  defer { fclose(file) }
  do throws(ImageError) {
    let decoder = try openDecoder(file: file, maxPixels: Int.max)
    guard decoder.width == decoder.height else {
      throw ImageError(.unsupported, "not a square image")
    }
    let stride = decoder.width * 4
    var bytes = [UInt8](repeating: 0, count: stride * decoder.height)
    for y in 0..<decoder.height {
      try bytes.withUnsafeMutableBufferPointer { (all) throws(ImageError) in
        try decoder.readRow(
          into: UnsafeMutableBufferPointer(rebasing: all[(y * stride)..<((y + 1) * stride)]))
      }
    }
    return Pixels(side: decoder.width, bytes: bytes)
  } catch {
    throw FloorError(file: path, reason: error.reason)
  }
}

/// Decodes `input` and writes the floor's PNG to `output`: `pixels` when given (they must
/// be as large as the square), else the decoded square itself.
func floorRender(input: String, output: String, options: FloorOptions, pixels: Pixels?)
  throws(FloorError)
{
  guard let source = fopen(input, "rb") else {
    throw FloorError(file: input, reason: "cannot open: \(String(cString: strerror(errno)))")
  }
  defer { fclose(source) }
  guard let destination = fopen(output, "wb") else {
    throw FloorError(file: output, reason: "cannot create: \(String(cString: strerror(errno)))")
  }
  defer { fclose(destination) }
  do throws(ImageError) {
    let decoder = try openDecoder(
      file: source, maxPixels: options.maxPixels, targetSide: options.size)
    let full = CropSquare(imageWidth: decoder.width, imageHeight: decoder.height)
    let side = min(options.size ?? full.side, full.side)
    if let pixels, pixels.side != side {
      throw ImageError(.unsupported, "the reference pixels are \(pixels.side)², not \(side)²")
    }
    let crop = CropSquare(
      left: (decoder.width - side) / 2, top: (decoder.height - side) / 2, side: side)
    let profile = options.output.keepColorProfile ? decoder.metadata.iccProfile : nil
    let writer = try floorWriter(file: destination, side: side, options: options, profile: profile)
    var row = [UInt8](repeating: 0, count: decoder.width * 4)
    // hexmask reads every row down to the bottom of its square (the whole square, even when
    // it then shrinks it): so does the floor. Output rows are written as the square's rows
    // come in, as hexmask's resampler writes them.
    var written = 0
    for y in 0..<(full.top + full.side) {
      try row.withUnsafeMutableBufferPointer { (bytes) throws(ImageError) in
        try decoder.readRow(into: bytes)
      }
      if let pixels {
        let done = y + 1 - full.top
        while written < side && (written + 1) * full.side <= done * side {
          let start = written * side * 4
          try pixels.bytes.withUnsafeBufferPointer { (bytes) throws(ImageError) in
            try writer.writeRow(UnsafeBufferPointer(rebasing: bytes[start..<(start + side * 4)]))
          }
          written += 1
        }
      } else if (crop.top..<(crop.top + side)).contains(y) {
        try row.withUnsafeBufferPointer { (bytes) throws(ImageError) in
          try writer.writeRow(
            UnsafeBufferPointer(rebasing: bytes[(crop.left * 4)..<((crop.left + side) * 4)]))
        }
      }
    }
    try writer.finish()
  } catch {
    throw FloorError(file: input, reason: error.reason)
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
    usage: hexmask-floor [--size N] [--max-pixels N] [--pixels REF.png] INPUT OUTPUT.png
           hexmask-floor [--size N] [--max-pixels N] [--pixels REFDIR] [-j N] INPUT... \\
             --out-dir DIR

    """)
  exit(2)
}

var options = FloorOptions()
var jobs = 2
var outDir: String?
var reference: String?
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
  case "--pixels":
    guard let path = arguments.popFirst() else { usage() }
    reference = path
  case "-h", "--help": usage()
  default: paths.append(argument)
  }
}

/// The output file name for `input` in batch mode, as hexmask names it by default.
func outputName(_ input: String) -> String {
  let file = input.split(separator: "/").last.map(String.init) ?? input
  let stem = file.split(separator: ".", omittingEmptySubsequences: false).dropLast()
  return (stem.isEmpty ? file : stem.joined(separator: ".")) + ".png"
}

/// Prints how long the floor's work took, from `start`.
func report(since start: ContinuousClock.Instant) {
  let elapsed = ContinuousClock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  print("floor-seconds \(seconds)")
}

do {
  if let outDir {
    guard !paths.isEmpty else { usage() }
    var references: [String: Pixels] = [:]
    if let reference {
      for path in paths { references[path] = try loadPixels("\(reference)/\(outputName(path))") }
    }
    let loaded = references
    let start = ContinuousClock.now
    mkdir(outDir, 0o755)
    let (files, settings) = (paths, options)
    let next = Atomic<Int>(0)
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: jobs) { _ in
      while case let index = next.wrappingAdd(1, ordering: .relaxed).oldValue, index < files.count {
        let input = files[index]
        do throws(FloorError) {
          try floorRender(
            input: input, output: "\(outDir)/\(outputName(input))", options: settings,
            pixels: loaded[input])
        } catch {
          failures.withLock { $0.append(error.description) }
        }
      }
    }
    report(since: start)
    let failed = failures.withLock { $0 }
    for failure in failed { printError("hexmask-floor: \(failure)\n") }
    exit(failed.isEmpty ? 0 : 1)
  }
  guard paths.count == 2 else { usage() }
  // One file: hexmask deflates its PNG on --jobs threads; so does the floor.
  options.output.threads = jobs
  let pixels = try reference.map { (path) throws(FloorError) in try loadPixels(path) }
  let start = ContinuousClock.now
  try floorRender(input: paths[0], output: paths[1], options: options, pixels: pixels)
  report(since: start)
} catch {
  printError("hexmask-floor: \(error)\n")
  exit(1)
}
