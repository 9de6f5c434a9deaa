/// A subagent (sidechain) transcript linked to the conversation that started it.
public struct Subagent: Sendable {
    /// The agent id (`agentId`, file suffix), or `inline-N` for pre-2.0 inline sidechains.
    public var id: String
    /// Where the transcript was found.
    public var source: Source
    /// The tool call (Task/Agent) that started it, when it could be linked.
    public var toolUseId: String?
    /// The `.meta.json` sidecar, when there is one.
    public var metadata: SubagentMetadata?
    /// Its own conversation.
    public var conversation: Conversation

    /// Where a subagent transcript lives.
    public enum Source: Sendable, Equatable {
        /// Inside the main file as `isSidechain` records (CLI ≤ 1.0.x).
        case inline
        /// A separate file (`agent-<id>.jsonl` next to the session, or under `<session>/subagents/`).
        case file(name: String)
    }

    /// Creates a subagent.
    public init(id: String, source: Source, toolUseId: String? = nil, metadata: SubagentMetadata? = nil, conversation: Conversation) {
        self.id = id
        self.source = source
        self.toolUseId = toolUseId
        self.metadata = metadata
        self.conversation = conversation
    }

    /// Whether this is the summariser run of a compaction (`agent-acompact-*`).
    public var isCompaction: Bool { id.hasPrefix("acompact") }
}

/// The `agent-<id>.meta.json` sidecar of a 2.1.x subagent.
public struct SubagentMetadata: Sendable, Equatable {
    /// `agentType`, e.g. `Explore`.
    public var agentType: String?
    /// `description` given to the agent.
    public var description: String?
    /// `worktreePath` when the agent ran in a git worktree.
    public var worktreePath: String?
    /// `toolUseId` of the call that started it.
    public var toolUseId: String?
    /// `parentAgentId` for nested agents.
    public var parentAgentId: String?

    /// Reads the sidecar's JSON; unknown keys are ignored, invalid JSON gives `nil`.
    public init?(json bytes: some Collection<UInt8>) {
        guard let value = try? JSONValue(parsing: bytes), case .object = value else { return nil }
        agentType = value["agentType"]?.stringValue
        description = value["description"]?.stringValue
        worktreePath = value["worktreePath"]?.stringValue
        toolUseId = value["toolUseId"]?.stringValue
        parentAgentId = value["parentAgentId"]?.stringValue
    }
}

/// A subagent transcript's records and where they came from, as input to linking.
public struct SubagentSource: Sendable {
    /// The agent id (from the file name `agent-<id>.jsonl`).
    public var agentId: String
    /// The file name.
    public var fileName: String
    /// The transcript's records.
    public var records: [SessionRecord]
    /// The sidecar, if any.
    public var metadata: SubagentMetadata?

    /// Creates a subagent source.
    public init(agentId: String, fileName: String, records: [SessionRecord], metadata: SubagentMetadata? = nil) {
        self.agentId = agentId
        self.fileName = fileName
        self.records = records
        self.metadata = metadata
    }
}
