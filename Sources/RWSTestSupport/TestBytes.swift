/// Contents for transfer tests: bytes from a seeded xorshift generator, the same in every run,
/// with no short period (a piece sent twice, skipped or misplaced shows; `$0 &* 13` repeated
/// every 256 bytes), and quick to make in a debug build: 9 MB in ~0.05 s, where
/// `(0..<n).map { UInt8(truncatingIfNeeded: …) }` took ~1.6 s of the suite's CPU per fixture.
public enum TestBytes {
    /// `count` bytes from the generator seeded with `seed` (different seeds, different bytes).
    public static func make(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        // xorshift64 must not start at zero.
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = UnsafeMutableRawPointer(buffer.baseAddress) else { return }
            var offset = 0
            while offset < count {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                var word = state.littleEndian
                let length = min(8, count - offset)
                withUnsafeBytes(of: &word) { base.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: length) }
                offset += length
            }
            initialized = count
        }
    }
}
