/// A session's message count as a listing gives it: the lines of the whole file that hold
/// `"type":"user"` or `"type":"assistant"` — user prompts and tool results, and one line per
/// content block of a response, as Claude Code's own picker counted transcript messages.
///
/// The remote listing counts on the box with `LC_ALL=C grep -c -F -e '"type":"user"' -e
/// '"type":"assistant"'` (only the count crosses the link); this is the same rule in Swift for
/// the local listing, so both agree byte for byte. Inside JSON strings quotes are escaped, so the
/// patterns only match JSON structure; nested messages (`agent_progress` records) add a few.
public enum MessageLines {
    private static let patterns = [Array(#""type":"user""#.utf8), Array(#""type":"assistant""#.utf8)]

    /// The lines of `bytes` (split at `\n`, a last line without one included) holding either pattern.
    public static func count(in bytes: [UInt8]) -> Int {
        LinePatterns.count(in: bytes, matchingAny: patterns)
    }
}

/// Whether a session file holds a title record anywhere (`custom-title` from a rename,
/// `ai-title`), by the same line rule as ``MessageLines``.
///
/// Claude Code's picker looks for titles in the last and first 64 KiB; a listing reads 8 KiB
/// first, so a file that holds a title its first windows miss is read wide
/// (``ListingWindowPolicy/widening(_:headCount:tailCount:holdsTitleRecord:)``). The remote
/// listing asks the box (`LC_ALL=C grep -l -F` with these patterns, in the pass that counts
/// messages); the local listing applies this.
public enum TitleLines {
    private static let patterns = [Array(#""type":"custom-title""#.utf8), Array(#""type":"ai-title""#.utf8)]

    /// Whether any line of `bytes` holds either pattern.
    public static func present(in bytes: [UInt8]) -> Bool {
        LinePatterns.count(in: bytes, matchingAny: patterns, stopAtFirst: true) > 0
    }
}

/// Counts lines holding any of some byte patterns.
enum LinePatterns {
    static func count(in bytes: [UInt8], matchingAny patterns: [[UInt8]], stopAtFirst: Bool = false) -> Int {
        var count = 0
        var start = 0
        bytes.withUnsafeBufferPointer { buffer in
            while start < buffer.count {
                let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
                let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
                if patterns.contains(where: { contains(line, $0) }) {
                    count += 1
                    if stopAtFirst { return }
                }
                start = end + 1
            }
        }
        return count
    }

    private static func contains(_ line: UnsafeBufferPointer<UInt8>, _ pattern: [UInt8]) -> Bool {
        guard line.count >= pattern.count, let first = pattern.first else { return false }
        var index = 0
        let last = line.count - pattern.count
        while index <= last {
            guard let found = line[index...last].firstIndex(of: first) else { return false }
            if line[found..<(found + pattern.count)].elementsEqual(pattern) { return true }
            index = found + 1
        }
        return false
    }
}
