/// The payload of a `user` record.
public struct UserRecord: Sendable, Equatable {
    /// `message.content` (a string becomes one text block).
    public var content: [ContentBlock]
    /// Whether `message.content` was a plain string.
    public var contentIsString: Bool
    /// The model-written summary that starts a compacted conversation.
    public var isCompactSummary: Bool
    /// Set with compact summaries: shown in the transcript only.
    public var isVisibleInTranscriptOnly: Bool
    /// The tool-specific structured result (`toolUseResult`), as written.
    public var toolUseResult: RawJSON?
    /// `toolUseResult.agentId`: links a Task/Agent result to its subagent file (2.1.x).
    public var resultAgentId: String?
    /// `origin.kind`, e.g. `task-notification`.
    public var originKind: String?
    /// `permissionMode`: the permission mode the prompt was sent in (2.1.x, print mode too).
    public var permissionMode: String?

    /// Creates a user payload.
    public init(
        content: [ContentBlock], contentIsString: Bool = false, isCompactSummary: Bool = false,
        isVisibleInTranscriptOnly: Bool = false, toolUseResult: RawJSON? = nil,
        resultAgentId: String? = nil, originKind: String? = nil, permissionMode: String? = nil
    ) {
        self.permissionMode = permissionMode
        self.content = content
        self.contentIsString = contentIsString
        self.isCompactSummary = isCompactSummary
        self.isVisibleInTranscriptOnly = isVisibleInTranscriptOnly
        self.toolUseResult = toolUseResult
        self.resultAgentId = resultAgentId
        self.originKind = originKind
    }

    /// The text blocks joined by newlines.
    public var text: String { content.compactMap(\.text).joined(separator: "\n") }

    /// Whether every block is a tool result (the line only answers tool calls).
    public var isToolResultOnly: Bool {
        !content.isEmpty && content.allSatisfy { $0.toolResult != nil }
    }
}

/// The payload of an `assistant` record: one streamed chunk of a model response.
public struct AssistantRecord: Sendable, Equatable {
    /// `message.id`, shared by all chunks of one response.
    public var messageId: String?
    /// `requestId`, shared by all chunks of one API request.
    public var requestId: String?
    /// The model (`<synthetic>` for client-made error lines).
    public var model: String?
    /// This chunk's content blocks (usually one).
    public var content: [ContentBlock]
    /// `message.stop_reason` (often `nil` on intermediate chunks).
    public var stopReason: String?
    /// `message.usage` as written on this chunk.
    public var usage: TokenUsage?
    /// Whether Claude Code marked this as an API error message.
    public var isApiErrorMessage: Bool

    /// Creates an assistant payload.
    public init(
        messageId: String?, requestId: String? = nil, model: String?, content: [ContentBlock],
        stopReason: String? = nil, usage: TokenUsage? = nil, isApiErrorMessage: Bool = false
    ) {
        self.messageId = messageId
        self.requestId = requestId
        self.model = model
        self.content = content
        self.stopReason = stopReason
        self.usage = usage
        self.isApiErrorMessage = isApiErrorMessage
    }

    /// Client-made lines (API errors, limits) that must not count toward usage or models.
    public var isSynthetic: Bool { isApiErrorMessage || model == "<synthetic>" }
}
