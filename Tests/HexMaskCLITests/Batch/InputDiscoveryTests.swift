import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

@Suite struct InputDiscoveryTests {
  /// a.jpg, b.png, notes.txt, .hidden.jpg, sub/c.jpg, sub/deeper/d.png, .cache/e.jpg
  func makePhotos(_ dir: String) throws {
    try makeTree(
      dir,
      copies: [
        "photos/a.jpg": photoFixture, "photos/b.png": pngFixture,
        "photos/.hidden.jpg": photoFixture, "photos/sub/c.jpg": photoFixture,
        "photos/sub/deeper/d.png": pngFixture, "photos/.cache/e.jpg": photoFixture,
      ],
      texts: ["photos/notes.txt": "hello"])
  }

  @Test func aFolderGivesItsImagesInNameOrder() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makePhotos(dir)
      let found = findInputs([dir + "/photos"], rules: InputRules())
      #expect(found.map(\.path) == [dir + "/photos/a.jpg", dir + "/photos/b.png"])
      #expect(found.allSatisfy { $0.folder == "" })
    }
  }

  @Test func recursionMirrorsSubfoldersAndSkipsHiddenOnes() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makePhotos(dir)
      let found = findInputs([dir + "/photos/"], rules: InputRules(recursive: true))
      #expect(
        found.map(\.path)
          == ["a.jpg", "b.png", "sub/c.jpg", "sub/deeper/d.png"].map {
            dir + "/photos/" + $0
          })
      #expect(found.map(\.folder) == ["", "", "sub", "sub/deeper"])
    }
  }

  @Test func theOutputFolderIsNeverSearched() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makePhotos(dir)
      try makeTree(dir, copies: ["photos/out/old.png": pngFixture])
      let rules = InputRules(recursive: true, excludedFolder: dir + "/photos/./out")
      let found = findInputs([dir + "/photos"], rules: rules)
      #expect(!found.contains { $0.path.contains("/out/") })
      #expect(found.count == 4)
    }
  }

  @Test func linkedFoldersAreFollowedOnlyWhenAsked() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makePhotos(dir)
      try makeTree(dir, copies: ["elsewhere/f.jpg": photoFixture])
      try FileManager.default.createSymbolicLink(
        atPath: dir + "/photos/link", withDestinationPath: dir + "/elsewhere")
      // A loop back to the top must not recurse for ever.
      try FileManager.default.createSymbolicLink(
        atPath: dir + "/photos/sub/loop", withDestinationPath: dir + "/photos")
      let plain = findInputs([dir + "/photos"], rules: InputRules(recursive: true))
      #expect(!plain.contains { $0.path.hasSuffix("f.jpg") })
      let followed = findInputs(
        [dir + "/photos"], rules: InputRules(recursive: true, followSymlinks: true))
      #expect(followed.contains { $0.path == dir + "/photos/link/f.jpg" && $0.folder == "link" })
      #expect(followed.count == 5)
    }
  }

  @Test func namedFilesAreTakenAsTheyAre() throws {
    let names = ["x.txt", "./a/b.jpg", "/abs/c.jpg", "../up/d.jpg", ".hidden.jpg"]
    let flat = findInputs(names, rules: InputRules())
    #expect(flat.map(\.path) == names)
    #expect(flat.allSatisfy { $0.folder == "" })
    let mirrored = findInputs(names, rules: InputRules(recursive: true))
    #expect(mirrored.map(\.folder) == ["", "a", "abs", nil, ""])
  }

  @Test(.disabled(if: getuid() == 0, "root reads every folder, so none can be made unreadable"))
  func anUnreadableFolderIsAProblemNotACrash() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makePhotos(dir)
      chmod(dir + "/photos/sub", 0)
      defer { chmod(dir + "/photos/sub", 0o755) }
      let found = findInputs([dir + "/photos"], rules: InputRules(recursive: true))
      let problem = try #require(found.first { $0.problem != nil })
      #expect(problem.path == dir + "/photos/sub")
      #expect(problem.problem?.reason.hasPrefix("cannot read the folder") == true)
    }
  }
}
