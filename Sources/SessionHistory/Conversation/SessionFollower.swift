/// Follows a growing session file: feed it the bytes appended since last time, get the new
/// records and what changed in the conversation.
///
/// A chunk may end mid-line; that line is decoded when its end arrives. Records are taken in
/// file order (a live session appends to its current branch), sidechain and meta records are
/// left out of the events as in the displayed conversation, and chunks of one response are
/// merged into one entry, reported as ``ConversationEvent/updated(_:index:)``.
public struct SessionFollower: Sendable {
    private var stream: SessionStream
    private var assembler = TranscriptAssembler(isSidechainTranscript: false)

    /// Starts at the beginning of a file, or resumes at a line start already read.
    public init(byteOffset: Int = 0, lineNumber: Int = 1) {
        stream = SessionStream(byteOffset: byteOffset, lineNumber: lineNumber)
    }

    /// Goes on from `conversation`, loaded from the file up to `byteOffset` (a line start): new
    /// entries are numbered after its entries, and a chunk or tool result that completes one of
    /// them is an ``ConversationEvent/updated(_:index:)`` of it. Fed the rest of the file, the
    /// follower's ``entries`` are those of the whole file loaded at once, for a session written
    /// on one branch (a rewind is seen in file order, not by the loaded chain).
    public init(continuing conversation: Conversation, byteOffset: Int, lineNumber: Int = 1) {
        stream = SessionStream(byteOffset: byteOffset, lineNumber: lineNumber)
        assembler = TranscriptAssembler(isSidechainTranscript: conversation.agentId != nil, continuing: conversation.entries)
    }

    /// The file offset to read from next time.
    public var committedByteOffset: Int { stream.committedByteOffset }

    /// The conversation entries built so far.
    public var entries: [ConversationEntry] { assembler.entries }

    /// Decodes the lines completed by `chunk` and reports their effect.
    public mutating func append(_ chunk: some Collection<UInt8>) -> FollowUpdate {
        apply(stream.append(chunk))
    }

    /// Treats a waiting incomplete line as the end of the file.
    public mutating func finish() -> FollowUpdate {
        apply(stream.finish())
    }

    private mutating func apply(_ lines: ParsedLines) -> FollowUpdate {
        var update = FollowUpdate(records: lines.records, issues: lines.issues)
        for record in lines.records {
            if case .metadata(let metadata) = record.kind {
                update.events.append(.metadata(metadata))
                continue
            }
            let countBefore = assembler.entries.count
            guard let index = assembler.add(record) else { continue }
            let entry = assembler.entries[index]
            update.events.append(index >= countBefore ? .added(entry, index: index) : .updated(entry, index: index))
        }
        return update
    }
}

/// What one chunk of a followed file brought.
public struct FollowUpdate: Sendable {
    /// The records completed by the chunk.
    public var records: [SessionRecord]
    /// Lines that failed to decode.
    public var issues: [LineIssue]
    /// The changes to the conversation, in order.
    public var events: [ConversationEvent]

    /// Creates an update.
    public init(records: [SessionRecord] = [], issues: [LineIssue] = [], events: [ConversationEvent] = []) {
        self.records = records
        self.issues = issues
        self.events = events
    }
}

/// A change to a followed conversation.
public enum ConversationEvent: Sendable {
    /// A new entry at `index` (a prompt, the first chunk of a response, a compaction).
    case added(ConversationEntry, index: Int)
    /// The entry at `index` changed: another chunk of the response, or a tool result attached.
    case updated(ConversationEntry, index: Int)
    /// A title, tag or mode record was written.
    case metadata(MetadataRecord)
}
