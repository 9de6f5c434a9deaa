/// What to look for in the sessions on a box, and where.
public struct SessionSearchQuery: Sendable, Equatable {
    /// How the query matches.
    public enum Match: Sendable, Equatable {
        /// Text as a person types it: found however the session file stores it (JSON escapes,
        /// `\uXXXX`), letters in either case, non-ASCII ones too.
        case text(String)
        /// A POSIX extended regular expression, matched against the stored JSON text as it is
        /// (escapes not decoded), ASCII letters in either case.
        case regex(String)
    }

    /// What to match.
    public var match: Match
    /// Only this project (as ``RemoteSessions/listing(project:includeUnlisted:)`` names one); nil for all.
    public var project: String?
    /// Only sessions changed, and records written, at or after this time (seconds since 1970).
    public var since: Int?
    /// How much is looked at and sent back.
    public var limits: SessionSearchLimits

    /// A query.
    ///
    /// - Parameters:
    ///   - match: The text or expression.
    ///   - project: Only this project; nil for all.
    ///   - since: Only sessions changed and records written at or after this time (seconds since 1970).
    ///   - limits: How much is looked at and sent back.
    public init(_ match: Match, project: String? = nil, since: Int? = nil, limits: SessionSearchLimits = SessionSearchLimits()) {
        self.match = match
        self.project = project
        self.since = since
        self.limits = limits
    }
}

/// Bounds on a search's output: whatever the history's size, a search sends back at most
/// `files × recordsPerFile × matchesPerRecord` windows of `2 × window` bytes.
public struct SessionSearchLimits: Sendable, Equatable {
    /// The newest session or subagent files with a match that are shown (50).
    public var files: Int
    /// The matching records sent back per file, the first in the file (20).
    public var recordsPerFile: Int
    /// The matches per record sent back (4).
    public var matchesPerRecord: Int
    /// Bytes of the stored line sent on each side of a match (160).
    public var window: Int

    /// Limits.
    ///
    /// - Parameters:
    ///   - files: The newest session or subagent files with a match that are shown.
    ///   - recordsPerFile: The matching records sent back per file.
    ///   - matchesPerRecord: The matches per record sent back.
    ///   - window: Bytes sent on each side of a match.
    public init(files: Int = 50, recordsPerFile: Int = 20, matchesPerRecord: Int = 4, window: Int = 160) {
        self.files = max(1, files)
        self.recordsPerFile = max(1, recordsPerFile)
        self.matchesPerRecord = max(1, matchesPerRecord)
        self.window = max(16, window)
    }
}
