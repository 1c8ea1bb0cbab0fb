import Foundation
import TestSupport
import Testing

@testable import HexMaskCLI

@Suite(.tags(.endToEnd)) struct CompletionsTests {
  /// What the bash script offers after `words` (the last one is being typed), run in a real
  /// bash in `directory`.
  func bashCompletions(_ words: [String], in directory: URL) throws -> [String] {
    let script = completionScript(for: .bash)
    let quoted = (["hexmask"] + words).map { "'" + $0 + "'" }.joined(separator: " ")
    let driver =
      script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); _hexmask\n"
      + #"printf '%s\n' "${COMPREPLY[@]}""#
    let run = try runProcess(
      URL(fileURLWithPath: "/bin/bash"), ["--norc", "-c", driver], in: directory)
    #expect(run.status == 0, "\(run.standardError)")
    return run.standardOutput.split(separator: "\n").map(String.init).sorted()
  }

  @Test func bashCompletesOptionsValuesAndFiles() throws {
    try withTemporaryFolder { directory in
      try Data().write(to: directory.appendingPathComponent("photo one.jpg"))
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("photos"), withIntermediateDirectories: false)
      #expect(try bashCompletions(["--la"], in: directory) == ["--layout"])
      #expect(try bashCompletions(["-"], in: directory).contains("-r"))
      #expect(try bashCompletions(["--layout", ""], in: directory) == ["centered", "seed"])
      #expect(try bashCompletions(["--format", "w"], in: directory) == ["webp"])
      // With '=' in COMP_WORDBREAKS, bash splits --layout=s into three words.
      #expect(try bashCompletions(["--layout", "=", "s"], in: directory) == ["seed"])
      #expect(try bashCompletions(["--layout=s"], in: directory) == ["--layout=seed"])
      #expect(
        try bashCompletions(["--completions", ""], in: directory) == ["bash", "fish", "zsh"])
      #expect(try bashCompletions(["--sides", ""], in: directory).isEmpty)
      #expect(try bashCompletions(["--out-dir", ""], in: directory) == ["photos"])
      #expect(try bashCompletions(["ph"], in: directory) == ["photo one.jpg", "photos"])
      #expect(
        try bashCompletions(["-j", "4", "ph"], in: directory) == ["photo one.jpg", "photos"])
    }
  }

  @Test(arguments: Shell.allCases)
  func everyOptionIsOffered(shell: Shell) {
    let script = completionScript(for: shell)
    for option in optionTable {
      switch shell {
      case .bash, .zsh: #expect(script.contains(option.longName), "\(option.longName)")
      case .fish: #expect(script.contains("-l \(option.long) "), "\(option.longName)")
      }
    }
  }

  @Test func zshAndFishKnowChoicesFoldersAndShortForms() {
    let zsh = completionScript(for: .zsh)
    #expect(zsh.hasPrefix("#compdef hexmask\n"))
    #expect(zsh.contains(":centered|seed:(centered seed)'"))
    #expect(zsh.contains(":DIR:_files -/'"))
    #expect(zsh.contains("'(-r --recursive)'{-r,--recursive}'["))
    #expect(zsh.contains("'(-j --jobs)'{-j+,--jobs=}'["))
    #expect(zsh.contains("'*:file:_files'"))
    let fish = completionScript(for: .fish)
    #expect(fish.contains("complete -c hexmask -l layout -x -a 'centered seed' -d "))
    #expect(fish.contains("complete -c hexmask -l out-dir -x -a '(__fish_complete_directories)'"))
    #expect(fish.contains("complete -c hexmask -l svg -r -F -d "))
    #expect(fish.contains("complete -c hexmask -s r -l recursive -d "))
  }
}
