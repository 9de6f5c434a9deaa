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
///
/// A tail still too short after that grows fourfold at a time, up to `tailLimit`
/// (``tailGrowth(_:tail:)``): the state and the context figure come from the last complete
/// transcript record, and Claude Code writes records far larger than 64 KiB after a long answer
/// (long answers, tool results, a prompt snapshot of ~57 KB after every turn since 2.1.33x).
public struct ListingWindowPolicy: Sendable, Equatable {
    /// The bytes read first from each end.
    public var first: Int
    /// The bytes read from an end whose first window was not enough.
    public var wide: Int
    /// The most bytes a tail grows to (16 MiB): past it, a session's state is left unknown
    /// rather than read from a whole large file.
    public var tailLimit: Int

    /// Creates a policy; `wide` is at least `first`, both at least 1.
    ///
    /// - Parameters:
    ///   - first: The bytes read first from each end (8 KiB by default).
    ///   - wide: The bytes read from an end that needs more (64 KiB by default).
    ///   - tailLimit: The most bytes a tail grows to (16 MiB by default).
    public init(first: Int = 8_192, wide: Int = SessionSummarizer.defaultWindow, tailLimit: Int = 16 << 20) {
        self.first = max(1, first)
        self.wide = max(self.first, wide)
        self.tailLimit = max(self.wide, tailLimit)
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

    /// How many bytes the tail should hold next when, read `wide` or wider, it still shows no
    /// transcript record that tells the session's activity, or no response at all while the
    /// context figure is unknown, and the record cut by the window's edge is one that tells or
    /// hides the state (its visible end names it a response, an attachment, progress or a system
    /// record; a record that shows no such name is a prompt or tool result, whose state, working,
    /// the listing tells the same without it). `nil` when it is enough, when the tail holds the
    /// whole file or `tailLimit` bytes, or when widening is off (`wide` equal to `first`). A tail
    /// whose responses carry no usage (old or hand-made files) does not grow for the context
    /// figure; subagent transcripts never grow: a listing shows no state for them.
    ///
    /// The first step adds 16 KiB (a record cut just inside the window is usually small), each next
    /// one makes the tail four times larger.
    ///
    /// - Parameters:
    ///   - summary: The summary of the windows read so far (its `fileSize` is the file's size).
    ///   - tail: The tail window's bytes (the file's last `tail.count` bytes).
    public func tailGrowth(_ summary: SessionSummary, tail: [UInt8]) -> Int? {
        let reachable = min(summary.fileSize, tailLimit)
        let tailCount = tail.count
        guard wide > first, !summary.isSidechain, tailCount >= min(wide, summary.fileSize), tailCount < reachable else { return nil }
        guard summary.activity == nil || (summary.contextUse == nil && !Self.holdsResponse(tail)) else { return nil }
        guard Self.cutRecordMayTellTheState(tail) else { return nil }
        let firstStep = wide + 16_384
        return min(reachable, tailCount < firstStep ? firstStep : tailCount * 4)
    }

    private static let response = KeyValueLines(key: "type", values: ["assistant"])
    private static let stateRecords = KeyValueLines(key: "type", values: ["assistant", "attachment", "progress", "system"])

    /// Whether a whole line of a tail (its first line is cut) is an `assistant` record.
    static func holdsResponse(_ tail: [UInt8]) -> Bool {
        guard let firstEnd = tail.firstIndex(of: 0x0A) else { return false }
        return response.count(in: Array(tail[(firstEnd + 1)...]), stopAtFirst: true) > 0
    }

    /// Whether what a tail holds of its cut first line names a record that tells the state
    /// (a response, a system record) or sits between the state and the end (an attachment,
    /// progress): Claude Code writes `type` after `message` and `attachment`, so their end shows it.
    static func cutRecordMayTellTheState(_ tail: [UInt8]) -> Bool {
        let cut = tail.firstIndex(of: 0x0A).map { Array(tail[..<$0]) } ?? tail
        return stateRecords.count(in: cut, stopAtFirst: true) > 0
    }
}
