/// The payload of a `progress` record.
public struct ProgressRecord: Sendable, Equatable {
    /// `data.type`: `hook_progress`, `bash_progress`, `agent_progress`, ….
    public var dataType: String?
    /// `data.agentId` of `agent_progress`: the subagent being run.
    public var agentId: String?
    /// `toolUseID`.
    public var toolUseId: String?
    /// `parentToolUseID`: the Task/Agent call a subagent's progress belongs to.
    public var parentToolUseId: String?
    /// `data` as written.
    public var data: RawJSON?

    /// Creates a progress payload.
    public init(dataType: String?, agentId: String? = nil, toolUseId: String? = nil, parentToolUseId: String? = nil, data: RawJSON? = nil) {
        self.dataType = dataType
        self.agentId = agentId
        self.toolUseId = toolUseId
        self.parentToolUseId = parentToolUseId
        self.data = data
    }
}

/// The payload of an `attachment` record.
public struct AttachmentRecord: Sendable, Equatable {
    /// `attachment.type`, e.g. `hook_success`, `skill_listing`.
    public var attachmentType: String?
    /// `attachment` as written.
    public var attachment: RawJSON?

    /// Creates an attachment payload.
    public init(attachmentType: String?, attachment: RawJSON?) {
        self.attachmentType = attachmentType
        self.attachment = attachment
    }
}

/// The payload of a `summary` record: a title for the conversation ending at ``leafUuid``.
public struct SummaryRecord: Sendable, Equatable {
    /// The title text.
    public var summary: String
    /// The uuid of the leaf message it describes, possibly in another session's file.
    public var leafUuid: String?

    /// Creates a summary payload.
    public init(summary: String, leafUuid: String?) {
        self.summary = summary
        self.leafUuid = leafUuid
    }
}

/// The payload of a `file-history-snapshot` record.
public struct FileHistorySnapshotRecord: Sendable, Equatable {
    /// The user message the snapshot belongs to.
    public var messageId: String?
    /// Whether this updates an earlier snapshot.
    public var isSnapshotUpdate: Bool
    /// `snapshot` as written.
    public var snapshot: RawJSON?

    /// Creates a snapshot payload.
    public init(messageId: String?, isSnapshotUpdate: Bool, snapshot: RawJSON?) {
        self.messageId = messageId
        self.isSnapshotUpdate = isSnapshotUpdate
        self.snapshot = snapshot
    }
}

/// The payload of a `queue-operation` record.
public struct QueueOperationRecord: Sendable, Equatable {
    /// `enqueue`, `dequeue`, `remove`, ….
    public var operation: String?
    /// The queued prompt (text blocks joined), if any.
    public var content: String?

    /// Creates a queue-operation payload.
    public init(operation: String?, content: String?) {
        self.operation = operation
        self.content = content
    }
}

/// The payload of a `cost-state` record: what Claude Code counts the session's cost at.
public struct CostStateRecord: Sendable, Equatable {
    /// `totalCostUSD`: the cost in US dollars Claude Code reports (its `result` record's
    /// `total_cost_usd` for the turn that wrote it).
    public var totalCostUSD: Double?

    /// Creates a cost-state payload.
    public init(totalCostUSD: Double?) {
        self.totalCostUSD = totalCostUSD
    }
}

/// The payload of the title, mode and link records.
public struct MetadataRecord: Sendable, Equatable {
    /// Which metadata record this is.
    public var kind: MetadataKind
    /// Its value (`customTitle`, `aiTitle`, `lastPrompt`, `tag`, …).
    public var value: String?
    /// `leafUuid`, written on some `last-prompt` records.
    public var leafUuid: String?

    /// Creates a metadata payload.
    public init(kind: MetadataKind, value: String?, leafUuid: String? = nil) {
        self.kind = kind
        self.value = value
        self.leafUuid = leafUuid
    }
}

/// The metadata record types and the field holding their value.
public enum MetadataKind: String, Sendable, CaseIterable {
    /// `custom-title` (`/rename`), field `customTitle`.
    case customTitle = "custom-title"
    /// `ai-title`, field `aiTitle`.
    case aiTitle = "ai-title"
    /// `last-prompt`, field `lastPrompt`.
    case lastPrompt = "last-prompt"
    /// `tag`, field `tag`.
    case tag = "tag"
    /// `permission-mode`, field `permissionMode`.
    case permissionMode = "permission-mode"
    /// `agent-name`, field `agentName`.
    case agentName = "agent-name"
    /// `mode`, field `mode`.
    case mode = "mode"
    /// `continued-in` (2.1.33x), field `continuedInSessionId`: the session `/background` moved
    /// the conversation on into.
    case continuedIn = "continued-in"
    /// `api-request-route` (2.1.33x), field `provider`: which backend served the turn (its
    /// `credential` names a kind of secret, never one, and is not read).
    case apiRequestRoute = "api-request-route"

    /// The JSON key holding the value.
    public var valueKey: String {
        switch self {
        case .customTitle: return "customTitle"
        case .aiTitle: return "aiTitle"
        case .lastPrompt: return "lastPrompt"
        case .tag: return "tag"
        case .permissionMode: return "permissionMode"
        case .agentName: return "agentName"
        case .mode: return "mode"
        case .continuedIn: return "continuedInSessionId"
        case .apiRequestRoute: return "provider"
        }
    }
}
