import Foundation
import HexMask
import Synchronization

/// Renders every item of a batch with `jobs` threads in total (the calling thread and
/// `jobs - 1` more), each taking the next unstarted item, and returns the results in input
/// order.
///
/// Each file is rendered on its own with its own copy of `options`, so the outputs are the
/// same bytes whatever `jobs` is. An output that is up to date (see ``rerunReason(for:options:force:)``)
/// is skipped unless `overwrite`; each one written gets its ``RunRecord``. A failure
/// never stops the other files. `shouldStop` is asked before each file is started: once it
/// says true no new file starts, the running ones finish, and the unstarted items have no
/// result (nil). `onResult` is called on the worker thread as each file finishes.
///
/// ```swift
/// let results = renderBatch(plan.items, options: RenderSettings(), jobs: 4)
/// let failed = results.filter { $0?.status == .failed }.count
/// ```
///
/// - Complexity: one render per item; memory for `jobs` renders at a time.
func renderBatch(
  _ items: [BatchItem], options: RenderSettings, jobs: Int, overwrite: Bool = false,
  shouldStop: @escaping @Sendable () -> Bool = { false },
  renderer: @escaping BatchRenderer = { input, output, settings throws(FileFailure) in
    try renderFile(input: input, output: output, settings: settings)
  },
  onResult: @escaping @Sendable (_ index: Int, _ result: BatchResult) -> Void = { _, _ in }
) -> [BatchResult?] {
  let queue = WorkQueue(count: items.count)
  let recipe = Recipe(options: options)
  let work: @Sendable () -> Void = {
    while !shouldStop(), let index = queue.claim() {
      let result = renderOne(
        items[index], options: options, recipe: recipe, overwrite: overwrite, renderer)
      queue.store(result, at: index)
      onResult(index, result)
    }
  }
  let helpers = max(0, min(jobs, items.count) - 1)
  let finished = DispatchSemaphore(value: 0)
  for _ in 0..<helpers {
    let thread = Thread {
      work()
      finished.signal()
    }
    // Decoders keep their state on the heap; this is room for libpng's and libjpeg's frames.
    thread.stackSize = 8 << 20
    thread.start()
  }
  work()
  for _ in 0..<helpers { finished.wait() }
  return queue.results
}

/// A function that renders one file, as ``render(input:output:options:)`` does.
typealias BatchRenderer =
  @Sendable (_ input: String, _ output: String, _ options: RenderSettings) throws(FileFailure) ->
  RenderedFile

/// What happened to one item of a batch.
struct BatchResult: Equatable, Sendable {
  /// The item: input and output paths.
  var item: BatchItem
  /// Written, skipped because the output exists, or failed.
  var status: BatchStatus
  /// Why it failed, when it did.
  var error: FileFailure?
  /// The render's report (size and warnings), when written.
  var report: RenderedFile?
  /// Why it was written (new, changed, forced); nil when skipped or failed.
  var reason: WriteReason?
  /// Wall-clock time spent on the item, in milliseconds.
  var milliseconds: Int

  init(
    item: BatchItem, status: BatchStatus, error: FileFailure? = nil,
    report: RenderedFile? = nil, milliseconds: Int = 0
  ) {
    self.item = item
    self.status = status
    self.error = error
    self.report = report
    self.milliseconds = milliseconds
  }
}

/// The outcome of one item, as scripts read it in `--json`.
enum BatchStatus: String, Sendable, CaseIterable {
  case written, skipped, failed
}

/// Renders one item, or skips it when its output exists, timing it.
private func renderOne(
  _ item: BatchItem, options: RenderSettings, recipe: Recipe, overwrite: Bool,
  _ renderer: BatchRenderer
) -> BatchResult {
  if let problem = item.problem {
    return BatchResult(item: item, status: .failed, error: problem)
  }
  guard let reason = rerunReason(for: item, recipe: recipe, force: overwrite) else {
    return BatchResult(item: item, status: .skipped)
  }
  let start = ContinuousClock.now
  // Read before rendering: if the input changes meanwhile, the record no longer matches it
  // and the next run rebuilds.
  let input = FileStamp(path: item.input)
  var result = BatchResult(item: item, status: .written)
  result.reason = reason
  do {
    var rendered = try renderer(item.input, item.output, options)
    if let recordPath = item.record, let input, let output = rendered.stamp {
      let record = RunRecord(recipe: recipe.digest(input: input), output: output)
      do throws(FileFailure) {
        try record.write(to: recordPath)
      } catch {
        rendered.report.warnings.append(
          "the next run will rebuild this output: \(error.description)")
      }
    }
    result.report = rendered
  } catch {
    result.status = .failed
    result.error = error
    result.reason = nil
  }
  let elapsed = ContinuousClock.now - start
  result.milliseconds =
    Int(elapsed.components.seconds * 1000)
    + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
  return result
}

/// The next unstarted item and the results so far, shared by the worker threads.
private final class WorkQueue: Sendable {
  private let next = Atomic<Int>(0)
  private let count: Int
  private let finished: Mutex<[BatchResult?]>

  init(count: Int) {
    self.count = count
    finished = Mutex(Array(repeating: nil, count: count))
  }

  /// The index of an item no other thread has taken, or nil when all are taken.
  func claim() -> Int? {
    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
    return index < count ? index : nil
  }

  func store(_ result: BatchResult, at index: Int) {
    finished.withLock { $0[index] = result }
  }

  var results: [BatchResult?] { finished.withLock { $0 } }
}
