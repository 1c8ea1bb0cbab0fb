/// Hostile-user rows about text on full disks and closed pipes, and absurd finite values
/// (issue 10, items 3 and 4).
extension HostileUserTests {
  static let textOutputRows: [HostileCase] = []
  static let extremeValueRows: [HostileCase] = []
}
