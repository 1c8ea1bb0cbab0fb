// hexmask-value-sweep — run by ValueSweepTests, not shipped. Sets every numeric
// public field of HexMask.Shape, Output and Input, and the size arguments, to non-finite,
// negative, zero, boundary, huge and Int.max values, one at a time, and calls every public
// entry point with it. It runs as a child process so that a trap ends this process, not the
// test runner: the test checks the exit status and the lines.
//
// One line per call, its first three fields printed (and flushed) before the call, so a
// crash shows which call it was:
//   <entry> TAB <field> TAB <value> TAB <outcome>
// outcome: `ok <bytes or side>`, `invalid <field the error names>` or `error <description>`.
// Last line: `calls <N>`.

import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One field set to one value.
struct Case {
  var field: String
  var value: String
  var shape = HexMask.Shape()
  var output = HexMask.Output()
  var input = HexMask.Input()
}

let integers = [
  Int.min, -1, 0, 1, 2, 9, 10, 64, 65, 100, 101, 1024, 1025, 65_500, 65_501, 1 << 31, Int.max,
]
let doubles = [
  Double.nan, -.infinity, .infinity, -.greatestFiniteMagnitude, -1, -0.0, 0, 0.5, 1, 100,
  1e300, .greatestFiniteMagnitude,
]

func integerCases(
  _ field: String, _ set: @escaping (inout Case, Int) -> Void
) -> [Case] {
  integers.map { value in
    var item = Case(field: field, value: "\(value)")
    set(&item, value)
    return item
  }
}

func doubleCases(
  _ field: String, unit: String = "", _ set: @escaping (inout Case, Double) -> Void
) -> [Case] {
  doubles.map { value in
    var item = Case(field: field, value: "\(value)\(unit)")
    set(&item, value)
    return item
  }
}

let shapeCases =
  integerCases("Shape.sides") { $0.shape.sides = $1 }
  + doubleCases("Shape.corner", unit: " px") { $0.shape.corner = .pixels($1) }
  + doubleCases("Shape.corner", unit: " %") { $0.shape.corner = .percent($1) }
  + doubleCases("Shape.line", unit: " px") { $0.shape.line = .pixels($1) }
  + doubleCases("Shape.line", unit: " %") { $0.shape.line = .percent($1) }
  + doubleCases("Shape.rotation") { $0.shape.rotation = $1 }
let otherCases =
  integerCases("Output.size") { $0.output.size = $1 }
  + doubleCases("Output.crop.focus.x") { $0.output.crop = .focus(x: $1, y: 0.5) }
  + doubleCases("Output.crop.focus.y") { $0.output.crop = .focus(x: 0.5, y: $1) }
  // With the default crop: a share in range is then `.output(.faceSizeWithoutFaces)`.
  + doubleCases("Output.faceSize") { $0.output.faceSize = $1 }
  + integerCases("Output.JPEG.quality") { $0.output.kind = .jpeg(.init(quality: $1)) }
  + integerCases("Output.WebP.quality") { $0.output.kind = .webp(.init(quality: .lossy($1))) }
  + integerCases("Output.AVIF.quality") { $0.output.kind = .avif(.init(quality: .lossy($1))) }
  + integerCases("Output.AVIF.effort") { $0.output.kind = .avif(.init(effort: $1)) }
  + integerCases("Output.PNG.compression.level") {
    $0.output.kind = .png(.init(compression: HexMask.PNGCompression(filter: .up, level: $1)))
  }
  + integerCases("Output.PNG.palette.colors") {
    $0.output.kind = .png(.init(palette: .init(colors: $1)))
  }
  + integerCases("Output.Mask.compression.level") {
    $0.output.kind = .mask(.init(compression: HexMask.PNGCompression(filter: .up, level: $1)))
  }
  + integerCases("Output.Mask.palette.colors") {
    $0.output.kind = .mask(.init(palette: .init(colors: $1)))
  }
  + integerCases("Output.threads") { $0.output.threads = $1 }
  + integerCases("Input.maxPixels") { $0.input.maxPixels = $1 }
  + integerCases("Input.memoryBudget.limit") {
    $0.input.memoryBudget = HexMask.MemoryBudget(limit: $1)
  }
  // The input is a still: frame 0 renders, any later frame is a decoding error.
  + integerCases("Input.frame") { $0.input.frame = $1 }
  + integerCases("Input.maxFrames") { $0.input.maxFrames = $1 }
