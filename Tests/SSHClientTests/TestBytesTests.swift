import RWSTestSupport
import Testing

/// The transfer tests' contents: reproducible, and no piece of them stands for another.
@Suite struct TestBytesTests {
    @Test func theSameSeedGivesTheSameBytesAndAnotherSeedOthers() {
        #expect(TestBytes.make(100_003, seed: 7) == TestBytes.make(100_003, seed: 7))
        #expect(TestBytes.make(100_003, seed: 7) != TestBytes.make(100_003, seed: 8))
        #expect(TestBytes.make(5, seed: 7) == Array(TestBytes.make(100_003, seed: 7).prefix(5)))
        #expect(TestBytes.make(0).isEmpty)
    }

    /// A piece moved by any offset under 64 KiB would not match where it landed.
    @Test func noShiftOfTheBytesMatchesThemselves() {
        let bytes = TestBytes.make(70_000)
        let window = 64
        for shift in 1..<(64 * 1024) {
            #expect(bytes[0..<window] != bytes[shift..<(shift + window)], "the bytes repeat after \(shift)")
        }
    }
}
