/// Finds `"key":"value"` string fields by byte search, without parsing: the fallback for a
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

    private static func all(_ key: String, in bytes: [UInt8], stopAfterFirst: Bool) -> [String] {
        let pattern = Array("\"\(key)\":\"".utf8)
        var values: [String] = []
        var index = 0
        while let found = find(pattern, in: bytes, from: index) {
            let start = found + pattern.count
            guard let end = closingQuote(in: bytes, from: start) else { break }
            if let value = try? JSONValue(parsing: bytes[(start - 1)...end]).stringValue { values.append(value) }
            if stopAfterFirst { break }
            index = end + 1
        }
        return values
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
