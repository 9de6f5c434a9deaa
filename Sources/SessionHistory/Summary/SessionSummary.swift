/// What a session list shows about one session, read from the head and tail of its file.
public struct SessionSummary: Sendable, Equatable, Codable {
    /// The session id (the file name without `.jsonl`).
    public var id: String
    /// The display title, by Claude Code's precedence (see ``titleSource``); `nil` if none.
    public var title: String?
    /// Which rule produced ``title``.
    public var titleSource: TitleSource?
    /// The first real prompt (folded to one line, at most 200 characters), if found in the head.
    public var firstPrompt: String?
    /// The working directory (first `cwd` in the head): the project's real path.
    public var cwd: String?
    /// The git branch (last in the tail, else first in the head).
    public var gitBranch: String?
    /// The first timestamp in the head (ISO-8601).
    public var firstTimestamp: String?
    /// The last timestamp in the tail (ISO-8601).
    public var lastTimestamp: String?
    /// The model of the latest response (else the first one seen).
    public var model: String?
    /// The Claude Code version (last in the tail, else first in the head).
    public var version: String?
    /// The last `tag` record's value.
    public var tag: String?
    /// The cost in US dollars of the last `cost-state` record in the tail: what Claude Code
    /// reported (`total_cost_usd`) for the latest run of the session; nil before 2.1.x.
    public var costUSD: Double?
    /// The session the conversation was moved on into (`/background` writes a `continued-in`
    /// record naming it): this one is continued there, under the same title.
    public var continuedIn: String?
    /// The session this one continues (the one whose `continued-in` record names it); filled in
    /// by a listing that saw both.
    public var continuedFrom: String?
    /// The permission mode the session last ran in (`permission-mode` records), e.g. `default`,
    /// `acceptEdits`, `auto`.
    public var permissionMode: String?
    /// The backend that served the latest turn (`api-request-route`'s `provider`), e.g. `firstParty`.
    public var provider: String?
    /// Whether the file is a subagent transcript (its first record is a sidechain record).
    public var isSidechain: Bool
    /// The file size in bytes.
    public var fileSize: Int
    /// What the last transcript record in the tail shows (see ``state(now:rule:)``).
    public var activity: SessionActivity?
    /// The context window use of the last response in the tail.
    public var contextUse: ContextUse?
    /// Subagent transcripts attached by the listing (compaction agents `agent-acompact-*` not counted).
    public var subagentCount = 0
    /// Message lines in the whole file, as a picker's message count: lines holding
    /// `"type":"user"` or `"type":"assistant"` (`MessageLines`); filled in by the listing.
    public var messageCount: Int?
    /// The file's modification time (seconds since 1970), filled in by the listing.
    public var modificationTime: Int?

    /// Creates a summary with just an id and size; the rest is filled in by the summarizer.
    public init(id: String, fileSize: Int) {
        self.id = id
        self.fileSize = fileSize
        self.isSidechain = false
    }

    /// Whether Claude Code's picker would list it: a main session with something to call it.
    public var isListable: Bool { title != nil && !isSidechain }

    /// The session's state at `now` (seconds since 1970), from ``activity`` and the file's age;
    /// `nil` until a listing filled in ``modificationTime``.
    public func state(now: Int, rule: SessionStateRule = SessionStateRule()) -> SessionState? {
        modificationTime.map { rule.state(activity: activity, modificationTime: $0, now: now) }
    }

    /// Fills in what a listing knows from the file system rather than the bytes: the
    /// modification time (also dating a session without times, ``fillLastTimestamp(modificationTime:)``)
    /// and the number of subagent transcripts among `subagentFileNames`.
    public mutating func fillListingFields(modificationTime seconds: Int, subagentFileNames: [String]) {
        fillLastTimestamp(modificationTime: seconds)
        modificationTime = seconds
        subagentCount = Self.subagentCount(fileNames: subagentFileNames)
    }

    /// The subagent transcripts among file names: `agent-*.jsonl`, compaction agents
    /// (`agent-acompact-*`, Claude Code's own summariser) and `.meta.json` sidecars excluded.
    public static func subagentCount(fileNames: [String]) -> Int {
        fileNames.filter { $0.hasPrefix("agent-") && $0.hasSuffix(".jsonl") && !$0.hasPrefix("agent-acompact") }.count
    }

    /// Which session each continued one continues, from the `continued-in` links among
    /// `summaries`: later session id → earlier session id (the first link wins when two name
    /// the same session). A listing sets ``continuedFrom`` from it.
    public static func continuations(among summaries: [SessionSummary]) -> [String: String] {
        var earlier: [String: String] = [:]
        for summary in summaries {
            guard let later = summary.continuedIn, later != summary.id, earlier[later] == nil else { continue }
            earlier[later] = summary.id
        }
        return earlier
    }

    /// Dates a session whose windows show no record time by its file's modification time, in
    /// the records' layout (`2026-01-02T10:00:05.000Z`): the last line was written then.
    ///
    /// - Parameter seconds: The modification time in whole seconds since 1970 (`stat -c %Y`).
    public mutating func fillLastTimestamp(modificationTime seconds: Int) {
        guard lastTimestamp == nil else { return }
        lastTimestamp = Timestamp.format(secondsSince1970: seconds)
    }
}

/// The rules a title can come from, in Claude Code's order of precedence.
public enum TitleSource: String, Sendable, Equatable, CaseIterable, Codable {
    /// A `custom-title` record (`/rename`).
    case customTitle
    /// An `ai-title` record.
    case aiTitle
    /// A `last-prompt` record.
    case lastPrompt
    /// A `summary` record whose `leafUuid` is a message of this session.
    case summary
    /// The first real prompt.
    case firstPrompt
    /// The name of the first slash command, when there is no real prompt.
    case command
}
