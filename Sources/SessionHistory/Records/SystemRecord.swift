/// The payload of a `system` record.
public struct SystemRecord: Sendable, Equatable {
    /// What kind of system line this is.
    public var subtype: SystemSubtype
    /// `content` (hook status, command output, recap text…).
    public var content: String?
    /// `level`: `info`, `warning`, `suggestion`, ….
    public var level: String?
    /// For compaction boundaries: what triggered it and the size before.
    public var compaction: CompactionInfo?
    /// `durationMs` of `turn_duration` records.
    public var durationMs: Int?

    /// Creates a system payload.
    public init(
        subtype: SystemSubtype, content: String? = nil, level: String? = nil, compaction: CompactionInfo? = nil, durationMs: Int? = nil
    ) {
        self.subtype = subtype
        self.content = content
        self.level = level
        self.compaction = compaction
        self.durationMs = durationMs
    }
}

/// `system.subtype` values; new ones appear as ``other(_:)``.
public enum SystemSubtype: Sendable, Equatable, Hashable {
    /// No subtype (1.0.x hook status lines).
    case none
    /// `compact_boundary`: the conversation was compacted here.
    case compactBoundary
    /// `microcompact_boundary`: old tool results were cleared.
    case microcompactBoundary
    /// `stop_hook_summary`.
    case stopHookSummary
    /// `turn_duration`.
    case turnDuration
    /// `local_command`: a slash command and its output.
    case localCommand
    /// `away_summary`: a short recap.
    case awaySummary
    /// `api_error`.
    case apiError
    /// `informational`.
    case informational
    /// Any other subtype, as written.
    case other(String)

    /// The subtype for the string written in the file.
    public init(_ text: String?) {
        switch text {
        case nil: self = .none
        case "compact_boundary": self = .compactBoundary
        case "microcompact_boundary": self = .microcompactBoundary
        case "stop_hook_summary": self = .stopHookSummary
        case "turn_duration": self = .turnDuration
        case "local_command": self = .localCommand
        case "away_summary": self = .awaySummary
        case "api_error": self = .apiError
        case "informational": self = .informational
        case .some(let other): self = .other(other)
        }
    }
}

/// `compactMetadata` (or `microcompactMetadata`) of a compaction boundary.
public struct CompactionInfo: Sendable, Equatable {
    /// `auto` or `manual`.
    public var trigger: String?
    /// Context size in tokens before compaction.
    public var preTokens: Int?
    /// `preservedSegment` (2.1.x): messages from before the boundary kept verbatim after the summary.
    public var preservedSegment: PreservedSegment?

    /// Creates compaction details.
    public init(trigger: String?, preTokens: Int?, preservedSegment: PreservedSegment? = nil) {
        self.trigger = trigger
        self.preTokens = preTokens
        self.preservedSegment = preservedSegment
    }
}

/// The recent messages a compaction keeps verbatim: the chain from `headUuid` to `tailUuid`
/// (written before the boundary) continues after `anchorUuid` (the summary) when resumed.
public struct PreservedSegment: Sendable, Equatable {
    /// The first kept message.
    public var headUuid: String
    /// The summary they follow.
    public var anchorUuid: String
    /// The last kept message.
    public var tailUuid: String

    /// Creates a preserved segment.
    public init(headUuid: String, anchorUuid: String, tailUuid: String) {
        self.headUuid = headUuid
        self.anchorUuid = anchorUuid
        self.tailUuid = tailUuid
    }
}
