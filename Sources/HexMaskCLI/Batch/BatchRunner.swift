import CFileShims
import HexMask
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Renders every item of a batch with `jobs` threads in total (the calling thread and
/// `jobs - 1` more), each taking the next unstarted input, and returns the results in item
/// order.
///
/// The items of one input (its sizes, next to each other in `items`) are rendered together,
/// from one decode. Each input is rendered on its own with its own copy of `options`, so the
/// outputs are the same bytes whatever `jobs` is. An output that is up to date (see
/// ``rerunReason(for:recipe:force:)``) is skipped unless `overwrite`, and only the others of
/// its input are made; each one written gets its ``RunRecord``. A failure never stops the
/// other files. `shouldStop` is asked before each input is started: once it says true no new
/// input starts, the running ones finish, and the unstarted items have no result (nil).
/// `onResult` is called on the worker thread as each item finishes.
///
/// ```swift
/// let results = renderBatch(plan.items, options: RenderSettings(), jobs: 4)
/// let failed = results.filter { $0?.status == .failed }.count
/// ```
///
/// - Complexity: one render per input; memory for `jobs` renders at a time.
func renderBatch(
  _ items: [BatchItem], options: RenderSettings, jobs: Int, overwrite: Bool = false,
  shouldStop: @escaping @Sendable () -> Bool = { false },
  renderer: @escaping BatchRenderer = { input, outputs, settings throws(FileFailure) in
    try renderFile(input: input, outputs: outputs, settings: settings)
  },
  onResult: @escaping @Sendable (_ index: Int, _ result: BatchResult) -> Void = { _, _ in }
) -> [BatchResult?] {
  let inputs = inputRanges(items)
  let queue = WorkQueue(inputs: inputs.count, items: items.count)
  let recipes = Recipe.bySize(of: items, options: options)
  let work: @Sendable () -> Void = {
    while !shouldStop(), let input = queue.claim() {
      let range = inputs[input]
      let results = renderInput(
        items[range], options: options, recipes: recipes, overwrite: overwrite, renderer)
      // What the file freed goes back to the system before the next one takes from the
      // budget: otherwise each thread's arena keeps it, and -j N goes over the limit.
      hm_give_back_freed()
      for (index, result) in zip(range, results) {
        queue.store(result, at: index)
        onResult(index, result)
      }
    }
  }
  let helpers = (0..<max(0, min(jobs, inputs.count) - 1)).compactMap { _ in startThread(work) }
  work()
  for helper in helpers { pthread_join(helper, nil) }
  return queue.results
}

/// Starts a thread that runs `body`; nil when the system has no thread to give, and the
/// calling thread then does that share of the work. POSIX threads rather than Foundation's
/// `Thread`, which would bring all of Foundation (and ICU's data) into the binary.
private func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
  final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
  var attributes = pthread_attr_t()
  guard pthread_attr_init(&attributes) == 0 else { return nil }
  defer { pthread_attr_destroy(&attributes) }
  // Decoders keep their state on the heap; this is room for libpng's and libjpeg's frames.
  _ = pthread_attr_setstacksize(&attributes, 8 << 20)
  let context = Unmanaged.passRetained(Body(body)).toOpaque()
  // glibc's pthread_t is an integer and its start routine takes an optional pointer;
  // Darwin's is an optional pointer and takes a non-optional one.
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let started = pthread_create(
    &thread, &attributes,
    { argument in
      let context: UnsafeMutableRawPointer? = argument
      guard let context else { return nil }
      Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
      return nil
    }, context)
  guard started == 0 else {
    Unmanaged<Body>.fromOpaque(context).release()
    return nil
  }
  return thread
}

/// The ranges of `items` that belong to one input: runs of the same input path.
private func inputRanges(_ items: [BatchItem]) -> [Range<Int>] {
  var ranges: [Range<Int>] = []
  var start = 0
  for index in items.indices
  where index + 1 == items.count || items[index + 1].input != items[index].input {
    ranges.append(start..<index + 1)
    start = index + 1
  }
  return ranges
}

/// A function that renders one input into several outputs, as
/// ``renderFile(input:outputs:settings:)`` does.
typealias BatchRenderer =
  @Sendable (_ input: String, _ outputs: [SizedFile], _ options: RenderSettings)
  throws(FileFailure) -> [RenderedFile]

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
  /// Wall-clock time spent on the item's input (all its sizes), in milliseconds.
  var milliseconds: Int
  /// True when the item failed and its output from an earlier run is still there, left as it
  /// was: a failed rerun never takes away a picture that was served, and says so instead.
  var keptOutput = false

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

