import HexMask

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The environment variable that names the face cascade `--gravity face` uses instead of
/// the installed ones.
let faceModelVariable = "HEXMASK_FACE_MODEL"

/// Where OpenCV's cascades are installed, searched in this order when `HEXMASK_FACE_MODEL`
/// is not set, each with who puts them there, for the manual page.
let faceModelPlaces: [(folder: String, origin: String)] = [
  ("/usr/share/opencv4/haarcascades", "Debian's and Ubuntu's opencv-data."),
  ("/usr/local/share/opencv4/haarcascades", "An OpenCV built and installed by hand."),
  ("/opt/homebrew/share/opencv4/haarcascades", "Homebrew's opencv on Apple silicon."),
  ("/usr/share/opencv/haarcascades", "Older distributions' OpenCV 3 packages."),
]

/// The folders of ``faceModelPlaces``, in the order they are searched.
let faceModelFolders = faceModelPlaces.map(\.folder)

/// The frontal-face cascade a folder must hold to be the model.
let faceCascadeName = "haarcascade_frontalface_alt2.xml"

/// The pet cascade taken from the same folder when it is there: tried only where no human
/// face is found.
let petCascadeName = "haarcascade_frontalcatface.xml"

/// The largest cascade file read. OpenCV's largest is under 3 MB; a file far beyond that is
/// a mistake (a video named by accident), and reading it whole would only waste memory.
let maximumCascadeBytes = 64 << 20

/// A cascade file the face model was read from: its name and the file it was when read
/// (device and inode), which no output of the run may replace, being an input too.
struct CascadeFile: Equatable, Sendable {
  var path: String
  var identity: FileIdentity
}

/// The face model of `--gravity face` and the cascade files it was read from.
struct LoadedFaceModel: Sendable {
  var model: HexMask.FaceModel
  /// The face cascade, then the pet cascade when one was read.
  var files: [CascadeFile]
}

/// The face model of `--gravity face`: the cascade `variable` names (the value of
/// `HEXMASK_FACE_MODEL`, nil when unset), alone; otherwise the frontal-face cascade of the
/// first of `folders` that holds one, with the pet cascade beside it when there is one.
/// A run reads it once, before any file, and every worker shares it (it is immutable).
///
/// A variable that names something unusable is an error, not a reason to use the installed
/// model instead: the user asked for that file, and a silent fallback would crop with
/// another model than the one they think.
///
/// ```swift
/// let loaded = try loadFaceModel()  // /usr/share/opencv4/haarcascades/… on Debian
/// loaded.files.map(\.path)          // the cascades read, which no output may replace
/// ```
///
/// - Throws: `.noFaceModel` when nothing names a model and no folder holds one;
///   `.unusableFaceModel` naming the file and why it cannot be read as a cascade.
func loadFaceModel(
  variable: String? = environmentValue(faceModelVariable), folders: [String] = faceModelFolders
) throws(CommandError) -> LoadedFaceModel {
  if let path = variable {
    return try faceModel(faces: try readCascade(path, fromVariable: true), pets: nil)
  }
  guard let folder = folders.first(where: { exists($0 + "/" + faceCascadeName) }) else {
    throw .noFaceModel
  }
  let facePath = folder + "/" + faceCascadeName
  let petPath = folder + "/" + petCascadeName
  let faces = try readCascade(facePath, fromVariable: false)
  let pets = try exists(petPath) ? readCascade(petPath, fromVariable: false) : nil
  return try faceModel(faces: faces, pets: pets)
}

/// A cascade file as read: its name, bytes and identity, and whether `HEXMASK_FACE_MODEL`
/// named it (for the messages).
private struct Cascade {
  var file: CascadeFile
  var bytes: [UInt8]
  var fromVariable: Bool
}

/// The model of these cascades' bytes; an error names the file the library refused.
private func faceModel(faces: Cascade, pets: Cascade?) throws(CommandError) -> LoadedFaceModel {
  do throws(HexMask.FaceModelError) {
    let model = try HexMask.FaceModel(
      faceCascades: [faces.bytes], petCascades: pets.map { [$0.bytes] } ?? [])
    return LoadedFaceModel(model: model, files: [faces.file] + (pets.map { [$0.file] } ?? []))
  } catch {
    // The face cascade is number 0, the pet cascade number 1.
    let path = error.cascade == 0 ? faces.file.path : pets?.file.path ?? faces.file.path
    throw .unusableFaceModel(
      FileFailure(file: path, reason: "not a cascade hexmask can use: \(error.reason)"),
      fromVariable: faces.fromVariable)
  }
}

/// The cascade file `path`, which must be a regular file of 1 byte to
/// `maximumCascadeBytes`. Opening never blocks (a FIFO would wait for a writer forever):
/// the open is non-blocking and `fstat` checks what was opened before anything is read,
/// and gives the identity of the very file read.
private func readCascade(_ path: String, fromVariable: Bool) throws(CommandError) -> Cascade {
  func refuse(_ reason: String) -> CommandError {
    .unusableFaceModel(FileFailure(file: path, reason: reason), fromVariable: fromVariable)
  }
  // An empty name names no file; the message says so instead of "No such file".
  guard !path.isEmpty else { throw refuse("no file name") }
  let descriptor = path.withFileName { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
  guard descriptor >= 0 else { throw refuse("cannot open: \(systemError())") }
  defer { close(descriptor) }
  var info = stat()
  guard fstat(descriptor, &info) == 0 else { throw refuse("cannot read: \(systemError())") }
  let kind = info.st_mode & S_IFMT
  if kind == S_IFDIR { throw refuse("is a folder, not a cascade file") }
  if let special = FileStatus.specialKind(kind) {
    throw refuse("is \(special), not a cascade file")
  }
  let tooLarge = "is larger than \(maximumCascadeBytes >> 20) MiB, which no cascade file is"
  guard info.st_size <= maximumCascadeBytes else { throw refuse(tooLarge) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    guard count >= 0 else { throw refuse("cannot read: \(systemError())") }
    if count == 0 { break }
    bytes += chunk[..<count]
    // The size was checked, but a file may grow while it is read.
    guard bytes.count <= maximumCascadeBytes else { throw refuse(tooLarge) }
  }
  guard !bytes.isEmpty else { throw refuse("is empty, not a cascade file") }
  return Cascade(
    file: CascadeFile(path: path, identity: FileIdentity(info)), bytes: bytes,
    fromVariable: fromVariable)
}

/// True when `path` names something (a dangling link does not): a folder holds a model
/// when it holds the file, whatever that turns out to be, so a damaged one is reported
/// rather than passed over for the next folder.
private func exists(_ path: String) -> Bool {
  var info = stat()
  return path.withFileName { stat($0, &info) } == 0
}

/// The value of the environment variable `name`, its bytes kept as a file name's are; nil
/// when it is not set.
func environmentValue(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(fileNameBytes: UnsafeRawBufferPointer(start: value, count: strlen(value)))
}
