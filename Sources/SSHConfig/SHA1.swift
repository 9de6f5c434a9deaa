/// SHA-1, only for the `%C` token (OpenSSH hashes `%l%h%p%r` with it). Not for
/// anything security-relevant; Foundation on Linux has no hash functions, and a
/// dependency for one token is not worth it.
enum SHA1 {
    /// The lower-case hexadecimal SHA-1 digest of `text`'s UTF-8 bytes.
    static func hexDigest(_ text: String) -> String {
        digest(Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        for chunk in padded(message).chunked(by: 64) {
            compress(chunk, into: &state)
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }

    /// The message, a 1 bit, zeros, and the bit length: a multiple of 64 bytes.
    private static func padded(_ message: [UInt8]) -> [UInt8] {
        var bytes = message + [0x80]
        while bytes.count % 64 != 56 { bytes.append(0) }
        let bitLength = UInt64(message.count) * 8
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64($0))) }
        return bytes
    }

    private static func compress(_ chunk: ArraySlice<UInt8>, into state: inout [UInt32]) {
        var words = [UInt32](repeating: 0, count: 80)
        for index in 0..<16 {
            let base = chunk.startIndex + index * 4
            words[index] = (0..<4).reduce(0) { $0 << 8 | UInt32(chunk[base + $1]) }
        }
        for index in 16..<80 {
            words[index] = rotate(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1)
        }
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for index in 0..<80 {
            let (f, k): (UInt32, UInt32)
            switch index {
            case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
            case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
            case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let temp = rotate(a, 5) &+ f &+ e &+ k &+ words[index]
            (e, d, c, b, a) = (d, c, rotate(b, 30), a, temp)
        }
        for (index, value) in [a, b, c, d, e].enumerated() { state[index] &+= value }
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}

private extension Array {
    func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
