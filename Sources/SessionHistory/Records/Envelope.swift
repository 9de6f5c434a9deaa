import Foundation

/// The fields shared by the records of a session file (all optional: metadata records carry few).
///
/// Only `user`, `assistant`, `system`, `progress` and `attachment` records have a ``uuid`` and take
/// part in the `parentUuid` tree that forms the conversation.
public struct Envelope: Sendable, Equatable {
    /// The record's id.
    public var uuid: String?
    /// The previous record in the conversation tree; `nil` for a root.
    public var parentUuid: String?
    /// On a compaction boundary: the last record before compaction.
    public var logicalParentUuid: String?
    /// The session id (in subagent files: the parent session's id).
    public var sessionId: String?
    /// ISO-8601 time the record was written, as in the file.
    public var timestamp: String?
    /// The working directory at that moment; the only trustworthy project path.
    public var cwd: String?
    /// The Claude Code version that wrote the record.
    public var version: String?
    /// The git branch (`""` outside a repository, `"HEAD"` when detached).
    public var gitBranch: String?
    /// The subagent id, in subagent transcripts.
    public var agentId: String?
    /// The human-readable session slug (2.0.55+).
    public var slug: String?
    /// How Claude Code was started (`cli`, `sdk-ts`, …).
    public var entrypoint: String?
    /// Set on agent-team traffic; such records are hidden like sidechains.
    public var teamName: String?
    /// Whether this is subagent (sidechain) traffic.
    public var isSidechain = false
    /// Whether this is injected text (caveats, skills, reminders) hidden from the transcript.
    public var isMeta = false

    /// Creates an empty envelope.
    public init() {}

    /// ``timestamp`` as a date, when it is valid ISO-8601.
    public var date: Date? { timestamp.flatMap(Timestamp.parse) }
}
