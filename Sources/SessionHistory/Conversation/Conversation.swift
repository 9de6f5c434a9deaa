/// The conversation a session file displays, built with Claude Code's own chain rule.
public struct Conversation: Sendable {
    /// The session id (from the records; in subagent files, the parent's id).
    public var sessionId: String?
    /// The subagent id when this is a subagent transcript.
    public var agentId: String?
    /// What is shown, in order: prompts, merged responses, compaction markers.
    public var entries: [ConversationEntry]
    /// Token usage of every response in the file (all branches), de-duplicated by message id.
    public var usage: UsageReport
    /// Subagents started from this conversation, each linked to its tool call when known.
    public var subagents: [Subagent]
    /// The uuid of the leaf the chain was walked from.
    public var leafUuid: String?
    /// How many other leaves of the same kind the file holds that are not shown: branches
    /// abandoned by editing an earlier prompt or rewinding.
    public var otherLeafCount: Int
    /// The records of types rws does not know (``RecordTypeCensus``), each as written: kept
    /// apart from what is shown, and carried raw by the JSON export (`unknownRecords`).
    public var unknownRecords: [RawJSON] = []

    /// Creates a conversation.
    public init(
        sessionId: String? = nil, agentId: String? = nil, entries: [ConversationEntry] = [], usage: UsageReport = UsageReport(),
        subagents: [Subagent] = [], leafUuid: String? = nil, otherLeafCount: Int = 0
    ) {
        self.sessionId = sessionId
        self.agentId = agentId
        self.entries = entries
        self.usage = usage
        self.subagents = subagents
        self.leafUuid = leafUuid
        self.otherLeafCount = otherLeafCount
    }

    /// User turns plus assistant responses (a response streamed over many lines counts once).
    public var messageCount: Int {
        entries.reduce(0) { count, entry in
            switch entry {
            case .user, .assistant: return count + 1
            case .compaction: return count
            }
        }
    }

    /// Usage of this transcript plus all its subagents' (what Claude Code's `result` reports
    /// per model in `modelUsage`; its `usage` leaves subagents out).
    public var totalUsage: UsageReport {
        subagents.reduce(usage) { $0 + $1.conversation.totalUsage }
    }

    /// Every tool call shown, in order.
    public var toolCalls: [ToolUseBlock] {
        entries.flatMap { entry -> [ToolUseBlock] in
            if case .assistant(let turn) = entry { return turn.toolUses }
            return []
        }
    }

    /// The subagent started by the tool call `toolUseId`, if linked.
    public func subagent(forToolUse toolUseId: String) -> Subagent? {
        subagents.first { $0.toolUseId == toolUseId }
    }
}

/// One displayed item of a conversation.
public enum ConversationEntry: Sendable {
    /// Something the user side sent: a prompt, a command, a compact summary….
    case user(UserTurn)
    /// One model response, its streamed chunks merged, with its tool results attached.
    case assistant(AssistantTurn)
    /// The conversation was compacted here.
    case compaction(CompactionMarker)
}

/// A user-side message.
public struct UserTurn: Sendable {
    /// The record's uuid.
    public var uuid: String?
    /// When it was written (ISO-8601).
    public var timestamp: String?
    /// What kind of user message it is.
    public var kind: UserTurnKind
    /// Its content (text, images, documents; tool results are attached to their calls instead).
    public var content: [ContentBlock]
    /// The permission mode it was sent in, where recorded (2.1.x).
    public var permissionMode: String?

    /// Creates a user turn.
    public init(uuid: String?, timestamp: String?, kind: UserTurnKind, content: [ContentBlock], permissionMode: String? = nil) {
        self.uuid = uuid
        self.timestamp = timestamp
        self.kind = kind
        self.content = content
        self.permissionMode = permissionMode
    }

    /// The text blocks joined by newlines.
    public var text: String { content.compactMap(\.text).joined(separator: "\n") }
}

/// Kinds of user-side messages, for rendering.
public enum UserTurnKind: Sendable, Equatable {
    /// A prompt the person typed (possibly with images).
    case prompt
    /// A slash command (`<command-name>/init</command-name>…`), with its name.
    case command(String)
    /// Output of a local command (`<local-command-stdout>`, `<bash-stdout>`…).
    case commandOutput
    /// `[Request interrupted by user…]`.
    case interruption
    /// The model-written summary that replaces the history after a compaction.
    case compactSummary
}

/// One model response.
public struct AssistantTurn: Sendable {
    /// `message.id`.
    public var messageId: String?
    /// The model.
    public var model: String?
    /// Time of the first chunk.
    public var timestamp: String?
    /// The uuids of the merged chunk records, in order.
    public var recordUuids: [String]
    /// The content blocks of all chunks, in order.
    public var content: [ContentBlock]
    /// Results of this response's tool calls, by tool-use id.
    public var toolResults: [String: ToolOutcome]
    /// The response's usage (the largest of its chunks' snapshots).
    public var usage: TokenUsage?
    /// Whether this is a client-made error line rather than a model answer.
    public var isSynthetic: Bool

    /// Creates an assistant turn.
    public init(
        messageId: String?, model: String?, timestamp: String?, recordUuids: [String] = [], content: [ContentBlock] = [],
        toolResults: [String: ToolOutcome] = [:], usage: TokenUsage? = nil, isSynthetic: Bool = false
    ) {
        self.messageId = messageId
        self.model = model
        self.timestamp = timestamp
        self.recordUuids = recordUuids
        self.content = content
        self.toolResults = toolResults
        self.usage = usage
        self.isSynthetic = isSynthetic
    }

    /// The tool calls, in order.
    public var toolUses: [ToolUseBlock] { content.compactMap(\.toolUse) }

    /// The text blocks joined by blank lines.
    public var text: String { content.compactMap(\.text).joined(separator: "\n\n") }
}

/// The answer to a tool call.
public struct ToolOutcome: Sendable {
    /// The `tool_result` block.
    public var result: ToolResultBlock
    /// The tool-specific `toolUseResult` of the record that carried it.
    public var structured: RawJSON?
    /// When the result was written.
    public var timestamp: String?
    /// The uuid of the record that carried it.
    public var recordUuid: String?

    /// Creates a tool outcome.
    public init(result: ToolResultBlock, structured: RawJSON?, timestamp: String?, recordUuid: String? = nil) {
        self.result = result
        self.structured = structured
        self.timestamp = timestamp
        self.recordUuid = recordUuid
    }
}

/// Where the conversation was compacted.
public struct CompactionMarker: Sendable {
    /// The boundary record's uuid.
    public var uuid: String?
    /// When it happened.
    public var timestamp: String?
    /// `auto` or `manual`.
    public var trigger: String?
    /// Context size before compaction, in tokens.
    public var preTokens: Int?
    /// Whether this was a micro-compaction (old tool results cleared) rather than a full one.
    public var isMicro: Bool

    /// Creates a marker.
    public init(uuid: String?, timestamp: String?, trigger: String?, preTokens: Int?, isMicro: Bool = false) {
        self.uuid = uuid
        self.timestamp = timestamp
        self.trigger = trigger
        self.preTokens = preTokens
        self.isMicro = isMicro
    }
}
