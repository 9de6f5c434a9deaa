/// One file the listing script saw: `stat` says its identity (device and inode), size and mtime.
struct StatLine: Sendable, Equatable {
    /// `<device>_<inode>`: changes when the file is replaced.
    var identity: String
    var size: Int
    /// Modification time, seconds since the epoch.
    var mtime: Int
    /// The path below the projects folder: `<project>/<id>.jsonl`, `<project>/<id>/subagents/agent-x.jsonl`.
    var path: String

    init?(line: Substring) {
        let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count == 4, let size = Int(fields[1]), let mtime = Int(fields[2]), fields[3].hasPrefix("./") else { return nil }
        identity = String(fields[0])
        self.size = size
        self.mtime = mtime
        path = String(fields[3].dropFirst(2))
    }

    /// Whether this is a session file directly inside a project folder (not a subagent or sidecar).
    var isTopLevelTranscript: Bool {
        path.hasSuffix(".jsonl") && path.utf8.lazy.filter { $0 == UInt8(ascii: "/") }.count == 1
    }
}

/// Bytes of one file at an offset, read by the listing.
struct FileBytes: Sendable {
    var offset: Int
    var bytes: [UInt8]
    var isExact: Bool
}

/// What the listing script reported for one projects folder.
struct ListedFolder: Sendable {
    /// The projects folder as the client named it (`~/.claude/projects`).
    var folder: String
    var files: [StatLine] = []
    /// First bytes of new files, by path below the folder.
    var heads: [String: FileBytes] = [:]
    /// Last bytes of new files larger than the window.
    var tails: [String: FileBytes] = [:]
    /// Appended bytes of grown files.
    var ranges: [String: [FileBytes]] = [:]
    /// New and grown files holding a title record in their wide windows, by path below the folder.
    var titled: Set<String> = []

    /// Splits the sections the script sends before its `counting` marker into folders.
    static func parse(_ sections: [OutputSection], folders: [String], window: Int) throws -> [ListedFolder] {
        var result: [ListedFolder] = []
        for section in sections {
            let words = section.fields(3)
            switch words.first {
            case "dir":
                guard words.count == 2, let index = Int(words[1]), folders.indices.contains(index - 1) else {
                    throw malformed("bad folder marker")
                }
                var folder = ListedFolder(folder: folders[index - 1])
                for line in section.content.split(separator: UInt8(ascii: "\n")) {
                    if let stat = StatLine(line: Substring(decoding: line, as: UTF8.self)) { folder.files.append(stat) }
                }
                result.append(folder)
            case "heads", "tails":
                guard !result.isEmpty else { throw malformed("file bytes before a folder") }
                try result[result.count - 1].takeMultiFile(section, window: window)
            case "titled":
                guard !result.isEmpty else { throw malformed("titled before a folder") }
                for line in section.content.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array("./".utf8)) {
                    result[result.count - 1].titled.insert(String(decoding: line.dropFirst(2), as: UTF8.self))
                }
            case "range":
                guard words.count == 4, let offset = Int(words[1]), let length = Int(words[2]), !result.isEmpty else {
                    throw malformed("bad range marker")
                }
                let path = String(words[3].dropFirst(2))
                let piece = FileBytes(offset: offset, bytes: section.content, isExact: section.content.count == length)
                result[result.count - 1].ranges[path, default: []].append(piece)
            default:
                throw malformed("unknown marker \(section.header.prefix(40))")
            }
        }
        return result
    }

    /// The message lines of new and grown files (`grep -c` on the box), from the sections after
    /// the `counting` marker: by projects folder as the client names it, then by path below it.
    static func counts(in sections: [OutputSection], folders: [String]) throws -> [String: [String: Int]] {
        var result: [String: [String: Int]] = [:]
        for section in sections {
            let words = section.fields(2)
            guard words.first == "counts", words.count == 2, let index = Int(words[1]), folders.indices.contains(index - 1) else {
                throw malformed("unknown marker \(section.header.prefix(40)) among the counts")
            }
            for line in section.content.split(separator: UInt8(ascii: "\n")) {
                // `./project/id.jsonl:12`; the count follows the last colon.
                guard let colon = line.lastIndex(of: UInt8(ascii: ":")),
                    let count = Int(String(decoding: line[(colon + 1)...], as: UTF8.self)),
                    line.starts(with: Array("./".utf8))
                else { continue }
                result[folders[index - 1], default: [:]][String(decoding: line[(line.startIndex + 2)..<colon], as: UTF8.self)] = count
            }
        }
        return result
    }

    private mutating func takeMultiFile(_ section: OutputSection, window: Int) throws {
        var sizes: [String: Int] = [:]
        for file in files where file.isTopLevelTranscript { sizes["./" + file.path] = file.size }
        let pieces = MultiFileOutput.split(section.content) { name in sizes[name].map { min($0, window) } }
        for (name, piece) in pieces where name != "/dev/null" {
            let path = String(name.dropFirst(2))
            if section.header == "heads" {
                heads[path] = FileBytes(offset: 0, bytes: piece.bytes, isExact: piece.isExact)
            } else {
                let size = sizes[name] ?? piece.bytes.count
                tails[path] = FileBytes(offset: size - piece.bytes.count, bytes: piece.bytes, isExact: piece.isExact)
            }
        }
    }

    private static func malformed(_ reason: String) -> RemoteSessionError {
        .malformedOutput(step: ListingScript.script.step, reason: reason)
    }
}
