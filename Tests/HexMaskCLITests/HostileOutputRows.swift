/// Hostile-user rows about where outputs go: conflicts with inputs, links, FIFOs, devices,
/// permissions, temporary files, the same input twice and reruns (issue 10, items 1, 2, 5–8).
extension HostileUserTests {
  static let outputConflictRows: [HostileCase] = [
    HostileCase(
      title: "a plain run writes a PNG and touches nothing else",
      command: "hexmask in.jpg out.png --size 64", status: 0, firstError: nil,
      check: "is_png out.png")
  ]
  static let nonRegularOutputRows: [HostileCase] = []
  static let permissionRows: [HostileCase] = []
  static let litterRows: [HostileCase] = []
  static let duplicateInputRows: [HostileCase] = []
  static let rerunRows: [HostileCase] = []
}
