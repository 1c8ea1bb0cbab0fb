import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

/// A folder argument that is the output folder itself, however it is spelled.
@Suite struct ExcludedFolderTests {
  @Test func theOutputFolderNamedAsAnInputIsFound() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makeTree(dir, copies: ["nest/sub/a.jpg": photoFixture, "nest/b.jpg": photoFixture])
      let rules = InputRules(excludedFolder: dir + "/nest/sub")
      #expect(excludedFolder(among: [dir + "/nest/sub"], rules: rules) == dir + "/nest/sub")
      let otherSpelling = dir + "/nest/./sub/../sub/"
      #expect(
        excludedFolder(among: [dir + "/nest/b.jpg", otherSpelling], rules: rules) == otherSpelling
      )
    }
  }

  @Test func aParentOrAFileInsideIsNotTheOutputFolder() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makeTree(dir, copies: ["nest/sub/a.jpg": photoFixture])
      let rules = InputRules(recursive: true, excludedFolder: dir + "/nest/sub")
      #expect(excludedFolder(among: [dir + "/nest", dir + "/nest/sub/a.jpg"], rules: rules) == nil)
    }
  }

  @Test func aMissingOutputFolderExcludesNothing() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makeTree(dir, copies: ["photos/a.jpg": photoFixture])
      let rules = InputRules(excludedFolder: dir + "/out")
      #expect(excludedFolder(among: [dir + "/photos", dir + "/out"], rules: rules) == nil)
      #expect(excludedFolder(among: [dir + "/photos"], rules: InputRules()) == nil)
    }
  }
}
