import RemoteWorkspace
import SessionHistory

/// How `rws search` shows what it found.
enum SearchOutput {
    /// Characters of context shown on each side of a match.
    static let context = 60

    /// Per session a heading line, then one line per matching message.
    static func text(_ result: SessionSearchResult, highlight: Bool) -> String {
        guard !result.sessions.isEmpty else { return "no matches\n" }
        let width = SessionTable.idWidth(result.sessions.map(\.id))
        var out = ""
        for session in result.sessions {
            let when = session.summary.lastTimestamp.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "-"
            let title = session.summary.title ?? session.summary.firstPrompt ?? "(untitled)"
            out +=
                "\(String(session.id.prefix(width)).safeLine)  \(when.safeLine)  \(title.safeLine)  (\(session.projectFolder.safeLine))\n"
            for hit in session.hits {
                let time =
                    hit.timestamp.map { String($0.dropFirst(5).prefix(11)).replacingOccurrences(of: "T", with: " ") } ?? "           "
                let place = hit.subagentFile.map { " [\($0)]" } ?? ""
                out +=
                    "  \(pad(String(hit.line), 5)) \(pad(hit.role, 11)) \(time.safeLine)  "
                    + "\(snippet(hit, highlight: highlight))\(place.safeLine)\n"
            }
        }
        let matches = result.hits.count
        out += "\n\(result.sessions.count) session\(result.sessions.count == 1 ? "" : "s"), \(matches) message\(matches == 1 ? "" : "s")"
        if result.isTruncated { out += "; more matched: narrow with --project or --since, or raise --limit" }
        out += "\nopen one at a match: rws history ID --at UUID (uuids with --json)\n"
        return out
    }

    /// The match with up to ``context`` characters on each side, on one line.
    static func snippet(_ hit: SessionSearchHit, highlight: Bool) -> String {
        let before = oneLine(hit.before)
        let after = oneLine(hit.after)
        let shownBefore = before.count > context ? "…" + before.suffix(context) : before
        let shownAfter = after.count > context ? after.prefix(context) + "…" : after
        let match = oneLine(hit.match).safeLine
        return shownBefore.safeLine + (highlight ? "\u{1B}[1;7m" + match + "\u{1B}[0m" : match) + shownAfter.safeLine
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// `rws search --json`.
struct SearchJSON: Encodable {
    struct Session: Encodable {
        let id: String
        let title: String?
        let project: String
        let path: String
        let modified: Int
        let hits: [Hit]
    }

    struct Hit: Encodable {
        let line: Int
        let role: String
        let uuid: String?
        let timestamp: String?
        let key: String?
        let before: String
        let match: String
        let after: String
        let matchCount: Int
        let subagentFile: String?
    }

    let query: String
    let sessions: [Session]
    let matchedFiles: Int
    let truncated: Bool

    init(query: String, result: SessionSearchResult) {
        self.query = query
        sessions = result.sessions.map { session in
            Session(
                id: session.id, title: session.summary.title, project: session.projectFolder, path: session.file.path,
                modified: session.file.modified,
                hits: session.hits.map {
                    Hit(
                        line: $0.line, role: $0.role, uuid: $0.uuid, timestamp: $0.timestamp, key: $0.key, before: $0.before,
                        match: $0.match, after: $0.after, matchCount: $0.matchCount, subagentFile: $0.subagentFile)
                })
        }
        matchedFiles = result.matchedFileCount
        truncated = result.isTruncated
    }
}
