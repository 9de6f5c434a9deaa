/// Lines holding `"key":"value"` for one key and any of some values, with JSON whitespace
/// (space, tab, carriage return) allowed around the colon: a byte search, no parsing.
struct KeyValueLines: Sendable {
    let key: [UInt8]
    let values: [[UInt8]]
    private let valueNames: [String]
    private let keyName: String

    /// `key` and `values` are plain names: no quotes, backslashes or regex characters but `-`.
    /// The values are JSON strings, or literals (`true`) when `quoted` is false.
    init(key: String, values: [String], quoted: Bool = true) {
        self.keyName = key
        self.valueNames = values.map { quoted ? "\"\($0)\"" : $0 }
        self.key = Array("\"\(key)\"".utf8)
        self.values = valueNames.map { Array($0.utf8) }
    }

    /// The same rule as a POSIX extended regex (`grep -E`), with a literal tab and carriage
    /// return in the whitespace class; BusyBox and GNU grep both take it.
    var extendedRegex: String {
        let space = "[ \t\r]*"
        return "\"\(keyName)\"\(space):\(space)(\(valueNames.joined(separator: "|")))"
    }

    /// The lines of `bytes` (split at `\n`, a last line without one included) holding the pair.
    func count(in bytes: [UInt8], stopAtFirst: Bool = false) -> Int {
        var count = 0
        var start = 0
        bytes.withUnsafeBufferPointer { buffer in
            while start < buffer.count {
                let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
                if holds(UnsafeBufferPointer(rebasing: buffer[start..<end])) {
                    count += 1
                    if stopAtFirst { return }
                }
                start = end + 1
            }
        }
        return count
    }

    /// Whether `line` holds the key, optional whitespace, a colon, optional whitespace and one of the values.
    func holds(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while let found = Self.find(key, in: line, from: index) {
            var cursor = Self.skipSpace(line, from: found + key.count)
            if cursor < line.count, line[cursor] == UInt8(ascii: ":") {
                cursor = Self.skipSpace(line, from: cursor + 1)
                if values.contains(where: { Self.starts(line, at: cursor, with: $0) }) { return true }
            }
            index = found + 1
        }
        return false
    }

    private static func skipSpace(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 || line[index] == 0x0D { index += 1 }
        return index
    }

    private static func starts(_ line: UnsafeBufferPointer<UInt8>, at start: Int, with pattern: [UInt8]) -> Bool {
        start + pattern.count <= line.count && line[start..<(start + pattern.count)].elementsEqual(pattern)
    }

    private static func find(_ pattern: [UInt8], in line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = pattern.first, line.count >= pattern.count, start <= line.count - pattern.count else { return nil }
        var index = start
        let last = line.count - pattern.count
        while index <= last {
            guard let found = line[index...last].firstIndex(of: first) else { return nil }
            if starts(line, at: found, with: pattern) { return found }
            index = found + 1
        }
        return nil
    }
}
