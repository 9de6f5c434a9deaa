import SessionHistory

/// One file the script found matches in.
struct SearchedFile: Sendable {
    /// The file on the box (`folder/project/…`).
    var file: RemoteFile
    /// Its project folder's name.
    var projectFolder: String
    /// The matching records sent back, in file order.
    var hits: [SessionSearchHit]
}

/// Reads the search script's sections back into files and hits.
struct SessionSearchOutput {
    private(set) var files: [SearchedFile] = []
    private(set) var matchedFileCount = 0
    private(set) var isTruncated = false

    private let folders: [String]
    private let limits: SessionSearchLimits
    private let isRegex: Bool
    private let sinceTimestamp: String?

    init(folders: [String], limits: SessionSearchLimits, isRegex: Bool, sinceTimestamp: String?) {
        self.folders = folders
        self.limits = limits
        self.isRegex = isRegex
        self.sinceTimestamp = sinceTimestamp
    }

    /// Takes every section of one run (the `end` marker already checked).
    mutating func take(_ sections: [OutputSection]) throws {
        var folder: String?
        var stats: [(size: Int, modified: Int, path: String)] = []
        for section in sections {
            let words = section.fields(3)
            switch words[0] {
            case "dir":
                guard words.count == 3, let index = Int(words[1]), folders.indices.contains(index - 1), let matched = Int(words[2]) else {
                    throw RemoteSessionError.malformedOutput(step: SessionSearchScript.script.step, reason: "a folder header is garbled")
                }
                folder = folders[index - 1]
                matchedFileCount += matched
                if matched > limits.files { isTruncated = true }
            case "files": stats = Self.statLines(section.content)
            case "hits":
                guard let folder else { continue }
                let hits = hits(section.content)
                for stat in stats {
                    guard let found = hits[stat.path], !found.isEmpty else { continue }
                    let path = Self.join(folder, String(stat.path.dropFirst(2)))
                    let project = String(stat.path.dropFirst(2).prefix { $0 != "/" })
                    files.append(
                        SearchedFile(
                            file: RemoteFile(path: path, size: stat.size, modified: stat.modified), projectFolder: project, hits: found))
                }
            default: continue
            }
        }
    }

    /// The records a conversation is made of, by their first `type` (the API message's or a
    /// content block's when the message comes before the record's own type; none at all from
    /// other writers). Claude
    /// Code's bookkeeping copies of a prompt (`queue-operation`, `last-prompt`, the
    /// `api-request-blob` of the request) and whatever it adds later are not searched.
    static let conversationTypes: Set<String> = [
        "", "user", "assistant", "system", "summary", "custom-title", "ai-title", "message", "text", "tool_use", "tool_result", "thinking",
        "image", "document",
    ]

    /// `size mtime ./path` lines.
    private static func statLines(_ content: [UInt8]) -> [(size: Int, modified: Int, path: String)] {
        content.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
            guard fields.count == 3, let size = Int(String(decoding: fields[0], as: UTF8.self)),
                let modified = Int(String(decoding: fields[1], as: UTF8.self))
            else { return nil }
            return (size, modified, String(decoding: fields[2], as: UTF8.self))
        }
    }

    /// The `f`/`h`/`r`/`u`/`t`/`w` lines of the awk pass, by file.
    private mutating func hits(_ content: [UInt8]) -> [String: [SessionSearchHit]] {
        var result: [String: [SessionSearchHit]] = [:]
        var file = ""
        var record: (line: Int, type: String, role: String, uuid: String, timestamp: String, windows: [SearchWindow])?
        func close() {
            guard let open = record else { return }
            record = nil
            guard Self.conversationTypes.contains(open.type) else { return }
            if let hit = hit(open.line, open.role, open.uuid, open.timestamp, open.windows) { result[file, default: []].append(hit) }
        }
        for line in content.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            guard line.elementsEqual([UInt8(ascii: "x")]) || (line.count >= 2 && line[line.startIndex + 1] == UInt8(ascii: " ")) else {
                continue
            }
            let kind = line[line.startIndex]
            let rest = line.dropFirst(2)
            let text = { String(decoding: rest, as: UTF8.self) }
            switch kind {
            case UInt8(ascii: "f"):
                close()
                file = text()
            case UInt8(ascii: "h"):
                close()
                let fields = text().split(separator: " ")
                guard let number = fields.first.flatMap({ Int($0) }) else { continue }
                if let count = fields.dropFirst().first.flatMap({ Int($0) }), count >= limits.matchesPerRecord { isTruncated = true }
                record = (number, "", "", "", "", [])
            case UInt8(ascii: "x"):
                close()
                isTruncated = true
            case UInt8(ascii: "y"): record?.type = text()
            case UInt8(ascii: "r"): record?.role = text()
            case UInt8(ascii: "u"): record?.uuid = text()
            case UInt8(ascii: "t"): record?.timestamp = text()
            case UInt8(ascii: "w"):
                let fields = rest.split(separator: UInt8(ascii: " "), maxSplits: 3, omittingEmptySubsequences: false)
                guard fields.count == 4, let start = Int(String(decoding: fields[1], as: UTF8.self)),
                    let length = Int(String(decoding: fields[2], as: UTF8.self))
                else { continue }
                record?.windows.append(SearchWindow(bytes: Array(fields[3]), matchStart: start, matchLength: length))
            default: continue
            }
        }
        close()
        return result
    }

    /// The hit for one record, nil when none of its matches is in conversation text (or it was
    /// written before `since`).
    private func hit(_ line: Int, _ role: String, _ uuid: String, _ timestamp: String, _ windows: [SearchWindow]) -> SessionSearchHit? {
        if let sinceTimestamp, !timestamp.isEmpty, timestamp < sinceTimestamp { return nil }
        var first: (window: SearchWindow, key: String?)?
        var count = 0
        for window in windows {
            let verdict: (isText: Bool, key: String?) = isRegex ? (true, nil) : window.textKey()
            guard verdict.isText else { continue }
            count += 1
            if first == nil { first = (window, verdict.key) }
        }
        guard let first else { return nil }
        let snippet = first.window.snippet()
        return SessionSearchHit(
            line: line, role: role.isEmpty ? "record" : role, uuid: uuid.isEmpty ? nil : uuid,
            timestamp: timestamp.isEmpty ? nil : timestamp,
            key: first.key, before: snippet.before, match: snippet.match, after: snippet.after, matchCount: count, subagentFile: nil)
    }

    private static func join(_ folder: String, _ path: String) -> String {
        folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }
}
