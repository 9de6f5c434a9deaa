import Foundation

/// Summarises a session from the first and last few kilobytes of its file, never the whole file,
/// so a remote browser can list thousands of sessions from one small fetch per file.
public enum SessionSummarizer {
    /// How many bytes of head and of tail Claude Code's own lister reads (64 KiB).
    public static let defaultWindow = 65_536

    /// Summarises a session from its head and tail bytes.
    ///
    /// - Parameters:
    ///   - fileName: the file name (`<id>.jsonl`) or the bare session id.
    ///   - fileSize: the whole file's size in bytes.
    ///   - head: the file's first bytes (may end mid-line).
    ///   - tail: the file's last bytes (may start mid-line); may overlap `head` or equal it.
    ///   - summariesByLeaf: the project's `summary` records by `leafUuid` (see
    ///     ``summaries(in:)``); summaries in this file's head and tail are added to it.
    public static func summarize(
        fileName: String, fileSize: Int, head: [UInt8], tail: [UInt8], summariesByLeaf: [String: String] = [:]
    ) -> SessionSummary {
        let window = HeadTailWindow(fileSize: fileSize, head: head, tail: tail)
        var summary = SessionSummary(id: sessionId(fromFileName: fileName), fileSize: fileSize)
        fillFields(&summary, window: window)
        var summaries = summariesByLeaf
        for record in window.headRecords + window.tailRecords {
            if case .summary(let item) = record.kind, let leaf = item.leafUuid { summaries[leaf] = item.summary }
        }
        (summary.title, summary.titleSource) = title(window: window, firstPrompt: &summary.firstPrompt, summaries: summaries)
        return summary
    }

    /// Reads a local file's head and tail and summarises it.
    ///
    /// - Throws: ``SessionHistoryError/unreadableFile(path:reason:)``.
    public static func summarize(
        fileAt url: URL, window: Int = defaultWindow, summariesByLeaf: [String: String] = [:]
    ) throws(SessionHistoryError) -> SessionSummary {
        let (size, head, tail) = try LocalFiles.readHeadAndTail(url, count: window)
        return summarize(fileName: url.lastPathComponent, fileSize: size, head: head, tail: tail, summariesByLeaf: summariesByLeaf)
    }

    /// The `summary` records in some bytes of a file (usually its head, where Claude Code writes
    /// them), by `leafUuid`. Merge these over a project's files to title sessions whose summary
    /// lives in another session's file.
    public static func summaries(in bytes: [UInt8]) -> [String: String] {
        let lines = SessionParser.parse(range: bytes, fileOffset: 0, startsAtLineStart: true, reachesEndOfFile: false)
        var result: [String: String] = [:]
        for record in lines.records {
            if case .summary(let item) = record.kind, let leaf = item.leafUuid { result[leaf] = item.summary }
        }
        return result
    }

    /// The `sessionId` named by the first records in `head`, found by byte search so that a torn
    /// first line still gives it: for an `agent-*.jsonl` file, the session that started the agent.
    public static func recordedSessionId(inHead head: [UInt8]) -> String? {
        FieldSniffer.first("sessionId", in: head)
    }

    /// `abc` for `abc.jsonl`, `abc` for `abc`.
    static func sessionId(fromFileName name: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        return base.hasSuffix(".jsonl") ? String(base.dropLast(6)) : base
    }

