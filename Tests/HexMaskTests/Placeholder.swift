import Testing
@testable import HexMask

@Test func whiteIsOpaque() { #expect(RGBAColor.white.alpha == 255) }
