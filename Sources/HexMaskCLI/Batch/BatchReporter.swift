import HexMask
import Synchronization

/// Tells the user and scripts how a batch goes, from any worker thread.
///
/// Per-file lines (`--json` on standard output; errors, warnings and `--verbose` lines on
/// standard error) come in input order. On a terminal a progress line is redrawn on standard
/// error and cleared before any other line, so it never garbles them. `finish()` prints the
/// summary. Names are printed through `displayName`, and every line on standard error but the
/// progress line goes through `say`, which escapes control characters, so no file name can
/// break a line or forge one.
///
/// ```swift
/// let reporter = BatchReporter(total: items.count, settings: job.batch, console: .system)
/// _ = renderBatch(items, options: options, jobs: 4, onResult: reporter.record)
/// reporter.finish(items)
/// ```
final class BatchReporter: Sendable {
  private let total: Int
  private let verbosity: Verbosity
  private let json: Bool
  private let console: Console
  private let showsProgress: Bool
  private let start = ContinuousClock.now
  private let state = Mutex(State())

  private struct State {
    var written = 0
    var skipped = 0
    var failed = 0
    /// Failed items whose earlier output is still there (``BatchResult/keptOutput``).
    var kept = 0
    /// The next result to print, in input order, and those finished ahead of it.
    var nextToPrint = 0
    var waiting: [Int: BatchResult] = [:]
    var progressShown = false
    var lastDrawn: ContinuousClock.Instant?
    /// The input whose sizes were reported last, and what was said about it: the sizes of
    /// one input share its decode, so one failure or warning is said once, not per size.
    var lastInput = ""
    var saidForLastInput: Set<String> = []
    var warnedForLastInput: Set<FileWarning> = []

    var done: Int { written + skipped + failed }
  }

  init(total: Int, settings: BatchSettings, console: Console) {
    self.total = total
    verbosity = settings.verbosity
    json = settings.json
    self.console = console
    showsProgress = console.errorIsTerminal && settings.verbosity != .quiet
  }

  /// Counts a finished file, prints what is due in input order, and redraws the progress line.
  @Sendable func record(_ index: Int, _ result: BatchResult) {
    state.withLock { state in
      switch result.status {
      case .written: state.written += 1
      case .skipped: state.skipped += 1
      case .failed: state.failed += 1
      }
      if result.keptOutput { state.kept += 1 }
      state.waiting[index] = result
      while let next = state.waiting.removeValue(forKey: state.nextToPrint) {
        report(next, &state)
        state.nextToPrint += 1
      }
      drawProgress(&state)
    }
  }

  /// Prints the results still waiting behind files that never started (a stop), and for
  /// `--json` a row for each of those, `"status":"not started"`, all in input order, so every
  /// one of `items` has its row; then the summary.
  func finish(_ items: [BatchItem]) {
    state.withLock { state in
      for index in state.nextToPrint..<max(state.nextToPrint, items.count) {
        if let result = state.waiting.removeValue(forKey: index) {
          report(result, &state)
        } else if json {
          if console.outputIsTerminal { clearProgress(&state) }
          console.standardOutput(
            jsonLine(BatchResult(item: items[index], status: .failed), status: "not started"))
        }
      }
      for index in state.waiting.keys.sorted() {
        if let result = state.waiting.removeValue(forKey: index) { report(result, &state) }
      }
      clearProgress(&state)
      guard verbosity != .quiet else { return }
      let seconds = elapsed
      var summary =
        "hexmask: \(state.written) written, \(state.skipped) skipped, \(state.failed) failed"
      if state.kept > 0 {
        // A failed rerun leaves the output of the run before; the summary must not let a
        // folder that no longer matches the command pass for one that does.
        summary += " (\(state.kept) earlier output\(state.kept == 1 ? "" : "s") kept)"
      }
      if state.done < total { summary += ", \(total - state.done) not started" }
      summary += " in \(duration(seconds))"
      if seconds > 0 && state.done > 0 {
        summary += " (\(oneDecimal(Double(state.done) / seconds)) files/s)"
      }
      say([summary])
    }
  }

