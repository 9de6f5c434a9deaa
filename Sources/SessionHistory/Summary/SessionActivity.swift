import Foundation

/// What the last transcript record in a session file's tail says the session was doing when it
/// was written. Time-independent (so it can be cached with the summary); ``SessionStateRule``
/// turns it and the file's age into a ``SessionState``.
public enum SessionActivity: String, Sendable, Equatable, Codable, CaseIterable {
    /// The model is working: the last record is a prompt, a tool result, a thinking block, a
    /// compaction, or a text chunk without a stop reason.
    case working
    /// The last response asked for a tool (`tool_use` last) and no result follows: the tool is
    /// running, or Claude Code is asking the user's permission.
    case toolPending
    /// The turn is over: a response that ended (`end_turn`, `stop_sequence`, `max_tokens`), a
    /// `turn_duration` or `stop_hook_summary` record, a command's output, an interruption.
    case turnEnded
    /// An `api_error` system record (Claude Code is retrying the request).
    case retrying
    /// The last response is an API error (`isApiErrorMessage`, or a `<synthetic>` text
    /// `API Error: …`): the turn failed.
    case failed

    /// The activity the last transcript record of `records` shows (sidechain, meta and
    /// bookkeeping records such as `progress`, titles or snapshots are passed over); `nil`
    /// when there is none.
    public static func of(_ records: [SessionRecord]) -> SessionActivity? {
        for record in records.reversed() where !record.envelope.isSidechain {
            if let activity = activity(of: record) { return activity }
        }
        return nil
    }

    private static func activity(of record: SessionRecord) -> SessionActivity? {
        switch record.kind {
        case .assistant(let message): return activity(of: message)
        case .user(let message):
            if record.envelope.isMeta { return nil }
            return activity(of: message)
        case .system(let system):
            switch system.subtype {
            case .apiError: return .retrying
            case .turnDuration, .stopHookSummary, .localCommand: return .turnEnded
            case .compactBoundary: return .working
            default: return nil
            }
        default: return nil
        }
    }

    private static func activity(of message: AssistantRecord) -> SessionActivity {
        let text = message.content.compactMap(\.text).joined()
        if message.isApiErrorMessage || (message.model == "<synthetic>" && text.hasPrefix("API Error")) { return .failed }
        if message.isSynthetic { return .turnEnded }
        switch message.content.last {
        case .toolUse?: return .toolPending
        case .thinking?, .redactedThinking?: return .working
        default: return message.stopReason == nil && message.content.isEmpty ? .working : .turnEnded
        }
    }

    private static func activity(of message: UserRecord) -> SessionActivity {
        if message.isToolResultOnly || message.isCompactSummary { return .working }
        let text = message.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let ended = ["[Request interrupted by user", "<local-command-stdout>", "<local-command-stderr>", "<bash-stdout>", "<bash-stderr>"]
        if ended.contains(where: text.hasPrefix) { return .turnEnded }
        return .working
    }
}

/// What a session picker shows a session doing.
public enum SessionState: String, Sendable, Equatable, Codable, CaseIterable {
    /// Claude is working (recent writes while a turn is open).
    case running
    /// A turn ended recently: Claude Code waits for the next prompt.
    case waitingForInput
    /// A tool call has waited without a result or progress for a while: a permission prompt.
    case waitingForPermission
    /// Nothing recent: the session is over (or its process is gone).
    case ended
    /// The last turn failed with an API error.
    case endedWithError
}

/// Turns a session's last activity and its file's age into a ``SessionState``. The file is
/// appended to while Claude Code works (records, `progress` lines); nothing is written while it
/// waits for a prompt or a permission answer.
public struct SessionStateRule: Sendable, Equatable {
    /// How long after the last write an open turn still counts as running (60 s).
    public var activeWindow: Int
    /// How long after the last write a waiting session still counts as open (1 h).
    public var idleWindow: Int

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - activeWindow: Seconds after the last write during which an open turn is running.
    ///   - idleWindow: Seconds after the last write during which a waiting session is open.
    public init(activeWindow: Int = 60, idleWindow: Int = 3_600) {
        self.activeWindow = activeWindow
        self.idleWindow = max(activeWindow, idleWindow)
    }

    /// The state of a session whose tail shows `activity` and whose file was last modified
    /// `modificationTime` (seconds since 1970) when it is `now`.
    public func state(activity: SessionActivity?, modificationTime: Int, now: Int) -> SessionState {
        let age = now - modificationTime
        let active = age <= activeWindow
        let open = age <= idleWindow
        switch activity {
        case .working?, .retrying?: return active ? .running : (activity == .retrying ? .endedWithError : .ended)
        case .toolPending?: return active ? .running : (open ? .waitingForPermission : .ended)
        case .turnEnded?: return open ? .waitingForInput : .ended
        case .failed?: return .endedWithError
        case nil: return active ? .running : .ended
        }
    }
}
