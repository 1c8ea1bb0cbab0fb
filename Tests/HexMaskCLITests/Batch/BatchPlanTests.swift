import Foundation
import HexMask
import TestSupport
import Testing

@testable import HexMaskCLI

@Suite struct BatchPlanTests {
  @Test func namesOutputsUnderTheFolder() throws {
    let inputs = [
      BatchInput(path: "p/a.jpg", folder: ""), BatchInput(path: "p/s/b.png", folder: "s"),
    ]
    let plan = BatchPlan(inputs: inputs, template: .standard, outputFolder: "out/")
    #expect(plan.items.map(\.output) == ["out/a.png", "out/s/b.png"])
    #expect(plan.conflicts.isEmpty)
  }

  @Test func twoInputsForOneOutputAreAConflict() throws {
    let inputs = ["a/x.jpg", "b/x.png", "c/y.jpg", "d/x.jpeg"].map {
      BatchInput(path: $0, folder: "")
    }
    let plan = BatchPlan(inputs: inputs, template: .standard, outputFolder: "out")
    #expect(
      plan.conflicts == [
        OutputConflict(output: "out/x.png", inputs: ["a/x.jpg", "b/x.png", "d/x.jpeg"])
      ])
    let apart = BatchPlan(
      inputs: inputs, template: try NameTemplate(parsing: "{name}-{ext}.png"),
      outputFolder: "out")
    #expect(apart.conflicts.isEmpty)
  }

  @Test func anOutputThatIsAnInputIsAConflict() throws {
    try withTemporaryFolder { dir in
      try makeTree(dir, copies: ["a.png": pngFixture, "sub/a.jpg": photoFixture])
      // As the search finds them: with their files' identities.
      let inputs = findInputs([dir + "/sub/a.jpg", dir + "/a.png"], rules: InputRules())
      let plan = BatchPlan(
        inputs: inputs, template: try NameTemplate(parsing: "{name}.png"), outputFolder: dir)
      #expect(plan.conflicts.contains { $0.overwritesInput && $0.output == dir + "/a.png" })
    }
  }

  @Test func inputsThatCannotBeNamedFailAlone() {
    let inputs = [BatchInput(path: "../a.jpg", folder: nil), BatchInput(path: "b.jpg", folder: "")]
    let plan = BatchPlan(inputs: inputs, template: .standard, outputFolder: "out")
    #expect(plan.items[0].problem?.reason.contains("'..'") == true)
    #expect(
      plan.items[1]
        == {
          var item = BatchItem(
            input: "b.jpg", output: "out/b.png", record: "out/.hexmask/b.png.rec")
          item.shardKey = "b.jpg"
          return item
        }())
    #expect(plan.conflicts.isEmpty)
  }
}
