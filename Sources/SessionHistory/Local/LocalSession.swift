import Foundation

/// A session file on the local disk, loaded with its subagent files.
public struct LocalSession: Sendable {
    /// The session file.
    public var url: URL
    /// Its records and the lines that failed to decode.
    public var lines: ParsedLines
    /// The conversation, with subagents linked.
    public var conversation: Conversation
    /// The summary (title, cwd, branch, times, model) computed from the same bytes.
    public var summary: SessionSummary

    /// Loads `url` and the subagent transcripts stored next to it: `<session>/subagents/**/agent-*.jsonl`
    /// (with `.meta.json` sidecars), and `agent-*.jsonl` beside the file whose records name this session.
    /// An `agent-*.jsonl` file itself loads as that subagent's conversation.
    ///
    /// With ``SourceRetention/conversation`` the files are decoded a chunk at a time and never
    /// held whole: memory follows what is shown.
    ///
    /// - Throws: ``SessionHistoryError`` when a file or folder cannot be read.
    public static func load(
        at url: URL, options: ConversationOptions = ConversationOptions(), retention: SourceRetention = .whole
    ) throws(SessionHistoryError) -> LocalSession {
        // Held whole, the bytes give the summary's windows too; streamed, the windows are read apart.
        let bytes = retention == .whole ? try LocalFiles.readAll(url) : nil
        let lines: ParsedLines
        if let bytes { lines = SessionParser.parse(bytes) } else { lines = try SessionParser.parseFile(at: url, retention: retention) }
        let conversation: Conversation
        if SubagentFiles.isAgentFile(url.lastPathComponent) {
            // A subagent file opened on its own: its sidechain records are its conversation.
            conversation = ConversationBuilder.transcript(records: lines.records, isSidechainTranscript: true, options: options)
        } else {
            let sessionId = SessionSummarizer.sessionId(fromFileName: url.lastPathComponent)
            let agents = try SubagentFiles.find(forSession: sessionId, besides: url).map { (file) throws(SessionHistoryError) in
                try SubagentFiles.load(file, retention: retention)
            }
            conversation = ConversationBuilder.build(records: lines.records, subagentFiles: agents, options: options)
        }
        let window = SessionSummarizer.defaultWindow
        let (size, head, tail) =
            if let bytes { (bytes.count, Array(bytes.prefix(window)), Array(bytes.suffix(window))) } else {
                try LocalFiles.readHeadAndTail(url, count: window)
            }
        var summary = SessionSummarizer.summarize(fileName: url.lastPathComponent, fileSize: size, head: head, tail: tail)
        // A last record larger than the window: the tail grows as a listing's does.
        var grownTail = tail
        while let count = ListingWindowPolicy().tailGrowth(summary, tail: grownTail) {
            grownTail = if let bytes { Array(bytes.suffix(count)) } else { try LocalFiles.read(url, offset: size - count, count: count) }
            summary = SessionSummarizer.summarize(fileName: url.lastPathComponent, fileSize: size, head: head, tail: grownTail)
        }
        return LocalSession(url: url, lines: lines, conversation: conversation, summary: summary)
    }

    /// The conversation rendered as text, Markdown or JSON, titled with the session's title.
    public func render(_ format: ExportFormat, options: RenderOptions = RenderOptions()) -> String {
        conversation.render(format, options: options.forSession(title: summary.title, lineIssues: lines.issues))
    }

    /// ``render(_:options:)`` handed to `write` a piece at a time as it is written.
    public func render(_ format: ExportFormat, options: RenderOptions = RenderOptions(), into write: (String) -> Void) {
        conversation.render(format, options: options.forSession(title: summary.title, lineIssues: lines.issues), into: write)
    }

    /// Usage of the session plus all its subagents.
    public var totalUsage: UsageReport { conversation.totalUsage }
}
