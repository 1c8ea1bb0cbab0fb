import Foundation
import Testing

/// Every kind of file a user can name, in every role a file plays: one expected
/// outcome per cell, checked through the built binary by the hostile-user harness (exit
/// status, first line of standard error, no temporary files left, no other file changed).
///
/// Roles (the command each cell runs, `X` being the file of the cell's kind):
///
/// | role    | command                                      |
/// |---------|----------------------------------------------|
/// | input   | `hexmask X o.png`                            |
/// | output  | `hexmask in.jpg X`                           |
/// | svg     | `hexmask in.jpg o.png --svg X`               |
/// | list    | `hexmask --files-from X --out-dir o`         |
/// | folder  | `hexmask X --out-dir o` (a folder argument, or any file named in a batch) |
/// | entry   | `hexmask d --out-dir o --verbose`, X inside d beside a picture |
/// | outDir  | `hexmask in.jpg --out-dir X`                 |
///
/// The outcomes, by kind (W works, U usage error exit 2, F one-line file failure exit 1,
/// S skipped with a word under --verbose, – cannot happen):
///
/// | kind                     | input | output | svg | list | folder | entry | outDir |
/// |--------------------------|-------|--------|-----|------|--------|-------|--------|
/// | regular file             | W     | W      | W   | W    | W      | W     | F      |
/// | symbolic link            | W     | W      | W   | W    | W      | W     | W      |
/// | dangling link            | F     | W      | W   | F    | F      | S     | F      |
/// | link loop                | F     | F      | F   | F    | F      | S     | F      |
/// | hard link of another role| U     | U      | U   | F    | S      | S     | U      |
/// | FIFO                     | W     | W      | W   | W    | W      | S     | F      |
/// | socket                   | F     | F      | F   | F    | F      | S     | F      |
/// | /dev/null                | F     | W      | W   | W    | F      | S     | F      |
/// | /dev/full                | F     | F      | F   | F    | F      | S     | F      |
/// | folder                   | F     | U      | U   | F    | W      | W     | W      |
/// | `-`                      | W     | W      | W   | W    | U      | W     | W      |
/// | /dev/std*, /dev/fd: pipe | W     | W      | W   | W    | W      | –     | F      |
/// | /dev/std*, /dev/fd: file | W     | W      | W   | W    | W      | –     | F      |
/// | /dev/std*: terminal      | U     | U      | W   | W    | F      | –     | F      |
/// | name not UTF-8           | W     | W      | W   | W    | W      | W     | W      |
/// | name with a newline      | W     | W      | W   | W    | W      | W     | W      |
/// | name with a leading dash | W     | W      | W   | W    | W      | W     | W      |
/// | unreadable               | F     | W      | W   | F    | F      | F     | F      |
/// | unwritable               | W     | F      | F   | W    | W      | W     | F      |
/// | read-only file system    | W     | F      | F   | W    | W      | W     | F      |
/// | same file, other spelling| U     | U      | U   | W    | U      | W     | U      |
///
/// Notes on the cells: a dangling link as OUTPUT is written through, as `>` does; a hard
/// link among batch inputs is the same file found twice and made once; `-` as an entry is a
/// file named `-`; a terminal as `--files-from -` is names typed by hand; `/dev/std*` as an
/// entry cannot happen (those names live in `/dev` and `/proc`, and a link to one in a folder
/// is the FIFO, file or device it leads to); "unreadable" as OUTPUT is a write-only file
/// (0200), which can be replaced; permissions are tried as `nobody` when the tests run as
/// root, since root may read and write anything.
@Suite(.tags(.slow, .endToEnd), .outsideTheFastLane) struct FileMatrixTests {
  @Test func everyCellHasExactlyOneOutcome() {
    var seen: [String: Int] = [:]
    for cell in Self.cells { seen["\(cell.kind) × \(cell.role)", default: 0] += 1 }
    for kind in FileKind.allCases {
      for role in FileRole.allCases {
        #expect(seen["\(kind) × \(role)"] == 1, "\(kind) × \(role)")
      }
    }
    #expect(Self.cells.count == FileKind.allCases.count * FileRole.allCases.count)
  }

  @Test(arguments: cells.filter { !$0.isImpossible })
  func cell(_ cell: FileCell) throws {
    try runHostileCase(cell.hostileCase)
  }
}

