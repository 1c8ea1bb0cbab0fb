// Times PNG encoding of already-decoded pixels, so settings can be compared on real
// masked photos without the decoder's time in the figures.
//
//   png-encode-bench [--runs N] [--threads T,…] [--settings S,…] [--gray] IMAGE…
//
// A setting is a
// preset (`fast`, `default`, `small`, `0`…`9`) or `FILTER:LEVEL[:STRATEGY]` with FILTER
// none|sub|up|average|paeth|adaptive and STRATEGY default|filtered|rle. Prints one line
// per image, setting and thread count: the median wall time and the output size.

import Foundation
import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct Image {
  var name: String
  var width: Int
  var height: Int
  var channels: Int
  var pixels: [UInt8]
}

enum Setting {
  case stream(PNGCompression)

  init?(_ text: String) {
    let parts = text.split(separator: ":").map(String.init)
    if parts.count == 1, let preset = PNGCompression(argument: parts[0]) {
      self = .stream(preset)
    } else if (2...3).contains(parts.count), let filter = PNGRowFilter(rawValue: parts[0]),
      let level = Int(parts[1]),
      let strategy = parts.count == 3 ? DeflateStrategy(rawValue: parts[2]) : .default
    {
      self = .stream(PNGCompression(filter: filter, level: level, strategy: strategy))
    } else {
      return nil
    }
  }
}

func fail(_ message: String) -> Never {
  // Unbuffered: the table goes to stdout through print, errors here. write(2), unlike
  // FileHandle.write, does not trap when standard error cannot be written.
  var text = "png-encode-bench: \(message)\n"
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  exit(1)
}

/// The value after `option`, taken from `arguments`; a missing one ends the tool.
func value(of option: String, in arguments: inout ArraySlice<String>) -> String {
  guard let text = arguments.popFirst() else { fail("\(option) needs a value") }
  return text
}

/// Comma-separated whole numbers of at least 1 (counts of runs and threads) after `option`.
func counts(of option: String, in arguments: inout ArraySlice<String>) -> [Int] {
  let texts = value(of: option, in: &arguments).split(separator: ",")
  let numbers = texts.compactMap { Int($0) }.filter { $0 >= 1 }
  guard !texts.isEmpty, numbers.count == texts.count else {
    fail("\(option) takes whole numbers of at least 1")
  }
  return numbers
}

func load(_ path: String, gray: Bool) throws -> Image {
  guard let file = fopen(path, "rb") else { fail("cannot open \(path)") }
  defer { fclose(file) }
  let decoder = try openDecoder(file: file, maxPixels: 1 << 30)
  let (width, height) = (decoder.width, decoder.height)
  let channels = gray ? 1 : 4
  var pixels = [UInt8](repeating: 0, count: width * height * channels)
  var row = [UInt8](repeating: 0, count: width * 4)
  for y in 0..<height {
    try row.withUnsafeMutableBufferPointer { try decoder.readRow(into: $0) }
    for x in 0..<width {
      if gray {
        // The mask output: coverage as gray.
        pixels[y * width + x] = row[x * 4 + 3]
      } else {
        for c in 0..<4 { pixels[(y * width + x) * 4 + c] = row[x * 4 + c] }
      }
    }
  }
  return Image(
    name: URL(fileURLWithPath: path).lastPathComponent, width: width, height: height,
    channels: channels, pixels: pixels)
}

func encode(_ image: Image, _ setting: Setting, threads: Int, to path: String) throws {
  guard let file = fopen(path, "wb") else { fail("cannot create \(path)") }
  defer { fclose(file) }
  let rowBytes = image.width * image.channels
  switch setting {
  case .stream(let compression):
    let encoder = try PNGStreamEncoder(
      file: file, width: image.width, height: image.height, channels: image.channels,
      compression: compression, threads: threads)
    for y in 0..<image.height {
      try image.pixels[y * rowBytes..<(y + 1) * rowBytes].withUnsafeBufferPointer {
        try encoder.writeRow($0)
      }
    }
    try encoder.finish()
  }
}

var arguments = CommandLine.arguments.dropFirst()
var runs = 3
var threadCounts = [1]
var settingNames = ["fast", "default", "small"]
var gray = false
var images: [String] = []
while let argument = arguments.popFirst() {
  switch argument {
  case "--runs":
    let given = counts(of: argument, in: &arguments)
    guard given.count == 1 else { fail("--runs takes one number") }
    runs = given[0]
  case "--threads": threadCounts = counts(of: argument, in: &arguments)
  case "--settings":
    settingNames = value(of: argument, in: &arguments).split(separator: ",").map(String.init)
  case "--gray": gray = true
  default: images.append(argument)
  }
}
let settings = settingNames.map { name in
  guard let setting = Setting(name) else { fail("unknown setting \(name)") }
  return (name, setting)
}
let output = FileManager.default.temporaryDirectory.appendingPathComponent("png-encode-bench.png")
  .path

print("image\tsetting\tthreads\tMB\tseconds")
for path in images {
  // A top-level `try` would trap on an unreadable image: say why instead.
  let image: Image
  do { image = try load(path, gray: gray) } catch { fail("\(path): \(error)") }
  for (name, setting) in settings {
    for threads in threadCounts {
      var times: [Double] = []
      for _ in 0..<runs {
        let start = ContinuousClock.now
        do { try encode(image, setting, threads: threads, to: output) } catch { fail("\(error)") }
        let elapsed = ContinuousClock.now - start
        times.append(
          Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
      }
      let size = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
      let median = times.sorted()[times.count / 2]
      print(
        "\(image.name)\t\(name)\t\(threads)\t\(String(format: "%.2f", Double(size) / 1e6))\t\(String(format: "%.3f", median))"
      )
    }
  }
}
