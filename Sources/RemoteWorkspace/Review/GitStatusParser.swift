/// Reads `git status --porcelain=v2 -z --branch` output into a ``GitStatus``.
///
/// Records are NUL-terminated, so paths are taken byte for byte (newlines, quotes, non-UTF-8).
enum GitStatusParser {
    /// The status in `output`; throws ``ReviewError/malformedOutput(step:reason:)`` on a record
    /// git would not write.
    static func parse(_ output: [UInt8]) throws -> GitStatus {
        var status = GitStatus()
        var records = output.split(separator: 0, omittingEmptySubsequences: false)[...]
        if records.last?.isEmpty == true { records = records.dropLast() }
        while let record = records.popFirst() {
            guard let tag = record.first else { throw malformed("an empty record") }
            switch tag {
            case UInt8(ascii: "#"): header(Array(record), into: &status)
            case UInt8(ascii: "1"): status.entries.append(try changed(Array(record)))
            case UInt8(ascii: "2"):
                guard let original = records.popFirst() else { throw malformed("a rename without its original path") }
                status.entries.append(try renamed(Array(record), original: GitPath(bytes: Array(original))))
            case UInt8(ascii: "u"): status.entries.append(try unmerged(Array(record)))
            case UInt8(ascii: "?"):
                status.entries.append(GitStatusEntry(kind: .untracked, path: GitPath(bytes: Array(record.dropFirst(2)))))
            case UInt8(ascii: "!"): continue  // ignored files are never asked for
            default: throw malformed("a record starting with \(Character(Unicode.Scalar(tag)))")
            }
        }
        return status
    }

    private static func header(_ record: [UInt8], into status: inout GitStatus) {
        let text = String(decoding: record, as: UTF8.self)
        let words = text.split(separator: " ", maxSplits: 2).map(String.init)
        guard words.count == 3 else { return }
        switch words[1] {
        case "branch.oid": status.headCommit = words[2] == "(initial)" ? nil : words[2]
        case "branch.head": status.branch = words[2] == "(detached)" ? nil : words[2]
        case "branch.upstream": status.upstream = words[2]
        case "branch.ab":
            let counts = words[2].split(separator: " ").map { Int($0.dropFirst()) }
            if counts.count == 2 {
                status.ahead = counts[0]
                status.behind = counts[1]
            }
        default: break
        }
    }

    /// `1 XY sub mH mI mW hH hI path`
    private static func changed(_ record: [UInt8]) throws -> GitStatusEntry {
        let fields = try split(record, into: 9)
        var entry = GitStatusEntry(kind: .changed, path: GitPath(bytes: fields[8]))
        try fill(&entry, xy: fields[1], submodule: fields[2], modes: (fields[3], fields[4], fields[5]))
        return entry
    }

    /// `2 XY sub mH mI mW hH hI Xscore path` followed by the original path.
    private static func renamed(_ record: [UInt8], original: GitPath) throws -> GitStatusEntry {
        let fields = try split(record, into: 10)
        let scoreField = fields[8]
        let kind: GitStatusEntry.Kind = scoreField.first == UInt8(ascii: "C") ? .copied : .renamed
        var entry = GitStatusEntry(
            kind: kind, path: GitPath(bytes: fields[9]), originalPath: original, score: Int(text(Array(scoreField.dropFirst()))))
        try fill(&entry, xy: fields[1], submodule: fields[2], modes: (fields[3], fields[4], fields[5]))
        return entry
    }

    /// `u XY sub m1 m2 m3 mW h1 h2 h3 path`
    private static func unmerged(_ record: [UInt8]) throws -> GitStatusEntry {
        let fields = try split(record, into: 11)
        var entry = GitStatusEntry(kind: .conflicted, path: GitPath(bytes: fields[10]), conflict: text(fields[1]))
        try fill(&entry, xy: [], submodule: fields[2], modes: (fields[3], fields[4], fields[6]))
        return entry
    }

    private static func fill(
        _ entry: inout GitStatusEntry, xy: [UInt8], submodule: [UInt8], modes: ([UInt8], [UInt8], [UInt8])
    ) throws {
        if xy.count == 2 {
            entry.staged = GitStatusEntry.Change(letter: xy[0])
            entry.unstaged = GitStatusEntry.Change(letter: xy[1])
        }
        if submodule.first == UInt8(ascii: "S"), submodule.count == 4 {
            entry.isSubmodule = true
            entry.submoduleChanges = SubmoduleChanges(
                commitChanged: submodule[1] == UInt8(ascii: "C"), hasModifications: submodule[2] == UInt8(ascii: "M"),
                hasUntrackedFiles: submodule[3] == UInt8(ascii: "U"))
        }
        entry.modes = (text(modes.0), text(modes.1), text(modes.2))
    }

    /// The first `count - 1` space-separated fields, then the rest (a path may hold spaces).
    private static func split(_ record: [UInt8], into count: Int) throws -> [[UInt8]] {
        let fields = record.split(separator: UInt8(ascii: " "), maxSplits: count - 1, omittingEmptySubsequences: false).map(Array.init)
        guard fields.count == count else { throw malformed("a record with \(fields.count) fields where \(count) belong") }
        return fields
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private static func malformed(_ reason: String) -> ReviewError {
        .malformedOutput(step: "reading git status", reason: reason)
    }
}
