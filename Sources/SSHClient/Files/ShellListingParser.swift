/// Reads the output of the shell fallback's listing script (see ``ShellFileScripts``).
///
/// Per `find` batch: `B\0`, the batch's names (`./name`, NUL-terminated, an empty one ends
/// them), the `stat` lines (`HEXMODE SIZE UID GID MTIME ./name\n`, one per file still there),
/// NUL, then (name, symlink target) NUL-terminated pairs, an empty name. `stat` skips a file
/// that vanished since `find` saw it, so each line is matched to the next batch name it fits
/// exactly; names may hold newlines, which is why the names come first.
struct ShellListingParser {
    /// The output was not what the script prints.
    struct Malformed: Error {
        let reason: String
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func parse(_ output: [UInt8]) throws(Malformed) -> [ListedEntry] {
        var parser = ShellListingParser(output)
        var entries: [ListedEntry] = []
        while parser.index < parser.bytes.count {
            try entries += parser.batch()
        }
        return entries
    }

    private mutating func batch() throws(Malformed) -> [ListedEntry] {
        guard try field() == [UInt8(ascii: "B")] else { throw Malformed(reason: "no batch marker") }
        var names: [[UInt8]] = []
        while case let name = try field(), !name.isEmpty { names.append(name) }
        let statText = try field()
        var targets: [[UInt8]: [UInt8]] = [:]
        while case let name = try field(), !name.isEmpty { targets[name] = try field() }
        var entries = try Self.match(statText, names: names)
        for position in entries.indices {
            entries[position].target = targets[[46, 47] + entries[position].name]
        }
        return entries
    }

    /// The bytes up to the next NUL, which is consumed.
    private mutating func field() throws(Malformed) -> [UInt8] {
        guard let end = bytes[index...].firstIndex(of: 0) else { throw Malformed(reason: "unterminated field") }
        defer { index = end + 1 }
        return Array(bytes[index..<end])
    }

    /// Pairs each `stat` line with the batch name it ends with, in order.
    private static func match(_ text: [UInt8], names: [[UInt8]]) throws(Malformed) -> [ListedEntry] {
        var entries: [ListedEntry] = []
        entries.reserveCapacity(names.count)
        var cursor = 0
        var next = 0
        while cursor < text.count {
            var numbers: [UInt64] = []
            for radix in [16, 10, 10, 10, 10] {
                let start = cursor
                while cursor < text.count, text[cursor] != 32 { cursor += 1 }
                guard cursor < text.count, let value = UInt64(String(decoding: text[start..<cursor], as: UTF8.self), radix: radix) else {
                    throw Malformed(reason: "bad stat field")
                }
                numbers.append(value)
                cursor += 1
            }
            guard let found = names[next...].firstIndex(where: { fits($0, in: text, at: cursor) }) else {
                throw Malformed(reason: "a stat line matches no name")
            }
            let attributes = RemoteFileAttributes(
                mode: UInt32(truncatingIfNeeded: numbers[0]), size: numbers[1],
                userID: UInt32(truncatingIfNeeded: numbers[2]),
                groupID: UInt32(truncatingIfNeeded: numbers[3]),
                modificationSeconds: Int64(truncatingIfNeeded: numbers[4]))
            entries.append(ListedEntry(name: Array(names[found].dropFirst(2)), attributes: attributes, target: nil))
            cursor += names[found].count + 1
            next = found + 1
        }
        return entries
    }

    /// Whether `text` holds `name` followed by a newline at `position`.
    private static func fits(_ name: [UInt8], in text: [UInt8], at position: Int) -> Bool {
        let end = position + name.count
        guard end < text.count, text[end] == 10 else { return false }
        return text[position..<end].elementsEqual(name)
    }
}