  /// `--dry-run`: prints each input and the output it would write (and whether it would be
  /// skipped as up to date, or rebuilt and why), and returns how many outputs would fail:
  /// inputs that cannot be rendered, and outputs the run would refuse to replace, each with
  /// the run's error.
  func listPlan(_ items: [BatchItem], options: RenderSettings, force: Bool) -> Int {
    var failed = 0
    // Lines are written in blocks: one write per line is most of a large plan's time.
    var pending = ""
    func emit(_ line: String) {
      pending += line
      if pending.utf8.count >= 1 << 16 {
        console.standardOutput(pending)
        pending = ""
      }
    }
    defer { if !pending.isEmpty { console.standardOutput(pending) } }
    let recipes = Recipe.bySize(of: items, options: options)
    for item in items {
      var result = BatchResult(item: item, status: .written, error: item.problem)
      if item.problem == nil {
        result.reason = recipes[item.size].flatMap {
          rerunReason(for: item, recipe: $0, force: force)
        }
        // An output the run would refuse to replace fails here as it would there.
        if let reason = result.reason {
          result.error = replacementFailure(for: item, reason: reason, force: force)
        }
      }
      if let error = result.error {
        failed += 1
        result.status = .failed
        result.reason = nil
        say(["hexmask: \(error.displayed)"])
      }
      if json {
        let status =
          result.status == .failed ? "failed" : result.reason == nil ? "skipped" : "planned"
        emit(jsonLine(result, status: status))
      } else if result.status != .failed {
        let note =
          switch result.reason {
          case nil: " (up to date, skipped)"
          case .changed?: " (changed, rebuilt)"
          case .forced?: " (forced)"
          case .new?: ""
          }
        let line = "\(displayName(item.input)) -> \(displayName(item.output))\(note)"
        emit(escapingControlCharacters(line) + "\n")
      }
    }
    return failed
  }

  /// Says `text` on standard error as `hexmask: text`, unless `--quiet`.
  func note(_ text: String) {
    guard verbosity != .quiet else { return }
    say(["hexmask: \(text)"])
  }

  /// With `--verbose`, names each entry left out that is not a file to report, and why.
  func reportDropped(_ dropped: [DroppedEntry]) {
    guard verbosity == .verbose else { return }
    say(dropped.map { "hexmask: skipped \(displayName($0.path)): \($0.reason)" })
  }

  /// Says how many files in the folders were passed over as not pictures hexmask reads, and
  /// with `--verbose` which ones.
  func reportSkipped(_ skipped: [String]) {
    guard !skipped.isEmpty, verbosity != .quiet else { return }
    if verbosity == .verbose {
      say(skipped.map { "hexmask: skipped \(displayName($0)): not a picture hexmask reads" })
    }
    let count = skipped.count
    say([
      "hexmask: skipped \(count) file\(count == 1 ? "" : "s") in the folders that "
        + "\(count == 1 ? "is not a picture" : "are not pictures") hexmask reads"
        + (verbosity == .verbose ? "" : " (--verbose lists them)")
    ])
  }

  /// The lines for one finished file.
  private func report(_ result: BatchResult, _ state: inout State) {
    if json {
      if console.outputIsTerminal { clearProgress(&state) }
      console.standardOutput(jsonLine(result, status: result.status.rawValue))
    }
    var lines: [String] = []
    if result.item.input != state.lastInput {
      state.lastInput = result.item.input
      state.saidForLastInput = []
      state.warnedForLastInput = []
    }
    switch result.status {
    case .failed:
      let line = "hexmask: \(result.error?.displayed ?? displayName(result.item.input))"
      if state.saidForLastInput.insert(line).inserted { lines.append(line) }
    case .skipped where verbosity == .verbose:
      lines.append("hexmask: skipped \(displayName(result.item.output)) (up to date)")
    case .written where verbosity == .verbose:
      let side = result.report?.side ?? 0
      let details =
        [result.reason?.rawValue ?? "new", "\(side)x\(side)"]
        + [
          result.report?.crop.map(cropWords), result.report?.faces.map(faceWords),
          result.report?.framing.map(framingWords), result.report?.colour.map(colourWords),
          result.report?.animation.map(animationWords),
        ]
        .compactMap { $0 } + ["\(result.milliseconds) ms"]
      lines.append(
        "hexmask: wrote \(displayName(result.item.output)) from "
          + "\(displayName(result.item.input)) (\(details.joined(separator: ", ")))")
    default: break
    }
    if verbosity != .quiet {
      for warning in result.report?.warnings ?? []
      where state.warnedForLastInput.insert(warning).inserted {
        lines.append("hexmask: \(displayName(result.item.input)): warning: \(warning)")
      }
    }
    guard !lines.isEmpty else { return }
    clearProgress(&state)
    say(lines)
  }