/// Renders the items of one input that are not up to date, from one decode, timing it; the
/// results are in the items' order.
private func renderInput(
  _ items: ArraySlice<BatchItem>, options: RenderSettings, recipes: [Int?: Recipe],
  overwrite: Bool, _ renderer: BatchRenderer
) -> [BatchResult] {
  var results: [BatchResult] = []
  var stale: [Int] = []
  for item in items {
    if let problem = item.problem {
      results.append(BatchResult(item: item, status: .failed, error: problem))
    } else if let recipe = recipes[item.size],
      let reason = rerunReason(for: item, recipe: recipe, force: overwrite)
    {
      if let refusal = replacementFailure(for: item, reason: reason, force: overwrite) {
        // Not "kept" (an earlier output of this command): the refusal itself says the
        // file stays.
        results.append(BatchResult(item: item, status: .failed, error: refusal))
        continue
      }
      var result = BatchResult(item: item, status: .written)
      result.reason = reason
      stale.append(results.count)
      results.append(result)
    } else {
      results.append(BatchResult(item: item, status: .skipped))
    }
  }
  guard let first = stale.first else { return results }
  let start = ContinuousClock.now
  // Read before rendering: if the input changes meanwhile, the record no longer matches it
  // and the next run rebuilds.
  let input = FileStamp(path: results[first].item.input)
  do {
    let outputs = stale.map {
      SizedFile(path: results[$0].item.output, size: results[$0].item.size)
    }
    let rendered = try renderer(results[first].item.input, outputs, options)
    for (index, var made) in zip(stale, rendered) {
      let item = results[index].item
      if let recordPath = item.record, let input, let output = made.stamp,
        let recipe = recipes[item.size]
      {
        let side = made.side
        let digest = recipe.digest(
          input: input, side: side, format: recipe.format(of: item.output),
          picture: made.picture)
        let record = RunRecord(recipe: digest, side: side, output: output, picture: made.picture)
        do throws(FileFailure) {
          try record.write(to: recordPath)
        } catch {
          made.warnings.append(.recordNotWritten(error.description))
        }
      }
      results[index].report = made
    }
  } catch {
    var error = error
    if error.cause == .outputIsFolder { error.cause = .outputIsFolderInBatch }
    for index in stale {
      results[index].status = .failed
      results[index].error = error
      results[index].reason = nil
    }
  }
  for index in stale where results[index].status == .failed {
    results[index].keptOutput = FileStamp(path: results[index].item.output) != nil
  }
  let elapsed = ContinuousClock.now - start
  let milliseconds =
    Int(elapsed.components.seconds * 1000)
    + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
  for index in stale { results[index].milliseconds = milliseconds }
  return results
}

/// The next unstarted item and the results so far, shared by the worker threads.
private final class WorkQueue: Sendable {
  private let next = Atomic<Int>(0)
  private let count: Int
  private let finished: Mutex<[BatchResult?]>

  init(inputs: Int, items: Int) {
    count = inputs
    finished = Mutex(Array(repeating: nil, count: items))
  }

  /// The index of an input no other thread has taken, or nil when all are taken.
  func claim() -> Int? {
    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
    return index < count ? index : nil
  }

  func store(_ result: BatchResult, at index: Int) {
    finished.withLock { $0[index] = result }
  }

  var results: [BatchResult?] { finished.withLock { $0 } }
}

/// Why the output `item` would be (re)built for `reason` must not be replaced, as one
/// file's failure; nil when it may be. An output that exists is replaced only if hexmask
/// made it, as its mark or an unchanged record says, or `force` asks (never another user's
/// file). The real run and `--dry-run` both ask this, so a dry run fails where the run would.
func replacementFailure(for item: BatchItem, reason: WriteReason, force: Bool) -> FileFailure? {
  guard reason != .new,
    let refusal = ReplacementRefusal(
      replacing: item.output, force: force, recorded: recordNamesOutput(of: item),
      filesOnly: true)
  else { return nil }
  return refusal.failure(item.output)
}

/// True when `item`'s rerun record names its output as the file is now (same identity),
/// so it is hexmask's own even without the mark (an output made before the mark).
private func recordNamesOutput(of item: BatchItem) -> Bool {
  guard let recordPath = item.record, let record = RunRecord(contentsOf: recordPath),
    let output = FileStamp(path: item.output)
  else { return false }
  return record.output.vouches(for: output, recordWritten: record.written)
}
