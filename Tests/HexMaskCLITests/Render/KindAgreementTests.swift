import Foundation
import HexMask
import TestSupport
import Testing

/// The library and the command agree on every kind × setting: the library throws
/// (`Output.Choices.kind(for:)`, then the render) exactly where the command exits with 2,
/// for one file and for a batch whose names take the input's extension (checked per file,
/// after the names are made). A JPEG on a translucent background was once refused by the
/// command and written black by the library.
@Suite struct KindAgreementTests {
  /// Each setting as the command line gives it and as the library's choices hold it.
  static let settings: [(arguments: [String], choices: HexMask.Output.Choices)] = {
    func choices(_ change: (inout HexMask.Output.Choices) -> Void) -> HexMask.Output.Choices {
      var choices = HexMask.Output.Choices()
      change(&choices)
      return choices
    }
    return [
      ([], choices { _ in }),
      (["--quality", "80"], choices { $0.quality = 80 }),
      (["--lossless"], choices { $0.lossless = true }),
      (
        ["--lossless", "--quality", "80"],
        choices {
          $0.lossless = true
          $0.quality = 80
        }
      ),
      (["--effort", "2"], choices { $0.effort = 2 }),
      (["--compression", "small"], choices { $0.compression = .small }),
      (["--colors", "16"], choices { $0.colors = 16 }),
      (
        ["--colors", "16", "--dither"],
        choices {
          $0.colors = 16
          $0.dither = true
        }
      ),
      (["--dither"], choices { $0.dither = true }),
      (
        ["--background", "#336699"],
        choices { $0.background = RGBAColor(red: 0x33, green: 0x66, blue: 0x99) }
      ),
      (
        ["--background", "#33669980"],
        choices { $0.background = RGBAColor(red: 0x33, green: 0x66, blue: 0x99, alpha: 0x80) }
      ),
      (
        ["--background", "transparent"],
        choices { $0.background = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
      ),
    ]
  }()

  /// Every kind: the four formats, and a mask in each (a mask is a PNG; in another format
  /// both refuse it).
  static let kinds: [(format: OutputFormat, mask: Bool)] =
    OutputFormat.allCases.map { ($0, false) } + OutputFormat.allCases.map { ($0, true) }

  static let photo = Fixtures.path("pngsuite/basn2c08.png")

  /// Whether the library refuses `choices` for a `format` output of the photo.
  static func libraryRefuses(_ choices: HexMask.Output.Choices, _ format: OutputFormat) throws
    -> Bool
  {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
    do throws(HexMask.Error) {
      var output = HexMask.Output()
      do throws(HexMask.OutputError) {
        output.kind = try choices.kind(for: format).kind
      } catch {
        throw .output(error)
      }
      _ = try HexMask.render(bytes, output: output)
      return false
    } catch {
      guard case .output = error else {
        Issue.record("not an output error: \(error)")
        return true
      }
      return true
    }
  }

  @Test(arguments: kinds)
  func theLibraryThrowsExactlyWhereTheCommandExitsWith2(format: OutputFormat, mask: Bool)
    throws
  {
    try withTemporaryFolder { folderURL in
      let folder = folderURL.path
      // The batch's input has this format's extension (its bytes are sniffed, not named).
      let input = "\(folder)/photo.\(format.fileExtension)"
      try FileManager.default.copyItem(atPath: Self.photo, toPath: input)
      for (index, setting) in Self.settings.enumerated() {
        var choices = setting.choices
        choices.maskOnly = mask
        let refuses = try Self.libraryRefuses(choices, format)
        let flags = setting.arguments + (mask ? ["--mask-only"] : [])
        let one = try runHexMask(
          [Self.photo, "\(folder)/one-\(index).\(format.fileExtension)"] + flags)
        let batch = try runHexMask(
          [input, "--out-dir", "\(folder)/batch-\(index)", "--name", "{name}.{ext}"] + flags)
        for (mode, run) in [("one file", one), ("batch", batch)] {
          #expect(
            run.status == (refuses ? 2 : 0),
            """
            \(mode), \(format) mask \(mask) \(flags): library refuses \(refuses), \
            command \(run.status): \(run.standardError)
            """)
        }
      }
    }
  }

  /// A translucent background is refused by both for JPEG alone, and said in the same
  /// words wherever the command finds it.
  @Test func aTranslucentJPEGBackgroundIsTheSameErrorInBoth() throws {
    let translucent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    var output = HexMask.Output()
    output.kind = .jpeg(.init(background: translucent))
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.photo)))
    #expect(throws: HexMask.Error.output(.backgroundNotOpaque(translucent, format: .jpeg))) {
      try HexMask.render(bytes, output: output)
    }
    try withTemporaryFolder { folderURL in
      let folder = folderURL.path
      let run = try runHexMask([Self.photo, "\(folder)/out.jpg", "--background", "transparent"])
      #expect(run.status == 2)
      #expect(
        run.standardError
          == "hexmask: --background must be opaque for JPEG output, which has no transparency; "
          + "use WebP or PNG to keep it\n")
    }
  }

  /// A mask has no background, so a translucent one is no contradiction for it: a batch
  /// whose names turn out JPEG says the mask is what cannot be JPEG, as one file does
  /// (it once blamed the background, which `--mask-only` ignores).
  @Test func aMaskNamedJPEGBlamesTheMaskNotItsIgnoredBackground() throws {
    try withTemporaryFolder { folderURL in
      let folder = folderURL.path
      let input = "\(folder)/photo.jpg"
      try FileManager.default.copyItem(atPath: Self.photo, toPath: input)
      let run = try runHexMask([
        input, "--out-dir", "\(folder)/out", "--name", "{name}.{ext}", "--mask-only",
        "--background", "#00000080",
      ])
      #expect(run.status == 2)
      #expect(
        run.standardError.hasSuffix(
          "hexmask: --mask-only writes a PNG, and the output name '\(folder)/out/photo.jpg' "
            + "(from --name '{name}.{ext}') is a JPEG name; give --name the .png extension\n"),
        "\(run.standardError)")
    }
  }
}
