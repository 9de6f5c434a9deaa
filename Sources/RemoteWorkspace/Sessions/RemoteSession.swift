import SessionHistory
import SSHClient

/// A session loaded from the box with its subagent transcripts.
public struct RemoteSession: Sendable {
    /// What the listing said about it (path, size, summary, subagent files).
    public var listing: RemoteSessionListing
    /// Its records and the lines that failed to decode.
    public var lines: ParsedLines
    /// The conversation, with subagents linked.
    public var conversation: Conversation
    /// Bytes read from the session file.
    public var byteCount: Int
    /// Where the last complete line ends: follow the session from here to get what comes next.
    public var followOffset: Int

    /// The session's summary (title, cwd, branch, times, model).
    public var summary: SessionSummary { listing.summary }

    /// The conversation rendered as text, Markdown or JSON, titled with the session's title.
    public func render(_ format: ExportFormat, options: RenderOptions = RenderOptions()) -> String {
        var options = options
        options.title = options.title ?? summary.title
        return conversation.render(format, options: options)
    }
}

/// Reads a listed session and its subagent files from the box, in one remote command.
enum SessionLoader {
    static func load(_ listing: RemoteSessionListing, connection: SSHConnection, options: ConversationOptions) async throws -> RemoteSession {
        let files = [listing.file] + listing.subagentFiles
        let (contents, _) = try await RemoteByteReader(connection: connection)
            .read(files.map { RemoteByteRange(path: $0.path, offset: 0, length: $0.size) })
        let bytes = contents[0]
        let lines = SessionParser.parse(bytes)
        var metadata: [String: SubagentMetadata] = [:]
        for (file, content) in zip(files, contents) where file.path.hasSuffix(".meta.json") {
            metadata[String(file.path.dropLast(".meta.json".count))] = SubagentMetadata(json: content)
        }
        var agents: [SubagentSource] = []
        for (file, content) in zip(files, contents).dropFirst() where file.path.hasSuffix(".jsonl") {
            let name = String(file.path.split(separator: "/").last ?? "")
            let agentId = String(name.dropFirst("agent-".count).dropLast(".jsonl".count))
            agents.append(SubagentSource(agentId: agentId, fileName: name, records: SessionParser.parse(content).records,
                                         metadata: metadata[String(file.path.dropLast(".jsonl".count))]))
        }
        let conversation = ConversationBuilder.build(records: lines.records, subagentFiles: agents, options: options)
        let followOffset = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return RemoteSession(listing: listing, lines: lines, conversation: conversation, byteCount: bytes.count, followOffset: followOffset)
    }
}
