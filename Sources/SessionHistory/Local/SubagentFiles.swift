import Foundation

/// Finds and reads the subagent transcripts that belong to a session, in both layouts.
enum SubagentFiles {
    /// `<dir>/<id>/subagents/**/agent-*.jsonl`, then `<dir>/agent-*.jsonl` whose records name the session.
    static func find(forSession sessionId: String, besides sessionFile: URL) throws(SessionHistoryError) -> [URL] {
        let folder = sessionFile.deletingLastPathComponent()
        var found = try nested(in: folder.appendingPathComponent(sessionId).appendingPathComponent("subagents"))
        for name in try LocalFiles.entries(of: folder) where isAgentFile(name) {
            let url = folder.appendingPathComponent(name)
            let (_, head, _) = try LocalFiles.readHeadAndTail(url, count: 16_384)
            if FieldSniffer.first("sessionId", in: head) == sessionId { found.append(url) }
        }
        return found
    }

    /// All agent files below `folder` (workflow runs nest them in subfolders).
    static func nested(in folder: URL) throws(SessionHistoryError) -> [URL] {
        var found: [URL] = []
        for name in try LocalFiles.entries(of: folder) {
            let url = folder.appendingPathComponent(name)
            if isAgentFile(name) {
                found.append(url)
            } else if !name.contains(".") {
                found += try nested(in: url)
            }
        }
        return found
    }

    static func isAgentFile(_ name: String) -> Bool {
        name.hasPrefix("agent-") && name.hasSuffix(".jsonl")
    }

    /// `a123` for `agent-a123.jsonl`.
    static func agentId(fromFileName name: String) -> String {
        String(name.dropFirst(6).dropLast(6))
    }

    /// Reads an agent file and its `.meta.json` sidecar.
    static func load(_ url: URL, retention: SourceRetention = .whole) throws(SessionHistoryError) -> SubagentSource {
        let name = url.lastPathComponent
        let records = try SessionParser.parseFile(at: url, retention: retention).records
        let metaURL = url.deletingLastPathComponent().appendingPathComponent(String(name.dropLast(6)) + ".meta.json")
        let metadata =
            FileManager.default.fileExists(atPath: metaURL.path)
            ? SubagentMetadata(json: try LocalFiles.readAll(metaURL)) : nil
        return SubagentSource(agentId: agentId(fromFileName: name), fileName: name, records: records, metadata: metadata)
    }
}