  /// Writes message lines to standard error, each kept on one line: the last safety net
  /// escapes any control character a name brought in (only the progress line, which must
  /// move the cursor, is written without it). Nothing once a pipe closed: SIGPIPE, had it not
  /// been ignored, would have ended the process without another word.
  private func say(_ lines: [String]) {
    guard !console.pipeClosed else { return }
    console.standardError(lines.map { escapingControlCharacters($0) + "\n" }.joined())
  }

  /// Redraws `12/60 files, 3.4 files/s, ETA 14 s, 1 failed` at most ten times a second.
  private func drawProgress(_ state: inout State) {
    guard showsProgress, !console.pipeClosed else { return }
    let now = ContinuousClock.now
    if let last = state.lastDrawn, now - last < .milliseconds(100), state.done < total { return }
    state.lastDrawn = now
    let seconds = elapsed
    let rate = seconds > 0 ? Double(state.done) / seconds : 0
    var line = "hexmask: \(state.done)/\(total) files"
    if rate > 0 {
      line += ", \(oneDecimal(rate)) files/s"
      line += ", ETA \(duration(Double(total - state.done) / rate))"
    }
    if state.failed > 0 { line += ", \(state.failed) failed" }
    console.standardError("\r\u{1B}[K" + line)
    state.progressShown = true
  }

  /// Erases the progress line so the next line starts at the left margin.
  private func clearProgress(_ state: inout State) {
    guard state.progressShown else { return }
    console.standardError("\r\u{1B}[K")
    state.progressShown = false
  }

  private var elapsed: Double {
    let duration = ContinuousClock.now - start
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
  }
}

/// `4.2 s`, or `3 min 07 s` from a minute on.
func duration(_ seconds: Double) -> String {
  guard seconds.isFinite else { return "?" }
  if seconds < 60 { return oneDecimal(seconds) + " s" }
  // Past Int's range (an ETA of 10¹⁹ seconds) there is nothing left to tell.
  guard seconds < 0x1p62 else { return "?" }
  let whole = Int(seconds.rounded())
  return "\(whole / 60) min \(zeroPadded(whole % 60, digits: 2)) s"
}

/// The square a file was cut from, for `--verbose`: `crop 427x427+106+0` (side, then its
/// left and top edges in the upright input, as ImageMagick writes a geometry).
func cropWords(_ crop: HexMask.Crop) -> String {
  "crop \(crop.side)x\(crop.side)+\(crop.x)+\(crop.y)"
}

/// What `--gravity face` found, for `--verbose`: `2 faces`, `1 pet face`, or `no face`
/// (the square then went where `attention` puts it).
func faceWords(_ faces: [HexMask.Face]) -> String {
  guard !faces.isEmpty else { return "no face (attention)" }
  let pets = faces.allSatisfy(\.isPet) ? "pet " : ""
  return "\(faces.count) \(pets)face\(faces.count == 1 ? "" : "s")"
}

/// How `--face-size` framed the square, for `--verbose`: `framed on the face`, `framed on
/// the group`, or `not framed (no face: attention's full-side square)`.
func framingWords(_ framing: HexMask.Framing) -> String {
  switch framing {
  case .face: "framed on the face"
  case .group: "framed on the group"
  case .attention: "not framed (no face: attention's full-side square)"
  }
}

/// What was done with the input's colour profile, for `--verbose`: `Display P3 kept`,
/// `Display P3 converted to sRGB`, `Display P3 is sRGB`, `Display P3 unusable`.
func colourWords(_ colour: HexMask.ColourReport) -> String {
  let name = colour.profile.map { "profile '\($0)'" } ?? "unnamed profile"
  return switch colour.action {
  case .kept: "\(name) kept"
  case .converted: "\(name) converted to sRGB"
  case .srgb: "\(name) is sRGB"
  case .unusable: "\(name) unusable"
  }
}

/// An animated output, for `--verbose`: `animated: 12 frames, 1.20 s, plays forever`
/// (or `plays once`, `plays 3 times`).
func animationWords(_ animation: HexMask.Animation) -> String {
  let count = animation.frames
  // Hundredths of a second, rounded, as a player's counter shows them.
  let milliseconds = max(0, animation.durationMilliseconds)
  let hundredths = milliseconds / 10 + (milliseconds % 10 >= 5 ? 1 : 0)
  let seconds = "\(hundredths / 100).\(zeroPadded(hundredths % 100, digits: 2)) s"
  let plays =
    switch animation.loopCount {
    case 0: "plays forever"
    case 1: "plays once"
    case let times: "plays \(times) times"
    }
  return "animated: \(count) frame\(count == 1 ? "" : "s"), \(seconds), \(plays)"
}