enum FileRole: String, CaseIterable, Sendable {
  case input, output, svg, list, folder, entry, outDir
}

enum FileKind: String, CaseIterable, Sendable {
  case regular, symlink, dangling, loop, hardLink, fifo, socket, devNull, devFull, folder
  case dash, descriptorPipe, descriptorFile, terminal, notUTF8, newline, leadingDash
  case unreadable, unwritable, readOnlyFileSystem, sameFile
}

/// What a cell's command must do.
enum FileOutcome: Sendable, Equatable {
  /// Exit 0; the row's check holds.
  case works
  /// Exit 2, the first line names the mistake.
  case usageError(String)
  /// Exit 1, the first line names the file and the reason.
  case fileFailure(String)
  /// Exit 0; the entry is not made, and `--verbose` names it.
  case skipped(String)
  /// The combination cannot be made; the reason says why.
  case impossible(String)

  var isSkip: Bool { if case .skipped = self { true } else { false } }
}

/// One cell of the matrix: its kind and role, the outcome, and how to try it.
struct FileCell: Sendable, CustomTestStringConvertible {
  var kind: FileKind
  var role: FileRole
  var outcome: FileOutcome
  var setup = ""
  /// The command; empty means the role's command with `name` as X.
  var command = ""
  /// X, as the shell should spell it.
  var name = ""
  var check = "true"
  var changes: [String] = []
  /// For `.works`: a first line of standard error that is expected (a note), else none.
  var note: String?

  var testDescription: String { "\(kind) as \(role)" }
  var isImpossible: Bool { if case .impossible = outcome { true } else { false } }

  /// The role's command with `name` for X.
  private var roleCommand: String {
    switch role {
    case .input: "hexmask \(name) o.png"
    case .output: "hexmask in.jpg \(name)"
    case .svg: "hexmask in.jpg o.png --svg \(name)"
    case .list: "hexmask --files-from \(name) --out-dir o"
    case .folder: "hexmask \(name) --out-dir o"
    case .entry:
      "mkdir -p d && cp in.jpg d/a.jpg && hexmask d --out-dir o"
        + (outcome.isSkip ? " --verbose" : "")
    case .outDir: "hexmask in.jpg --out-dir \(name)"
    }
  }

  var hostileCase: HostileCase {
    let status: Int32
    let firstError: String?
    switch outcome {
    case .works: (status, firstError) = (0, note)
    case .usageError(let line): (status, firstError) = (2, line)
    case .fileFailure(let line): (status, firstError) = (1, line)
    case .skipped(let line): (status, firstError) = (0, line)
    case .impossible: (status, firstError) = (0, nil)
    }
    // A terminal's cells run hexmask under script(1): its messages reach tty.txt, not the
    // harness's standard error.
    var command = command.isEmpty ? roleCommand : command
    // A batch that works ends with a summary; -q keeps standard error for the unexpected.
    if outcome == .works && note == nil && [.list, .folder, .entry, .outDir].contains(role) {
      for word in ["hexmask ", "as_user "] {
        if let range = command.range(of: word) {
          command.replaceSubrange(range, with: word + "-q ")
          break
        }
      }
    }
    guard kind == .terminal else {
      return HostileCase(
        title: testDescription, setup: setup, command: command,
        status: status, firstError: firstError, check: check, changes: changes)
    }
    let onTerminal = firstError.map { "grep -qF '\($0.trimmingCharacters(in: ["…"]))' tty.txt" }
    return HostileCase(
      title: testDescription, setup: setup, command: command, status: status, firstError: nil,
      check: [check, onTerminal ?? "true"].joined(separator: " && "), changes: changes)
  }
}

extension FileMatrixTests {
  /// `bad` spelled by the shell: a name whose bytes are not UTF-8 (Latin-1 "fête").
  static let latin1 = "\"$(printf 'f\\352te')\""
  /// A name holding a line break.
  static let newline = "\"$(printf 'a\\nb')\""

  static let cells: [FileCell] =
    regularCells + linkCells + specialCells + deviceCells + folderCells + streamCells
    + nameCells + permissionCells + sameFileCells
}
