import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

#if canImport(Glibc)
  import Glibc
#endif

/// The smallest cascade the library reads: one stage of one stump whose threshold no window
/// reaches, so it finds nothing. `mark` changes a number, and so the bytes, to tell two
/// models apart. Lets the discovery rows run where opencv-data is not installed.
func tinyCascadeXML(mark: Int = 0) -> String {
  """
  <?xml version="1.0"?>
  <opencv_storage>
  <cascade type_id="opencv-cascade-classifier"><stageType>BOOST</stageType>
    <featureType>HAAR</featureType>
    <height>20</height>
    <width>20</width>
    <featureParams><maxCatCount>0</maxCatCount></featureParams>
    <stages>
      <_>
        <stageThreshold>1.0e9</stageThreshold>
        <weakClassifiers>
          <_>
            <internalNodes>0 -1 0 \(mark).5</internalNodes>
            <leafValues>-1. 1.</leafValues></_></weakClassifiers></_></stages>
    <features>
      <_>
        <rects>
          <_>0 0 4 4 -1.</_>
          <_>0 0 2 2 4.</_></rects></_></features></cascade>
  </opencv_storage>

  """
}

/// The model of the tiny cascades, as the loader should build it.
func tinyModel(mark: Int = 0, petMark: Int? = nil) throws -> HexMask.FaceModel {
  try HexMask.FaceModel(
    faceCascades: [Array(tinyCascadeXML(mark: mark).utf8)],
    petCascades: petMark.map { [Array(tinyCascadeXML(mark: $0).utf8)] } ?? [])
}

/// Where `--gravity face` finds its model (``loadFaceModel(variable:folders:)``), with
/// made-up share folders standing for the installed ones.
@Suite struct FaceModelDiscoveryTests {
  /// Writes `text` to `folder/name`, making `folder`.
  func put(_ text: String, _ folder: String, _ name: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try text.write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
  }

  /// The error `body` throws, or nil.
  func error(_ body: () throws(CommandError) -> LoadedFaceModel) -> CommandError? {
    do throws(CommandError) {
      _ = try body()
      return nil
    } catch {
      return error
    }
  }

  @Test func noFolderHoldingTheCascadeIsAUsageErrorSayingWhatToInstall() throws {
    try withTemporaryFolder { url in
      let root = url.path
      try put(tinyCascadeXML(), root + "/a", "haarcascade_frontalface_default.xml")
      let failure = error { () throws(CommandError) in
        try loadFaceModel(variable: nil, folders: [root + "/a", root + "/missing"])
      }
      #expect(failure == .noFaceModel)
      #expect(failure?.exitStatus == 2)
      let report = failure?.report ?? ""
      #expect(report.split(separator: "\n").count == 1, "\(report)")
      for words in ["apt install opencv-data", "brew install opencv", "HEXMASK_FACE_MODEL"] {
        #expect(report.contains(words), "\(report)")
      }
    }
  }

  @Test func theFirstFolderHoldingTheCascadeIsTakenWithThePetCascadeBesideIt() throws {
    try withTemporaryFolder { url in
      let root = url.path
      // The first folder has no cascade; the second has both; the third is never read.
      try put(tinyCascadeXML(mark: 9), root + "/a", "haarcascade_frontalcatface.xml")
      try put(tinyCascadeXML(mark: 1), root + "/b", faceCascadeName)
      try put(tinyCascadeXML(mark: 2), root + "/b", petCascadeName)
      try put(tinyCascadeXML(mark: 3), root + "/c", faceCascadeName)
      let folders = [root + "/a", root + "/b", root + "/c"]
      let model = try loadFaceModel(variable: nil, folders: folders).model
      #expect(model.identity == (try tinyModel(mark: 1, petMark: 2)).identity)
    }
  }

  @Test func withoutAPetCascadeTheFaceCascadeAloneIsTheModel() throws {
    try withTemporaryFolder { url in
      let root = url.path
      try put(tinyCascadeXML(mark: 1), root + "/b", faceCascadeName)
      let model = try loadFaceModel(variable: nil, folders: [root + "/b"]).model
      #expect(model.identity == (try tinyModel(mark: 1)).identity)
    }
  }

