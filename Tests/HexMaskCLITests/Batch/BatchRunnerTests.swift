import Foundation
import HexMask
import Synchronization
import TestSupport
import Testing

@testable import HexMaskCLI

@Suite struct BatchRunnerTests {
  let items = (0..<40).map { BatchItem(input: "in\($0).jpg", output: "/nonexistent/o\($0).png") }

  @Test(arguments: [1, 3, 8])
  func resultsComeInInputOrder(jobs: Int) {
    let results = renderBatch(
      items, options: RenderSettings(), jobs: jobs,
      renderer: { input, outputs, _ throws(FileFailure) in
        usleep(UInt32.random(in: 0..<500))
        if input == "in7.jpg" { throw FileFailure(file: input, reason: "broken") }
        return outputs.map { _ in fakeRendered(side: 3) }
      })
    #expect(results.map { $0?.item } == items)
    #expect(results.filter { $0?.status == .failed }.map { $0?.item.input } == ["in7.jpg"])
    #expect(results.filter { $0?.status == .written }.count == 39)
  }

  @Test(arguments: [1, 2, 5])
  func neverMoreThanJobsAtOnce(jobs: Int) {
    let running = Mutex((now: 0, most: 0))
    _ = renderBatch(
      items, options: RenderSettings(), jobs: jobs,
      renderer: { _, outputs, _ throws(FileFailure) in
        running.withLock {
          $0.now += 1
          $0.most = max($0.most, $0.now)
        }
        usleep(1_000)
        running.withLock { $0.now -= 1 }
        return outputs.map { _ in fakeRendered(side: 1) }
      })
    #expect(running.withLock { $0.most } <= jobs)
  }

  @Test func stopsStartingFilesWhenAsked() {
    let started = Atomic<Int>(0)
    let results = renderBatch(
      items, options: RenderSettings(), jobs: 2,
      shouldStop: { started.load(ordering: .relaxed) >= 5 },
      renderer: { _, outputs, _ throws(FileFailure) in
        started.wrappingAdd(1, ordering: .relaxed)
        return outputs.map { _ in fakeRendered(side: 1) }
      })
    let finished = results.compactMap { $0 }
    #expect(finished.count >= 5 && finished.count <= 6)
    #expect(results.prefix(finished.count).allSatisfy { $0 != nil })
  }

  @Test func existingOutputsAreSkippedUnlessOverwriting() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makeTree(dir, texts: ["o.png": "old"])
      let item = [BatchItem(input: "in.jpg", output: dir + "/o.png")]
      let fake: BatchRenderer = { _, outputs, _ throws(FileFailure) in
        outputs.map { _ in fakeRendered(side: 1) }
      }
      let skipped = renderBatch(item, options: RenderSettings(), jobs: 1, renderer: fake)
      #expect(skipped.first??.status == .skipped)
      let forced = renderBatch(
        item, options: RenderSettings(), jobs: 1, overwrite: true, renderer: fake)
      #expect(forced.first??.status == .written)
    }
  }

  @Test func realRendersAreTheSameBytesWhateverTheJobs() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      let names = (0..<6).map { "p\($0)" }
      try makeTree(
        dir,
        copies: Dictionary(
          uniqueKeysWithValues: names.map {
            ("in/\($0).jpg", $0.hasSuffix("1") ? pngFixture : photoFixture)
          }))
      var outputs: [[Data]] = []
      for jobs in [1, 3] {
        let plan = BatchPlan(
          inputs: findInputs([dir + "/in"], rules: InputRules()), template: .standard,
          outputFolder: dir + "/out\(jobs)")
        try FileManager.default.createDirectory(
          atPath: dir + "/out\(jobs)", withIntermediateDirectories: true)
        let results = renderBatch(plan.items, options: RenderSettings(), jobs: jobs)
        #expect(results.allSatisfy { $0?.status == .written })
        outputs.append(try plan.items.map { try Data(contentsOf: URL(fileURLWithPath: $0.output)) })
      }
      #expect(outputs[0] == outputs[1])
    }
  }
}
