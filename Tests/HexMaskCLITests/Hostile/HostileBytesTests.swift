import Foundation
import HexMask
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The seeded mutation sweep of `HostileInputTests` through the library's bytes API: the same
/// seeds, the same generator seed and mutations, in memory. Every result is the output's
/// bytes or a typed `HexMask.Error` with a one-line reason, and it is exactly what the
/// streaming API over file descriptors (the command's way in) gives for the same file.
@Suite(.tags(.slow, .endToEnd), .outsideTheFastLane) struct HostileBytesTests {
  /// An output file's bytes, or why there is none.
  typealias Rendered = Result<[UInt8], HexMask.Error>

  /// The reason a person reads, for any stage.
  static func reason(_ error: HexMask.Error) -> String {
    switch error {
    case .decoding(let error), .encoding(let error): error.reason
    case .shape(let error): "\(error)"
    case .output(let error): "\(error)"
    case .warningInStrictMode(let warning): warning.description
    case .invalidValue(let value): value.description
    }
  }

  /// A result in a few words: the output's size, or the error.
  static func summary(_ result: Rendered) -> String {
    switch result {
    case .success(let bytes): "\(bytes.count) bytes"
    case .failure(let error): "\(error)"
    }
  }

  /// `bytes` rendered with the defaults through a file and the descriptor API, as the command
  /// does with `hexmask in out.png`.
  static func renderThroughDescriptors(_ bytes: [UInt8], in folder: URL) throws -> Rendered {
    let inputURL = folder.appendingPathComponent("in")
    let outputURL = folder.appendingPathComponent("out.png")
    try Data(bytes).write(to: inputURL)
    let source = open(inputURL.path, O_RDONLY)
    let destination = open(outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer {
      if source >= 0 { close(source) }
      if destination >= 0 { close(destination) }
    }
    guard source >= 0, destination >= 0 else {
      throw ProcessRunError(description: "cannot open \(folder.path)/in or out.png")
    }
    do throws(HexMask.Error) {
      try HexMask.render(from: source, to: destination)
    } catch {
      return .failure(error)
    }
    return .success(try [UInt8](Data(contentsOf: outputURL)))
  }

  /// Thousands of seeded mutations through `HexMask.render(_ bytes:).bytes`, in process: a crash
  /// takes the test run down, so it cannot go unnoticed.
  @Test func mutatedBytesNeverCrashAndMatchTheDescriptorAPI() throws {
    var random = SplitMix64(seed: 0x6865_786D_6173_6B)  // as mutatedFilesNeverCrashOrLeaveFiles
    var tried = 0
    var written = 0
    var strictRefused = 0
    try withTemporaryFolder { (folder: URL) throws in
      for seedFile in HostileInputTests.seeds {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path(seedFile))))
        for round in 0..<300 {
          let mutation = Mutation.allCases[round % Mutation.allCases.count]
          let bytes = mutation.apply(to: original, using: &random)
          let name = "\(seedFile) \(mutation) round \(round)"

          let inMemory = Result(catching: { () throws(HexMask.Error) -> [UInt8] in
            try HexMask.render(bytes).bytes
          })
          switch inMemory {
          case .success(let output):
            written += 1
            #expect(output.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name): not a PNG")
          case .failure(let error):
            let reason = Self.reason(error)
            #expect(!reason.isEmpty && !reason.contains("\n"), "\(name): \(error)")
          }

          // The same file through descriptors: the same bytes, or the same error.
          let throughFiles = try Self.renderThroughDescriptors(bytes, in: folder)
          let same = inMemory == throughFiles
          #expect(
            same,
            """
            \(name): in memory \(Self.summary(inMemory)), \
            through descriptors \(Self.summary(throughFiles))
            """)

          // Every fourth one in strict mode too, which reads every row of the input.
          if round % 4 == 0 {
            var input = HexMask.Input()
            input.strict = true
            do throws(HexMask.Error) {
              _ = try HexMask.render(bytes, input: input).bytes
            } catch {
              strictRefused += 1
              let reason = Self.reason(error)
              #expect(!reason.isEmpty && !reason.contains("\n"), "\(name), strict: \(error)")
            }
          }
          tried += 1
        }
      }
    }
    print(
      """
      bytes mutation sweep: \(tried) tried, \(written) rendered, \(tried - written) refused \
      (\(strictRefused) of \(tried / 4) in strict mode), 0 crashes
      """)
    #expect(tried == HostileInputTests.seeds.count * 300)
  }
}
