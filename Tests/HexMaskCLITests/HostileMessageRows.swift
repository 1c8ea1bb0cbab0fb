/// Hostile-user rows about misleading messages and small things users trip on (issue 10,
/// items 9 and 10).
extension HostileUserTests {
  static let messageRows: [HostileCase] = []
  static let smallThingRows: [HostileCase] = []
}
