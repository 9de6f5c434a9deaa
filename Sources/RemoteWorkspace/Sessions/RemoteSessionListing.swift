import Foundation
import SessionHistory

/// A file on the box, as the listing saw it.
public struct RemoteFile: Sendable, Equatable, Codable {
    /// The remote path; `~/` is the remote home.
    public var path: String
    /// Its size in bytes when listed.
    public var size: Int
    /// Its modification time, seconds since the epoch.
    public var modified: Int

    /// Creates a file description.
    public init(path: String, size: Int, modified: Int) {
        self.path = path
        self.size = size
        self.modified = modified
    }
}

/// One Claude Code session on the box, as listed.
public struct RemoteSessionListing: Sendable, Equatable, Codable {
    /// The session file.
    public var file: RemoteFile
    /// The project folder it is in (`-home-me-app`); the real path is `SessionSummary/cwd`.
    public var projectFolder: String
    /// Title, cwd, branch, times, model, sidechain flag.
    public var summary: SessionSummary
    /// Its subagent transcripts (`<id>/subagents/**/agent-*.jsonl`, and `agent-*.jsonl` beside
    /// it whose records name this session) and their `.meta.json` sidecars.
    public var subagentFiles: [RemoteFile]
    /// `<device>_<inode>` of the session file: a follower notices when the file is replaced.
    public var fileIdentity: String

    /// The session id.
    public var id: String { summary.id }
}

/// A listing and what it cost.
public struct SessionListing: Sendable {
    /// The sessions, newest first.
    public var sessions: [RemoteSessionListing]
    /// What the listing moved and reused.
    public var statistics: ListingStatistics
}

/// What one listing cost: commands, bytes over the connection, files read and reused.
public struct ListingStatistics: Sendable, Equatable {
    /// Remote commands run.
    public var commands = 0
    /// Bytes received from the box (script output and errors).
    public var bytesTransferred = 0
    /// Session files seen.
    public var filesSeen = 0
    /// Files whose head and tail were read in full (new or replaced).
    public var filesRead = 0
    /// Files read from their old size only (grown).
    public var filesGrown = 0
    /// Files that needed more than the first window to be summarised.
    public var filesWidened = 0
    /// Tails grown past the wide window (fourfold a round) to reach a record telling the state;
    /// a file grown twice counts twice.
    public var tailsGrown = 0
    /// Files taken from the cache without reading anything.
    public var cacheHits = 0
    /// Whether a cache file was found and trusted.
    public var cacheLoaded = false

    /// Creates empty statistics.
    public init() {}
}

/// How much of each file a listing reads (the local listing reads the same: `ListingWindowPolicy`).
public struct SessionListingOptions: Sendable, Equatable {
    /// Bytes read from the start and from the end of each session file first (8 KiB).
    public var window: Int
    /// Up to how many bytes a window is widened when the first window did not show the first
    /// prompt or cwd (head), or a time of the tail's own or the model (tail): 64 KiB, the window
    /// of Claude Code's own picker and of `SessionSummarizer/defaultWindow`.
    public var widenedWindow: Int
    /// Whether the box counts each new or grown file's message lines (`SessionSummary.messageCount`):
    /// a whole read of those files on the box (~2 GB/s with GNU grep). Off, counts are nil.
    public var countsMessages: Bool
    /// Above how many bytes of new and grown files the box counts while the client widens
    /// windows on other channels (64 MiB: ~30 ms of `grep`); below, one after the other, which
    /// saves a round trip.
    var countsBesideWideningAbove = 64 << 20

    /// Creates options.
    ///
    /// - Parameters:
    ///   - window: Bytes read first from each end of a file.
    ///   - widenedWindow: Bytes read from an end whose first window was not enough.
    ///   - countsMessages: Whether the box counts message lines of new and grown files.
    public init(window: Int = ListingWindowPolicy().first, widenedWindow: Int = ListingWindowPolicy().wide, countsMessages: Bool = true) {
        self.window = max(1, window)
        self.widenedWindow = max(self.window, widenedWindow)
        self.countsMessages = countsMessages
    }

    /// The same sizes as the policy the local listing takes.
    public var policy: ListingWindowPolicy { ListingWindowPolicy(first: window, wide: widenedWindow) }
}
