// hexmask-faces CASCADE.xml PICTURE…: runs one cascade over each picture at its full
// upright size, as OpenCV's detectMultiScale(gray, 1.1, 3) would, and prints one JSON line
// per picture. The agreement test and scripts/opencv_faces.py compare these boxes with
// OpenCV's own. Not a product; not installed.
//
// hexmask-faces --crop CASCADE.xml[,PET.xml] PICTURE…: the faces the crop itself finds
// (`--gravity face`'s look and detector), in upright input pixels, one JSON line per
// picture: what scripts measure the crop's detection rate with.
import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A line on standard error (descriptor 2: the C `stderr` global is not concurrency-safe).
func complain(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

var arguments = CommandLine.arguments.dropFirst()
let cropMode = arguments.first == "--crop"
if cropMode { arguments = arguments.dropFirst() }
guard arguments.count >= 2, let cascadePath = arguments.first else {
  complain("usage: hexmask-faces CASCADE.xml PICTURE...")
  exit(2)
}

func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = fread(&chunk, 1, chunk.count, file)
    if count == 0 { return ferror(file) == 0 ? bytes : nil }
    bytes += chunk[..<count]
  }
}

/// Opens each of `paths` and calls `body` with it; complains about each that fails. True
/// when every one succeeded.
func forEachPicture(
  _ paths: ArraySlice<String>,
  _ body: (String, UnsafeMutablePointer<FILE>) throws(ImageError) -> Void
) -> Bool {
  var failed = false
  for path in paths {
    guard let file = fopen(path, "rb") else {
      complain("hexmask-faces: cannot open \(path)")
      failed = true
      continue
    }
    defer { fclose(file) }
    do throws(ImageError) {
      try body(path, file)
    } catch {
      complain("hexmask-faces: \(path): \(error.reason)")
      failed = true
    }
  }
  return !failed
}

if cropMode {
  let paths = cascadePath.split(separator: ",").map(String.init)
  let model: HexMask.FaceModel
  do {
    let bytes = paths.compactMap(readFile)
    guard !bytes.isEmpty, bytes.count == paths.count else {
      complain("hexmask-faces: cannot read \(cascadePath)")
      exit(1)
    }
    model = try HexMask.FaceModel(
      faceCascades: [bytes[0]], petCascades: Array(bytes.dropFirst()))
  } catch {
    complain("hexmask-faces: \(cascadePath): \(error)")
    exit(1)
  }
  let succeeded = forEachPicture(arguments.dropFirst()) { path, file throws(ImageError) in
    let started = now()
    let look = try Look(file: file, maxPixels: 1 << 28, autoOrient: true, memory: nil)
    let looked = now()
    let found = model.faces(in: look.picture)
    let detected = now()
    let faces = found.map { face in
      look.inInput(PixelBox(x: face.x, y: face.y, width: face.width, height: face.height))
    }
    let list = faces.map { "[\($0.x),\($0.y),\($0.width),\($0.height)]" }
      .joined(separator: ",")
    print(
      "{\"file\":\"\(path)\",\"width\":\(look.width),\"height\":\(look.height),"
        + "\"faces\":[\(list)],\"lookMs\":\(looked - started),"
        + "\"detectMs\":\(detected - looked)}")
  }
  exit(succeeded ? 0 : 1)
}

guard let xml = readFile(cascadePath) else {
  complain("hexmask-faces: cannot read \(cascadePath)")
  exit(1)
}
let cascade: Cascade
do {
  cascade = try Cascade(xml: xml)
} catch {
  complain("hexmask-faces: \(cascadePath): \(error.reason)")
  exit(1)
}

/// Milliseconds of this thread's CPU time (what a look costs, whatever else runs).
func now() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

let succeeded = forEachPicture(arguments.dropFirst()) { path, file throws(ImageError) in
  let stored = try openDecoder(file: file, maxPixels: 1 << 28, need: nil)
  let orientation = stored.metadata.exif.map(Orientation.fromExif) ?? .up
  let upright = openOriented(stored, orientation: orientation)
  let picture = try SmallPicture(averaging: upright, longSide: Int.max)
  let gray = GrayPicture(width: picture.width, height: picture.height, pixels: picture.gray)
  let boxes = cascade.detect(in: gray)
  let sum = gray.pixels.reduce(0) { $0 + Int($1) }
  let list = boxes.map { "[\($0.x),\($0.y),\($0.width),\($0.height)]" }.joined(separator: ",")
  let name = path.split(separator: "/").last.map(String.init) ?? path
  print(
    "{\"file\":\"\(name)\",\"width\":\(gray.width),\"height\":\(gray.height),"
      + "\"graySum\":\(sum),\"faces\":[\(list)]}")
}
exit(succeeded ? 0 : 1)
