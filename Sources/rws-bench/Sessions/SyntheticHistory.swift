import Foundation
import RWSTestSupport
import SessionHistory

/// A synthetic Claude Code history made from the real corpus: session files copied with new ids
/// and timestamps, repeated to reach the wanted sizes, spread over project folders.
struct SyntheticHistory {
    /// The session files written, by path, with their sizes.
    private(set) var files: [(path: String, id: String, size: Int)] = []
    /// The one large session.
    private(set) var big: (path: String, id: String, size: Int)?

    /// Writes `count` sessions totalling about `totalBytes` into `projects`, one of them `bigBytes` large.
    static func write(into projects: String, corpus: URL, count: Int, totalBytes: Int, bigBytes: Int) throws -> SyntheticHistory {
        let bases = try baseFiles(corpus)
        var history = SyntheticHistory()
        var random = SeededRandom(seed: 7)
        let average = (totalBytes - bigBytes) / (count - 1)
        for index in 0..<count {
            let project = projects + "/-home-dev-project-\(index % 20)"
            try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
            let base = index == 0 ? bases.max { $0.count < $1.count }! : bases[index % bases.count]
            let target = index == 0 ? bigBytes : Int.random(in: (average / 5)...(average * 9 / 5), using: &random)
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index))!.uuidString.lowercased()
            let bytes = rewrite(base, id: id, minute: index)
            var content: [UInt8] = []
            content.reserveCapacity(target + bytes.count)
            repeat { content += bytes } while content.count < target
            // Cut back to the last whole line within the target.
            if content.count > target, let end = content[..<target].lastIndex(of: UInt8(ascii: "\n")) {
                content.removeSubrange((end + 1)...)
            }
            let path = project + "/\(id).jsonl"
            try Data(content).write(to: URL(fileURLWithPath: path))
            history.files.append((path, id, content.count))
            if index == 0 { history.big = (path, id, content.count) }
        }
        return history
    }

    var totalBytes: Int { files.reduce(0) { $0 + $1.size } }

    /// The corpus's session files of some size (not agent transcripts).
    private static func baseFiles(_ corpus: URL) throws -> [[UInt8]] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
            .filter { $0.hasSuffix(".jsonl") && !$0.contains("agent-") }
            .map { [UInt8](try Data(contentsOf: corpus.appendingPathComponent($0))) }
            .filter { $0.count >= 16_000 }
    }

    /// The base with its session id replaced and every timestamp moved to a minute of its own.
    private static func rewrite(_ base: [UInt8], id: String, minute: Int) -> [UInt8] {
        var bytes = base
        if let old = SessionSummarizer.recordedSessionId(inHead: Array(base.prefix(65_536))), old.utf8.count == id.utf8.count {
            replaceAll(Array(old.utf8), with: Array(id.utf8), in: &bytes)
        }
        let date = Date(timeIntervalSince1970: 1_767_225_600 + Double(minute) * 60)
        let formatter = ISO8601DateFormatter()
        let stamp = Array(formatter.string(from: date).prefix(16).utf8)
        let key = Array(#""timestamp":""#.utf8)
        var index = 0
        while let found = find(key, in: bytes, from: index) {
            let start = found + key.count
            if start + 16 <= bytes.count, bytes[start + 10] == UInt8(ascii: "T"), bytes[start + 13] == UInt8(ascii: ":") {
                bytes.replaceSubrange(start..<(start + 16), with: stamp)
            }
            index = start
        }
        return bytes
    }

    private static func replaceAll(_ old: [UInt8], with new: [UInt8], in bytes: inout [UInt8]) {
        var index = 0
        while let found = find(old, in: bytes, from: index) {
            bytes.replaceSubrange(found..<(found + old.count), with: new)
            index = found + new.count
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var index = start
        while index <= bytes.count - pattern.count {
            if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