let sizeArguments = [Int.min, -1, 0, 1, 65_500, 65_501, Int.max]

/// The canvas of the mask and SVG calls, and of the input picture.
let side = 16
var calls = 0

/// Runs one call and prints its line.
@MainActor func call(
  _ entry: String, _ field: String, _ value: String, _ body: () throws(HexMask.Error) -> Int
) {
  calls += 1
  print("\(entry)\t\(field)\t\(value)\t", terminator: "")
  fflush(nil)
  let outcome: String
  do throws(HexMask.Error) {
    outcome = "ok \(try body())"
  } catch {
    if case .invalidValue(let invalid) = error {
      outcome = "invalid \(invalid.field)"
    } else {
      outcome = "error \(error)"
    }
  }
  print(outcome)
  fflush(nil)
}

/// A file with no name whose descriptor the calls use, emptied or rewound before each.
func scratchFile() -> Int32 {
  guard let file = tmpfile() else {
    print("cannot make a temporary file: \(String(cString: strerror(errno)))")
    exit(2)
  }
  return fileno(file)
}

/// The input: the default mask of a `side` canvas, a gray PNG any decoder path reads.
let source = scratchFile()
let target = scratchFile()
do throws(HexMask.Error) {
  try HexMask.renderMask(side: side, to: source)
} catch {
  print("cannot make the input: \(error)")
  exit(2)
}
let inputSize = Int(lseek(source, 0, SEEK_END))
var photo = [UInt8](repeating: 0, count: inputSize)
_ = pread(source, &photo, inputSize, 0)

/// Rewinds the input and empties the output, so each descriptor call starts alike.
func resetFiles() {
  lseek(source, 0, SEEK_SET)
  ftruncate(target, 0)
  lseek(target, 0, SEEK_SET)
}

for item in shapeCases + otherCases {
  let (shape, output, input) = (item.shape, item.output, item.input)
  call("render(_:)", item.field, item.value) { () throws(HexMask.Error) in
    try HexMask.render(photo, shape: shape, output: output, input: input).bytes.count
  }
  call("render(from:to:)", item.field, item.value) { () throws(HexMask.Error) in
    resetFiles()
    return try HexMask.render(from: source, to: target, shape: shape, output: output, input: input)
      .side
  }
  call("renderMask", item.field, item.value) { () throws(HexMask.Error) in
    resetFiles()
    // Any kind: its values are checked before the kind is.
    return try HexMask.renderMask(
      side: side, to: target, shape: shape, output: output, input: input
    )
    .side
  }
  // The SVG takes only a shape.
  if item.field.hasPrefix("Shape.") {
    call("svg", item.field, item.value) { () throws(HexMask.Error) in
      try HexMask.svg(side: side, shape: shape).utf8.count
    }
  }
}
for size in sizeArguments {
  call("render(_:sizes:)", "sizes[0]", "\(size)") { () throws(HexMask.Error) in
    try HexMask.render(photo, sizes: [size]).count
  }
  call("render(from:toEach:)", "destinations[0].size", "\(size)") { () throws(HexMask.Error) in
    resetFiles()
    return try HexMask.render(from: source, toEach: [(size, target)]).count
  }
  call("renderMask", "side", "\(size)") { () throws(HexMask.Error) in
    resetFiles()
    return try HexMask.renderMask(side: size, to: target).side
  }
  call("svg", "side", "\(size)") { () throws(HexMask.Error) in
    try HexMask.svg(side: size).utf8.count
  }
}
print("calls \(calls)")
