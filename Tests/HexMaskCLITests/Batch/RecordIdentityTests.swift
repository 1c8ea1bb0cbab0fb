import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A rerun record vouches only for the very file hexmask wrote: a file of the user's put
/// over an output with the same size and modification time (`cp -p`, `rsync -a`,
/// `touch -r`) is not taken for the output, so it is never replaced without `--force`.
@Suite struct RecordIdentityTests {
  @Test(arguments: ["rename", "in place"])
  func aCopyWithTheOutputsSizeAndTimeIsLeftAlone(how: String) throws {
    try withTemporaryFolder { dir in
      let inputs = try photoFolder(in: dir, names: ["a.jpg"])
      let out = dir.appendingPathComponent("out").path
      let first = try runHexMask([inputs.path, "--out-dir", out])
      #expect(first.status == 0, "\(first.standardError)")
      let output = out + "/a.png"
      var info = stat()
      #expect(stat(output, &info) == 0)
      let user = Data(repeating: UInt8(ascii: "U"), count: Int(info.st_size))
      let times = [info.st_atim, info.st_mtim]
      if how == "rename" {
        // `cp -p` to a new name and a move over: another inode.
        let copy = dir.appendingPathComponent("user.png").path
        try user.write(to: URL(fileURLWithPath: copy))
        #expect(utimensat(AT_FDCWD, copy, times, 0) == 0)
        #expect(rename(copy, output) == 0)
      } else {
        // `cp -p` onto the output itself: the same inode, written over, its time set back.
        let handle = try #require(FileHandle(forWritingAtPath: output))
        handle.write(user)
        try handle.close()
        #expect(utimensat(AT_FDCWD, output, times, 0) == 0)
      }
      let rerun = try runHexMask([inputs.path, "--out-dir", out])
      #expect(rerun.status != 0)
      #expect(rerun.standardError.contains("was not made by hexmask"), "\(rerun.standardError)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == user)
      let forced = try runHexMask([inputs.path, "--out-dir", out, "--force"])
      #expect(forced.status == 0, "\(forced.standardError)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: output)) != user)
      // Untouched since, the output is skipped.
      let again = try runHexMask([inputs.path, "--out-dir", out])
      #expect(again.status == 0)
      #expect(again.standardError.contains("0 written, 1 skipped"), "\(again.standardError)")
    }
  }
}
