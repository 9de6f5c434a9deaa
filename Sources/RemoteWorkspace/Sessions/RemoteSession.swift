import SSHClient
import SessionHistory

/// A session loaded from the box with its subagent transcripts.
public struct RemoteSession: Sendable {
    /// What the listing said about it (path, size, summary, subagent files).
    public var listing: RemoteSessionListing
    /// Its records and the lines that failed to decode (of the bytes read: from ``firstByteOffset``).
    public var lines: ParsedLines
    /// The conversation, with subagents linked (none when only the last messages were read).
    public var conversation: Conversation
    /// Bytes of the session file held: from ``firstByteOffset`` to the size listed.
    public var byteCount: Int
    /// Where the bytes held start: 0 for a whole session, later when only the last messages were read.
    public var firstByteOffset: Int
    /// Where the last complete line ends: follow the session from here to get what comes next.
    public var followOffset: Int
    /// Bytes that crossed the connection to load it (compressed when the box has gzip).
    public var bytesTransferred: Int
    /// The most messages shown (`last:`), nil for all.
    public var messageLimit: Int?
    /// The subagent transcripts read, kept so that a reload reads them again only when they changed.
    var subagentSources: [SubagentSource]
    /// What the records keep of the bytes read; a reload keeps the same.
    var retention: SourceRetention

    /// The session's summary (title, cwd, branch, times, model).
    public var summary: SessionSummary { listing.summary }

    /// The conversation rendered as text, Markdown or JSON, titled with the session's title.
    public func render(_ format: ExportFormat, options: RenderOptions = RenderOptions()) -> String {
        conversation.render(format, options: options.forSession(title: summary.title, lineIssues: lines.issues))
    }

    /// ``render(_:options:)`` handed to `write` a piece at a time as it is written.
    public func render(_ format: ExportFormat, options: RenderOptions = RenderOptions(), into write: (String) -> Void) {
        conversation.render(format, options: options.forSession(title: summary.title, lineIssues: lines.issues), into: write)
    }
}

/// How ``RemoteSessions`` reads a session.
public struct SessionLoadOptions: Sendable, Equatable {
    /// How the conversation is built.
    public var conversation: ConversationOptions
    /// Only the last this many messages (user turns and responses): the file is read backwards
    /// from its end until they are all in; subagent transcripts are not read. Nil reads it all.
    public var lastMessages: Int?
    /// How the bytes cross the link (``TransferCompression/automatic``).
    public var compression: TransferCompression
    /// The first stretch read from the end with ``lastMessages`` (256 KiB); each next one is 4× larger.
    public var firstTailWindow: Int
    /// What the records keep of the bytes read. With `SourceRetention.conversation` a whole
    /// session is streamed from the box and decoded as it arrives: neither the bytes nor their
    /// compressed form are ever held whole.
    public var retention: SourceRetention

    /// Creates options.
    ///
    /// - Parameters:
    ///   - conversation: How the conversation is built.
    ///   - lastMessages: Only the last this many messages; nil for all.
    ///   - compression: How the bytes cross the link.
    ///   - firstTailWindow: Bytes read first from the end with `lastMessages`.
    ///   - retention: What the records keep of the bytes read.
    public init(
        conversation: ConversationOptions = ConversationOptions(), lastMessages: Int? = nil,
        compression: TransferCompression = .automatic, firstTailWindow: Int = 262_144, retention: SourceRetention = .whole
    ) {
        self.conversation = conversation
        self.lastMessages = lastMessages.map { max(0, $0) }
        self.compression = compression
        self.firstTailWindow = max(4_096, firstTailWindow)
        self.retention = retention
    }
}