    private static func fillFields(_ summary: inout SessionSummary, window: HeadTailWindow) {
        let head = window.headRecords.map(\.envelope)
        let tail = window.tailRecords.map(\.envelope)
        summary.cwd = head.lazy.compactMap(\.cwd).first ?? window.sniffHead("cwd")
        summary.firstTimestamp =
            head.lazy.compactMap(\.timestamp).first ?? window.sniffHead("timestamp")
            ?? tail.lazy.compactMap(\.timestamp).first ?? FieldSniffer.first("timestamp", in: window.tail)
        // Only the tail knows the last time: the head's first time is no stand-in unless it is the whole file.
        summary.lastTimestamp =
            tail.lazy.compactMap(\.timestamp).last ?? window.sniffTail("timestamp")
            ?? (window.headIsWholeFile ? summary.firstTimestamp : nil)
        summary.gitBranch =
            tail.lazy.compactMap(\.gitBranch).last ?? head.lazy.compactMap(\.gitBranch).first ?? window.sniffHead("gitBranch")
        summary.version = tail.lazy.compactMap(\.version).last ?? head.lazy.compactMap(\.version).first ?? window.sniffHead("version")
        let models = { (records: [SessionRecord]) in
            records.compactMap { $0.assistant }.filter { !$0.isSynthetic }.compactMap(\.model)
        }
        summary.model = models(window.tailRecords).last ?? models(window.headRecords).first
        summary.tag = lastMetadata(.tag, in: window.tailRecords)
        let latest = { (kind: MetadataKind) in lastMetadata(kind, in: window.tailRecords) ?? lastMetadata(kind, in: window.headRecords) }
        summary.continuedIn = latest(.continuedIn)
        summary.permissionMode = permissionMode(in: window.tailRecords) ?? permissionMode(in: window.headRecords)
        summary.provider = latest(.apiRequestRoute)
        summary.costUSD =
            window.tailRecords.lazy.reversed().compactMap { record -> Double? in
                if case .costState(let cost) = record.kind { return cost.totalCostUSD }
                return nil
            }.first
        summary.isSidechain = window.headRecords.first?.envelope.isSidechain ?? window.headStartsWithSidechain
        summary.activity = SessionActivity.of(window.tailRecords)
        summary.contextUse = ContextUse.last(in: window.tailRecords)
    }

    private static func title(
        window: HeadTailWindow, firstPrompt: inout String?, summaries: [String: String]
    ) -> (String?, TitleSource?) {
        let prompt = FirstPromptRules.firstPrompt(in: window.headRecords)
        firstPrompt = prompt.flatMap { $0.isCommand ? nil : $0.text }
        let fold = { (text: String) in FirstPromptRules.truncate(FirstPromptRules.fold(text)) }
        let candidates: [(String?, TitleSource)] = [
            (lastMetadata(.customTitle, in: window.tailRecords) ?? lastMetadata(.customTitle, in: window.headRecords), .customTitle),
            (lastMetadata(.aiTitle, in: window.tailRecords) ?? lastMetadata(.aiTitle, in: window.headRecords), .aiTitle),
            (lastMetadata(.lastPrompt, in: window.tailRecords), .lastPrompt),
            (summaryByLeaf(window: window, summaries: summaries), .summary),
            (prompt?.text, prompt?.isCommand == true ? .command : .firstPrompt),
            (tornFirstPrompt(window), .firstPrompt),
        ]
        for (text, source) in candidates {
            if let text, !fold(text).isEmpty { return (fold(text), source) }
        }
        return (nil, nil)
    }

    /// A first line longer than the head (a long pasted prompt) gives no record: its prompt is
    /// what the head holds of its texts, else the first prompt of the tail.
    private static func tornFirstPrompt(_ window: HeadTailWindow) -> String? {
        guard window.headRecords.isEmpty, !window.headIsWholeFile else { return nil }
        if window.headStartsWithUser {
            let firstLine = Array(window.head.prefix { $0 != 0x0A })
            let texts = FieldSniffer.allWithTornLast("content", in: firstLine) + FieldSniffer.allWithTornLast("text", in: firstLine)
            if let text = texts.first(where: FirstPromptRules.isPromptText) { return text }
        }
        return FirstPromptRules.firstPrompt(in: window.tailRecords).flatMap { $0.isCommand ? nil : $0.text }
    }

    /// The latest mode a `permission-mode` record or a prompt names: print mode writes no
    /// `permission-mode` record, its prompts carry the mode.
    private static func permissionMode(in records: [SessionRecord]) -> String? {
        for record in records.reversed() {
            if case .metadata(let item) = record.kind, item.kind == .permissionMode, let value = item.value { return value }
            if let mode = record.user?.permissionMode { return mode }
        }
        return nil
    }

    private static func lastMetadata(_ kind: MetadataKind, in records: [SessionRecord]) -> String? {
        for record in records.reversed() {
            if case .metadata(let item) = record.kind, item.kind == kind, let value = item.value { return value }
        }
        return nil
    }

    /// The summary of the latest message of this file that one describes.
    private static func summaryByLeaf(window: HeadTailWindow, summaries: [String: String]) -> String? {
        guard !summaries.isEmpty else { return nil }
        for record in (window.headRecords + window.tailRecords).reversed() where record.isTranscriptEntry {
            if let uuid = record.envelope.uuid, let text = summaries[uuid] { return text }
        }
        return nil
    }
}
