import SessionHistory

/// One session file (or root `agent-*.jsonl`) during a listing: what the box said about it and
/// what the client knows or has read of it.
struct ListedFile: Sendable {
    /// The projects folder it was found in, as the client names it.
    var folder: String
    var stat: StatLine
    /// The cache entry for exactly this path, identity, size and mtime, if any.
    var cached: CachedSession?
    /// The first and last bytes, when they are in memory.
    var window: FileWindow?
    /// False when the file changed while being read: used for this listing, not cached.
    var isStable = true
    /// True when the bytes were read in this listing (rather than taken from the cache).
    var wasRead = false
    var leafSummaries: [String: String] = [:]
    var parentSessionId: String?
    /// Made from ``window`` (or the cache) with the summaries-by-leaf whose digest is ``leafMapDigest``;
    /// nil again whenever new bytes are taken.
    var summary: SessionSummary?
    var leafMapDigest: UInt64 = 0
    /// Its message lines, counted on the box when it was new or grew, else from the cache.
    var messageCount: Int?
    /// Whether the box found a title record in it (read in this listing only).
    var holdsTitleRecord = false

    /// The full remote path.
    var path: String { folder.hasSuffix("/") ? folder + stat.path : folder + "/" + stat.path }
    /// The project folder name.
    var project: String { String(stat.path.prefix { $0 != "/" }) }
    /// The file name.
    var name: String {
        String(stat.path.utf8.lastIndex(of: UInt8(ascii: "/")).map { stat.path[stat.path.index(after: $0)...] } ?? stat.path[...])
    }
    /// Whether this is a 2.0.x `agent-*.jsonl` beside the sessions rather than a session.
    var isAgentFile: Bool { name.hasPrefix("agent-") }

    /// Takes the bytes read for it: its head/tail summaries-by-leaf and parent session follow.
    mutating func take(_ window: FileWindow, stable: Bool) {
        self.window = window
        summary = nil
        isStable = isStable && stable
        wasRead = true
        leafSummaries = SessionSummarizer.summaries(in: window.head)
        parentSessionId = isAgentFile ? SessionSummarizer.recordedSessionId(inHead: window.head) : nil
    }

    /// The cache entry to keep for it (bytes positions are filled in when the cache is written).
    var cacheEntry: CachedSession? {
        guard isStable, let summary else { return nil }
        return CachedSession(
            path: path, identity: stat.identity, size: stat.size, mtime: stat.mtime, summary: summary,
            leafMapDigest: leafMapDigest, leafSummaries: leafSummaries, parentSessionId: parentSessionId,
            bytesOffset: 0, headLength: 0, tailLength: 0, bytesHash: 0, messageCount: messageCount)
    }
}
