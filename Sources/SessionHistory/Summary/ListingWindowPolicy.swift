/// How a listing reads a session's bytes, shared by the local and the remote listing so that
/// both give the same summary for the same file.
///
/// First the first and last `first` bytes (8 KiB); then, for a side whose window was not
/// enough, the first or last `wide` bytes (64 KiB, Claude Code's own window): the head when it
/// shows no first prompt or cwd, the tail when it shows no time of its own, no model or no
/// transcript record to tell the session's activity (a last line longer than the window), and
/// both ends when the wide windows hold a title record (`TitleLines`) the first windows did not
/// show, since Claude Code takes a title from anywhere in its 64 KiB windows. A file whose records
/// carry no time at all is dated by its modification time
/// (``SessionSummary/fillLastTimestamp(modificationTime:)``).
public struct ListingWindowPolicy: Sendable, Equatable {
    /// The bytes read first from each end.
    public var first: Int
    /// The bytes read from an end whose first window was not enough.
    public var wide: Int

    /// Creates a policy; `wide` is at least `first`, both at least 1.
    ///
    /// - Parameters:
    ///   - first: The bytes read first from each end (8 KiB by default).
    ///   - wide: The bytes read from an end that needs more (64 KiB by default).
    public init(first: Int = 8_192, wide: Int = SessionSummarizer.defaultWindow) {
        self.first = max(1, first)
        self.wide = max(self.first, wide)
    }

    /// Which ends of a file to read again `wide`, given the summary of the windows read so far.
    ///
    /// - Parameters:
    ///   - summary: The summary of the windows read so far (its `fileSize` is the file's size).
    ///   - headCount: How many bytes the head window holds.
    ///   - tailCount: How many bytes the tail window holds.
    ///   - holdsTitleRecord: Whether the file's first or last `wide` bytes hold a `custom-title`
    ///     or `ai-title` line (`TitleLines`); a rename is then looked for in the wide windows.
    /// - Returns: Whether to widen the head and whether to widen the tail.
    public func widening(
        _ summary: SessionSummary, headCount: Int, tailCount: Int, holdsTitleRecord: Bool = false
    ) -> (head: Bool, tail: Bool) {
        let reachable = min(summary.fileSize, wide)
        let titleUnsure = holdsTitleRecord && summary.titleSource != .customTitle
        let head = headCount < reachable && (summary.firstPrompt == nil || summary.cwd == nil || titleUnsure)
        let tail = tailCount < reachable && (summary.lastTimestamp == nil || summary.model == nil || summary.activity == nil || titleUnsure)
        return (head, tail)
    }
}
