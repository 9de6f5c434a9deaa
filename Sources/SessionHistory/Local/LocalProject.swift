import Foundation

/// One session of a local project folder, as listed.
public struct LocalSessionListing: Sendable {
    /// The session file.
    public var url: URL
    /// Its summary (title, cwd, branch, times…).
    public var summary: SessionSummary
    /// Its subagent transcripts (not listed as sessions themselves).
    public var subagentFiles: [URL]
}

/// Lists the sessions of a local `~/.claude/projects/<folder>` directory.
public enum LocalProject {
    /// The sessions in `folder`, newest first, each summarised from its head and tail, with
    /// summaries found anywhere in the project applied by `leafUuid`. Agent files are attached to
    /// their parent session. Files Claude Code would not list (empty, metadata-only, sidechain)
    /// are left out unless `includeUnlisted`.
    ///
    /// - Throws: ``SessionHistoryError`` when the folder or a file cannot be read.
    public static func listSessions(in folder: URL, includeUnlisted: Bool = false) throws(SessionHistoryError) -> [LocalSessionListing] {
        let names = try LocalFiles.entries(of: folder).filter { $0.hasSuffix(".jsonl") }
        var windows: [(name: String, size: Int, head: [UInt8], tail: [UInt8])] = []
        var summaries: [String: String] = [:]
        for name in names {
            let (size, head, tail) = try LocalFiles.readHeadAndTail(folder.appendingPathComponent(name), count: SessionSummarizer.defaultWindow)
            windows.append((name, size, head, tail))
            summaries.merge(SessionSummarizer.summaries(in: head)) { _, new in new }
        }
        var agentsBySession: [String: [URL]] = [:]
        for window in windows where SubagentFiles.isAgentFile(window.name) {
            guard let parent = FieldSniffer.first("sessionId", in: window.head) else { continue }
            agentsBySession[parent, default: []].append(folder.appendingPathComponent(window.name))
        }
        var listings: [LocalSessionListing] = []
        for window in windows where !SubagentFiles.isAgentFile(window.name) {
            let summary = SessionSummarizer.summarize(
                fileName: window.name, fileSize: window.size, head: window.head, tail: window.tail, summariesByLeaf: summaries
            )
            guard includeUnlisted || summary.isListable else { continue }
            let nested = try SubagentFiles.nested(in: folder.appendingPathComponent(summary.id).appendingPathComponent("subagents"))
            listings.append(LocalSessionListing(
                url: folder.appendingPathComponent(window.name), summary: summary,
                subagentFiles: nested + (agentsBySession[summary.id] ?? [])
            ))
        }
        return listings.sorted { ($0.summary.lastTimestamp ?? "") > ($1.summary.lastTimestamp ?? "") }
    }
}
