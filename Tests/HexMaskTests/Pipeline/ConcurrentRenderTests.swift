import Foundation
import TestSupport
import Testing

@testable import HexMask

/// Rendering is safe from many threads at once: eight different pictures rendered on eight
/// threads that start together give exactly the bytes of the same renders done one by one.
@Suite struct ConcurrentRenderTests {
  /// One render: a fixture and the values it is rendered with.
  struct Job: Sendable, CustomStringConvertible {
    var fixture: String
    var shape = HexMask.Shape()
    var output = HexMask.Output()
    var input = HexMask.Input()

    var description: String {
      "\(fixture) → \(output.format) \(output.size.map(String.init) ?? "at its own size")"
    }

    func render(_ bytes: [UInt8]) throws(HexMask.Error) -> [UInt8] {
      try HexMask.render(bytes, shape: shape, output: output, input: input).bytes
    }
  }

  /// Eight pictures of different kinds (baseline, progressive and CMYK JPEG, EXIF turns,
  /// 16-bit, interlaced and ICC PNGs) with different shapes, sizes and formats.
  static let jobs: [Job] = {
    var jobs: [Job] = []

    var avatar = Job(fixture: "photos/rocket.jpg")
    avatar.output.size = 256
    jobs.append(avatar)

    var octagon = Job(fixture: "pngsuite/basn6a16.png")
    octagon.shape.sides = 8
    octagon.shape.corner = .percent(8)
    octagon.shape.borderColor = RGBAColor(red: 30, green: 144, blue: 255)
    octagon.output.size = 96
    octagon.output.kind = .webp(.init(quality: .lossless))
    jobs.append(octagon)

    var progressive = Job(fixture: "jpeg/jpg-progressive.jpg")
    progressive.output.size = 128
    progressive.output.kind = .jpeg(
      .init(quality: 80, background: RGBAColor(red: 240, green: 240, blue: 200)))
    jobs.append(progressive)

    var turned = Job(fixture: "exif/Landscape_6.jpg")
    turned.shape.sides = 5
    turned.shape.rotation = 0
    turned.output.size = 64
    turned.output.crop = .gravity(.north)
    jobs.append(turned)

    var seed = Job(fixture: "pngsuite/basi0g08.png")
    seed.shape.layout = .seed
    jobs.append(seed)

    var cmyk = Job(fixture: "jpeg/jpg-cmyk-1.jpg")
    cmyk.shape.line = .pixels(0)
    cmyk.output.size = 100
    cmyk.output.kind = .webp(.init(quality: .lossy(70)))
    jobs.append(cmyk)

    var profile = Job(fixture: "icc/p3.png")
    profile.shape.sides = 3
    profile.shape.line = .percent(10)
    profile.output.size = 300
    profile.output.kind = .png(.init(compression: .small))
    profile.output.threads = 2
    jobs.append(profile)

    var portrait = Job(fixture: "exif/Portrait_3.jpg")
    portrait.shape.sides = 12
    portrait.shape.corner = .pixels(4)
    portrait.output.size = 200
    portrait.output.crop = .focus(x: 0.3, y: 0.7)
    portrait.output.upscale = false
    jobs.append(portrait)

    return jobs
  }()

  static func inputs() throws -> [[UInt8]] {
    try jobs.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path($0.fixture)))) }
  }

  @Test func eightPicturesOnEightThreadsMatchSerialRenders() throws {
    let inputs = try Self.inputs()
    let jobs = Self.jobs
    #expect(jobs.count == 8)
    let serial = try zip(jobs, inputs).map { job, bytes in try job.render(bytes) }
    #expect(Set(serial).count == jobs.count, "two jobs made the same bytes")

    for round in 0..<3 {
      let parallel = try renderOnThreads(jobs, inputs)
      for (index, job) in jobs.enumerated() {
        // A Bool, so that a failure does not diff the bytes element by element.
        let same = parallel[index] == serial[index]
        #expect(same, "round \(round): \(job) differs when rendered alongside the others")
      }
    }
  }

  /// The same from Swift concurrency: a task group of the eight renders, twice over.
  @Test func taskGroupMatchesSerialRenders() async throws {
    let inputs = try Self.inputs()
    let jobs = Self.jobs
    let serial = try zip(jobs, inputs).map { job, bytes in try job.render(bytes) }
    let parallel = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
      for index in 0..<(2 * jobs.count) {
        let job = jobs[index % jobs.count]
        let bytes = inputs[index % jobs.count]
        group.addTask { (index, try job.render(bytes)) }
      }
      var results: [Int: [UInt8]] = [:]
      for try await (index, output) in group { results[index] = output }
      return results
    }
    for index in 0..<(2 * jobs.count) {
      let same = parallel[index] == serial[index % jobs.count]
      #expect(same, "\(jobs[index % jobs.count]) differs in a task group")
    }
  }

  /// Every public value a caller passes around can cross threads and tasks; this does not
  /// compile otherwise.
  @Test func publicValuesAreSendable() {
    func sendable<T: Sendable>(_: T.Type) -> String { "\(T.self)" }
    let names = [
      sendable(HexMask.Shape.self), sendable(HexMask.Output.self), sendable(HexMask.Input.self),
      sendable(HexMask.Error.self), sendable(HexMask.Report.self), sendable(ImageError.self),
      sendable(ShapeError.self), sendable(MaskShape.self), sendable(Length.self),
      sendable(Layout.self), sendable(CropChoice.self), sendable(Gravity.self),
      sendable(OutputFormat.self), sendable(PNGCompression.self), sendable(RGBAColor.self),
    ]
    #expect(names.count == 15)
  }
}

/// Renders job `i` on input `i`, each on a thread of its own; the threads wait for each other
/// before rendering, so all of them run at once.
private func renderOnThreads(_ jobs: [ConcurrentRenderTests.Job], _ inputs: [[UInt8]]) throws
  -> [[UInt8]]
{
  let results = ThreadResults(count: jobs.count)
  let done = DispatchGroup()
  for index in jobs.indices {
    done.enter()
    let job = jobs[index]
    let bytes = inputs[index]
    let thread = Thread {
      results.arriveAndWaitForAll()
      results.store(
        Result(catching: { () throws(HexMask.Error) -> [UInt8] in try job.render(bytes) }),
        at: index)
      done.leave()
    }
    thread.start()
  }
  guard done.wait(timeout: .now() + 120) == .success else {
    throw TestFileError(description: "the renders on \(jobs.count) threads took over 120 s")
  }
  return try results.all().map { try $0.get() }
}

/// The threads' results, and a start line they all reach before any renders.
private final class ThreadResults: @unchecked Sendable {
  private let lock = NSCondition()
  private var results: [Result<[UInt8], HexMask.Error>?]
  private var arrived = 0

  init(count: Int) { results = Array(repeating: nil, count: count) }

  func arriveAndWaitForAll() {
    lock.lock()
    defer { lock.unlock() }
    arrived += 1
    lock.broadcast()
    // A thread that never arrives must not hold the others forever: after the deadline they
    // go on, and the caller's own wait reports the failure.
    let deadline = Date().addingTimeInterval(120)
    while arrived < results.count, lock.wait(until: deadline) {}
  }

  func store(_ result: Result<[UInt8], HexMask.Error>, at index: Int) {
    lock.lock()
    defer { lock.unlock() }
    results[index] = result
  }

  func all() -> [Result<[UInt8], HexMask.Error>] {
    lock.lock()
    defer { lock.unlock() }
    return results.map { $0 ?? .failure(.decoding(ImageError(.unreadable, "not rendered"))) }
  }
}
