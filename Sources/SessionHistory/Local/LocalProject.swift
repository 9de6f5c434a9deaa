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
    /// The sessions in `folder`, newest first, each summarised from its head and tail read as
    /// `policy` says (the remote listing reads the same bytes, so both say the same), with
    /// summaries found anywhere in the project applied by `leafUuid`. Agent files are attached to
    /// their parent session. Files Claude Code would not list (empty, metadata-only, sidechain)
    /// are left out unless `includeUnlisted`.
    ///
    /// - Throws: ``SessionHistoryError`` when the folder or a file cannot be read.
    public static func listSessions(
        in folder: URL, includeUnlisted: Bool = false, policy: ListingWindowPolicy = ListingWindowPolicy()
    ) throws(SessionHistoryError) -> [LocalSessionListing] {
        var windows: [Window] = []
        for name in try LocalFiles.entries(of: folder) where name.hasSuffix(".jsonl") {
            let url = folder.appendingPathComponent(name)
            // Read whole once: the message count needs every line anyway.
            let whole = try LocalFiles.readAll(url)
            let size = whole.count
            let head = Array(whole.prefix(policy.first))
            let tail = size > policy.first ? Array(whole.suffix(policy.first)) : head
            windows.append(
                Window(
                    name: name, url: url, size: size, modified: try LocalFiles.modificationTime(url), head: head, tail: tail,
                    messageCount: MessageLines.count(in: whole), holdsTitleRecord: TitleLines.present(inFirstOrLast: policy.wide, of: whole)
                ))
        }
        var summaries = Window.summaries(windows)
        for index in windows.indices {
            let window = windows[index]
            let (head, tail) = policy.widening(
                window.summary(summaries), headCount: window.head.count, tailCount: window.tail.count,
                holdsTitleRecord: window.holdsTitleRecord)
            if head { windows[index].head = try LocalFiles.read(window.url, offset: 0, count: policy.wide) }
            if tail { windows[index].tail = try LocalFiles.read(window.url, offset: window.size - policy.wide, count: policy.wide) }
            while let count = policy.tailGrowth(windows[index].summary(summaries), tail: windows[index].tail) {
                windows[index].tail = try LocalFiles.read(window.url, offset: window.size - count, count: count)
            }
        }
        summaries = Window.summaries(windows)
        var agentsBySession: [String: [URL]] = [:]
        for window in windows where SubagentFiles.isAgentFile(window.name) {
            guard let parent = FieldSniffer.first("sessionId", in: window.head) else { continue }
            agentsBySession[parent, default: []].append(window.url)
        }
        var listings: [LocalSessionListing] = []
        for window in windows where !SubagentFiles.isAgentFile(window.name) {
            var summary = window.summary(summaries)
            guard includeUnlisted || summary.isListable else { continue }
            let nested = try SubagentFiles.nested(in: folder.appendingPathComponent(summary.id).appendingPathComponent("subagents"))
            let subagents = nested + (agentsBySession[summary.id] ?? [])
            summary.fillListingFields(modificationTime: window.modified, subagentFileNames: subagents.map(\.lastPathComponent))
            summary.messageCount = window.messageCount
            listings.append(LocalSessionListing(url: window.url, summary: summary, subagentFiles: subagents))
        }
        let earlier = SessionSummary.continuations(among: listings.map(\.summary))
        for index in listings.indices { listings[index].summary.continuedFrom = earlier[listings[index].summary.id] }
        return listings.sorted { ($0.summary.lastTimestamp ?? "") > ($1.summary.lastTimestamp ?? "") }
    }

    /// The bytes of one file a listing holds.
    private struct Window {
        var name: String
        var url: URL
        var size: Int
        var modified: Int
        var head: [UInt8]
        var tail: [UInt8]
        var messageCount: Int
        var holdsTitleRecord: Bool

        func summary(_ summariesByLeaf: [String: String]) -> SessionSummary {
            SessionSummarizer.summarize(fileName: name, fileSize: size, head: head, tail: tail, summariesByLeaf: summariesByLeaf)
        }

        /// The `summary` records of every head, later file names winning.
        static func summaries(_ windows: [Window]) -> [String: String] {
            windows.reduce(into: [:]) { map, window in map.merge(SessionSummarizer.summaries(in: window.head)) { _, new in new } }
        }
    }
}