  @Test func theVariableNamesTheModelAloneAndTheFoldersAreNotSearched() throws {
    try withTemporaryFolder { url in
      let root = url.path
      try put(tinyCascadeXML(mark: 1), root + "/b", faceCascadeName)
      try put(tinyCascadeXML(mark: 2), root + "/b", petCascadeName)
      try put(tinyCascadeXML(mark: 5), root + "/mine", "my.xml")
      let model = try loadFaceModel(variable: root + "/mine/my.xml", folders: [root + "/b"]).model
      #expect(model.identity == (try tinyModel(mark: 5)).identity)
      // A variable naming nothing is not a reason to take the installed model.
      let failure = error { () throws(CommandError) in
        try loadFaceModel(variable: root + "/mine/gone.xml", folders: [root + "/b"])
      }
      #expect(
        failure?.report == "hexmask: \(root)/mine/gone.xml: cannot be the face model "
          + "(HEXMASK_FACE_MODEL): cannot open: No such file or directory\n")
    }
  }

  /// The files read are named as read, with the identity of the file behind a link: the
  /// run refuses any output that is one of them.
  @Test func theCascadeFilesReadAreKnownByTheirIdentity() throws {
    try withTemporaryFolder { url in
      let root = url.path
      try put(tinyCascadeXML(mark: 1), root + "/b", faceCascadeName)
      try put(tinyCascadeXML(mark: 2), root + "/b", petCascadeName)
      func key(_ path: String) -> FileIdentity? {
        FileStatus(path: path, following: true)?.identity
      }
      let (face, pet) = (root + "/b/" + faceCascadeName, root + "/b/" + petCascadeName)
      let installed = try loadFaceModel(variable: nil, folders: [root + "/b"]).files
      #expect(installed.map(\.path) == [face, pet])
      #expect(installed.map(\.identity) == [key(face), key(pet)].compactMap { $0 })
      #expect(symlink(face, root + "/link.xml") == 0)
      let named = try loadFaceModel(variable: root + "/link.xml", folders: [root + "/b"]).files
      #expect(named.map(\.path) == [root + "/link.xml"])
      #expect(named.map(\.identity) == [key(face)].compactMap { $0 })
    }
  }

  @Test func anEmptyVariableIsAUsageErrorNotTheInstalledModel() throws {
    try withTemporaryFolder { url in
      let root = url.path
      try put(tinyCascadeXML(), root + "/b", faceCascadeName)
      let failure = error { () throws(CommandError) in
        try loadFaceModel(variable: "", folders: [root + "/b"])
      }
      #expect(
        failure?.report == "hexmask: HEXMASK_FACE_MODEL is set but empty: unset it, or name a "
          + "cascade file\n")
      #expect(failure?.exitStatus == 2)
    }
  }

  /// A damaged installed cascade is reported, naming it, rather than passed over for the
  /// next folder's, which the user did not know would be used.
  @Test(arguments: [faceCascadeName, petCascadeName])
  func aDamagedInstalledCascadeIsNamed(damaged: String) throws {
    try withTemporaryFolder { url in
      let root = url.path
      for name in [faceCascadeName, petCascadeName] {
        try put(name == damaged ? "<opencv_storage>" : tinyCascadeXML(), root + "/a", name)
      }
      try put(tinyCascadeXML(), root + "/b", faceCascadeName)
      let failure = error { () throws(CommandError) in
        try loadFaceModel(variable: nil, folders: [root + "/a", root + "/b"])
      }
      let report = failure?.report ?? ""
      #expect(
        report.hasPrefix(
          "hexmask: \(root)/a/\(damaged): cannot be the face model: not a cascade hexmask can "
            + "use: not XML: "), "\(report)")
      #expect(report.hasSuffix("(HEXMASK_FACE_MODEL can name another cascade file)\n"))
      #expect(failure?.exitStatus == 2)
    }
  }

  /// Each kind of file the variable can name that is no cascade, and the reason given; none
  /// may block (a FIFO is opened without waiting for a writer).
  @Test func whatTheVariableNamesMustBeARegularCascadeFile() throws {
    try withTemporaryFolder { url in
      let root = url.path
      try FileManager.default.createDirectory(
        atPath: root + "/folder", withIntermediateDirectories: true)
      #expect(mkfifo(root + "/fifo", 0o644) == 0)
      try put("", root, "empty.xml")
      try put("not xml at all", root, "text.xml")
      // Sparse: 65 MiB that take no room.
      #expect(FileManager.default.createFile(atPath: root + "/huge.xml", contents: nil))
      #expect(truncate(root + "/huge.xml", 65 << 20) == 0)
      let rows: [(String, String)] = [
        ("/folder", "is a folder, not a cascade file"),
        ("/fifo", "is a FIFO, not a cascade file"),
        ("/empty.xml", "is empty, not a cascade file"),
        ("/text.xml", "not a cascade hexmask can use: not XML: no root element at byte 0"),
        ("/huge.xml", "is larger than 64 MiB, which no cascade file is"),
        ("/dev/null", "is a character device, not a cascade file"),
      ]
      for (name, reason) in rows {
        let path = name.hasPrefix("/dev") ? name : root + name
        let failure = error { () throws(CommandError) in
          try loadFaceModel(variable: path, folders: [])
        }
        #expect(
          failure?.report
            == "hexmask: \(path): cannot be the face model (HEXMASK_FACE_MODEL): \(reason)\n")
      }
    }
  }

  /// A path whose bytes are not UTF-8 reaches the system as those bytes.
  @Test func aVariableNamingAFileInLatin1IsRead() throws {
    try withTemporaryFolder { url in
      let root = url.path
      let name = root + "/f" + String(fileNameBytes: [0xEA]) + "te.xml"
      let descriptor = name.withFileName { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
      #expect(descriptor >= 0)
      let bytes = Array(tinyCascadeXML(mark: 4).utf8)
      #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
      close(descriptor)
      let model = try loadFaceModel(variable: name, folders: []).model
      #expect(model.identity == (try tinyModel(mark: 4)).identity)
    }
  }
}
