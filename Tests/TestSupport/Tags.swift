import Foundation
import Testing

/// The suite's two lanes. `make test` is the fast lane: it sets `HEXMASK_LANE=fast`, which
/// leaves out every suite marked `.outsideTheFastLane`. `make check` runs everything.
/// A slow suite carries both marks, `@Suite(.tags(.slow), .outsideTheFastLane)`: the tag
/// names it for people and tools, the condition does the leaving out (Swift Testing's
/// `swift test` cannot yet select by tag); LaneTests checks that the two go together.
extension Tag {
  /// Takes seconds, not milliseconds, even optimised: builds a package, sweeps a corpus,
  /// renders big pictures or runs many processes.
  @Tag public static var slow: Self
  /// Runs a built program (the `hexmask` command or a helper) in a process of its own and
  /// checks what it printed, wrote and returned.
  @Tag public static var endToEnd: Self
}

/// Which lane this run is.
public enum Lane {
  /// True under `make test` (`HEXMASK_LANE=fast`).
  public static let isFast = ProcessInfo.processInfo.environment["HEXMASK_LANE"] == "fast"
}

extension Trait where Self == ConditionTrait {
  /// Leaves a slow suite or test out of the fast lane; `make check` runs it.
  public static var outsideTheFastLane: Self {
    .disabled(if: Lane.isFast, "slow: the fast lane (make test) leaves it out; make check runs it")
  }
}
