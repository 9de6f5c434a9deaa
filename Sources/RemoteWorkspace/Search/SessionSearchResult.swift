import SessionHistory

/// What a search found.
public struct SessionSearchResult: Sendable {
    /// The sessions with a match, newest first (from the newest ``SessionSearchLimits/files``
    /// files with a match).
    public var sessions: [SessionSearchSession]
    /// How many session and subagent files matched in all (more than were read when the limit cut).
    public var matchedFileCount: Int
    /// Whether a limit left matches out (sessions, records or matches per record).
    public var isTruncated: Bool
    /// Bytes that crossed the connection: the search's output and the listing behind the titles.
    public var bytesTransferred: Int

    /// All hits, session by session.
    public var hits: [SessionSearchHit] { sessions.flatMap(\.hits) }
}

/// One session with matches.
public struct SessionSearchSession: Sendable {
    /// The session file on the box.
    public var file: RemoteFile
    /// The project folder it is in (`-home-me-app`).
    public var projectFolder: String
    /// Its summary, as `rws sessions` lists it (title, cwd, times).
    public var summary: SessionSummary
    /// The matching records sent back: the session file's in file order, then its subagents'.
    public var hits: [SessionSearchHit]

    /// The session id.
    public var id: String { summary.id }
}

/// One record with a match: where it is, who wrote it, and the match in its text.
public struct SessionSearchHit: Sendable, Equatable {
    /// The record's line in the session file (1 is the first).
    public var line: Int
    /// Who the record is from: `user`, `assistant`, `tool_result` (a tool's output sent back),
    /// `summary`, `custom-title`, or the record's own type.
    public var role: String
    /// The record's uuid (`rws history ID --at UUID` opens the conversation there).
    public var uuid: String?
    /// When it was written (ISO-8601).
    public var timestamp: String?
    /// The JSON key of the text holding the first match (`text`, `content`, `command`, ...), nil
    /// when not in the window sent.
    public var key: String?
    /// Decoded text before the first match, cut at the window.
    public var before: String
    /// The first match as stored text decoded.
    public var match: String
    /// Decoded text after it, cut at the window.
    public var after: String
    /// Matches in this record's text among those sent back.
    public var matchCount: Int
    /// The subagent transcript holding the record (its file name), nil for the session's own file.
    public var subagentFile: String?
}
