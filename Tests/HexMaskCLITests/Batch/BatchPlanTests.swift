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
    try withTemporaryFolder { url in
      let dir = url.path
      try makeTree(dir, copies: ["a.png": pngFixture, "sub/a.jpg": photoFixture])
      // As the search finds them: with their files' identities.
      let inputs = findInputs([dir + "/sub/a.jpg", dir + "/a.png"], rules: InputRules())
      let plan = BatchPlan(
        inputs: inputs, template: try NameTemplate(parsing: "{name}.png"), outputFolder: dir)
      #expect(plan.conflicts.contains { $0.overwritesInput && $0.output == dir + "/a.png" })
    }
  }

  /// The face model's cascades are inputs too: an output or a record that is one of them,
  /// by name or through a hard link, is a conflict that says so.
  @Test func anOutputOrRecordThatIsTheFaceModelIsAConflict() throws {
    try withTemporaryFolder { url in
      let dir = url.path
      try makeTree(
        dir, copies: ["a.jpg": photoFixture],
        texts: ["o/m.png": "<opencv_storage/>", "o/.hexmask/a.png.rec": "<opencv_storage/>"])
      #expect(link(dir + "/o/m.png", dir + "/o/twin.png") == 0)
      let inputs = findInputs([dir + "/a.jpg"], rules: InputRules())
      let keys = ["/o/m.png", "/o/.hexmask/a.png.rec"].compactMap {
        FileStatus(path: dir + $0, following: true)?.identity
      }
      for name in ["m.png", "twin.png", "a.png"] {
        let plan = BatchPlan(
          inputs: inputs, template: try NameTemplate(parsing: name), outputFolder: dir + "/o",
          model: Set(keys))
        let written = name == "a.png" ? "/o/.hexmask/a.png.rec" : "/o/" + name
        var conflict = OutputConflict(
          output: dir + written, inputs: [dir + "/a.jpg"], overwritesInput: true)
        conflict.overwritesModel = true
        conflict.isRecord = name == "a.png"
        #expect(plan.conflicts == [conflict], "\(name)")
        #expect(conflict.explanation.hasSuffix(", which is the face model"))
      }
      let unprotected = BatchPlan(
        inputs: inputs, template: try NameTemplate(parsing: "m.png"), outputFolder: dir + "/o")
      #expect(unprotected.conflicts.isEmpty)
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
