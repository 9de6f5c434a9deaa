/// Finds `"key":"value"` string fields (whitespace around the colon allowed) by byte search, without parsing: the fallback for a
/// head or tail whose only line is torn (a first line of megabytes), as Claude Code's own
/// lister does.
enum FieldSniffer {
    /// The first string value of `key` in `bytes`.
    static func first(_ key: String, in bytes: [UInt8]) -> String? {
        all(key, in: bytes, stopAfterFirst: true).first
    }

    /// The last string value of `key` in `bytes`.
    static func last(_ key: String, in bytes: [UInt8]) -> String? {
        all(key, in: bytes, stopAfterFirst: false).last
    }

    /// Every string value of `key` in `bytes`, the last one as much of it as `bytes` hold when it
    /// runs past their end (a prompt longer than the window).
    static func allWithTornLast(_ key: String, in bytes: [UInt8]) -> [String] {
        all(key, in: bytes, stopAfterFirst: false, keepingTornLast: true)
    }

    /// The start of a string value cut by the end of the bytes: cut back past a split escape or
    /// UTF-8 sequence until the rest parses.
    private static func tornValue(_ bytes: [UInt8], from start: Int) -> String? {
        for end in stride(from: bytes.count, through: max(start, bytes.count - 12), by: -1) {
            if let value = try? JSONValue(parsing: bytes[(start - 1)..<end] + [0x22]).stringValue { return value }
        }
        return nil
    }

    private static func all(_ key: String, in bytes: [UInt8], stopAfterFirst: Bool, keepingTornLast: Bool = false) -> [String] {
        let pattern = Array("\"\(key)\"".utf8)
        var values: [String] = []
        var index = 0
        while let found = find(pattern, in: bytes, from: index) {
            index = found + 1
            // JSON allows whitespace around the colon (`"cwd": "/x"`, other writers).
            var start = skipSpace(bytes, from: found + pattern.count)
            guard start < bytes.count, bytes[start] == UInt8(ascii: ":") else { continue }
            start = skipSpace(bytes, from: start + 1)
            guard start < bytes.count, bytes[start] == 0x22 else { continue }
            start += 1
            guard let end = closingQuote(in: bytes, from: start) else {
                if keepingTornLast, let torn = tornValue(bytes, from: start) { values.append(torn) }
                break
            }
            if let value = try? JSONValue(parsing: bytes[(start - 1)...end]).stringValue { values.append(value) }
            if stopAfterFirst { break }
            index = end + 1
        }
        return values
    }

    private static func skipSpace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
        return index
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var index = start
        while index <= bytes.count - pattern.count {
            if bytes[index] == first, bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private static func closingQuote(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x5C {
                index += 2
                continue
            }
            if bytes[index] == 0x22 { return index }
            index += 1
        }
        return nil
    }
}
