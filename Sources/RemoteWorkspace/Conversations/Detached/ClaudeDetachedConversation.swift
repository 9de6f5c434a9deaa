/// A detached conversation on the box, as ``ClaudeConversation/listDetached(on:)`` finds it.
public struct ClaudeDetachedConversation: Sendable, Equatable {
    /// Whether a client follows it.
    public enum State: String, Sendable, Equatable {
        /// A client is attached.
        case attached
        /// Claude Code runs with no client attached (it ends after its idle time).
        case detached
        /// Claude Code ended; its files wait for a client to read the end.
        case ended
    }

    /// The id to attach with (``ClaudeConversation/attach(_:on:options:)``).
    public let id: String
    /// Attached, detached or ended.
    public let state: State
    /// The Claude Code session it continues (`SessionSummary.id`); nil before its first turn.
    public let sessionID: String?
    /// The directory Claude Code runs in, where the box says (nil elsewhere).
    public let directory: String?

    /// A listing row.
    ///
    /// - Parameters:
    ///   - id: The conversation's id.
    ///   - state: Attached, detached or ended.
    ///   - sessionID: The Claude Code session, once known.
    ///   - directory: Claude Code's directory, if known.
    public init(id: String, state: State, sessionID: String? = nil, directory: String?) {
        self.id = id
        self.state = state
        self.sessionID = sessionID
        self.directory = directory
    }
}
