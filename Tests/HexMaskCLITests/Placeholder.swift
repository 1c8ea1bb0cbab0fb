import Testing
@testable import HexMaskCLI

@Test func noArgumentsIsUsageError() { #expect(runHexMask([]) == 2) }
