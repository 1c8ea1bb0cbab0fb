import Foundation
import TestSupport
import Testing

@testable import HexMaskCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct FileStampTests {
  /// The stamp holds the size and the modification time to the nanosecond, read through
  /// `modificationTime` (`st_mtim` on Linux, `st_mtimespec` on Darwin).
  @Test func readsSizeAndModificationTimeToTheNanosecond() throws {
    try withTemporaryFolder { url in
      let folder = url.path
      let path = folder + "/file"
      try Data("12345".utf8).write(to: URL(fileURLWithPath: path))
      let times = [
        timespec(tv_sec: 1_000_000_000, tv_nsec: 0),  // access time
        timespec(tv_sec: 1_000_000_000, tv_nsec: 123_456_789),
      ]
      #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
      var stamp = try #require(FileStamp(path: path))
      var info = stat()
      #expect(stat(path, &info) == 0)
      #expect(stamp.identity?.file == FileIdentity(info))
      #expect(stamp.identity?.changed == FileTime(changeTime(info)))
      stamp.identity = nil
      #expect(stamp == FileStamp(size: 5, seconds: 1_000_000_000, nanoseconds: 123_456_789))
      #expect(FileStamp(path: folder + "/missing") == nil)
    }
  }
}
