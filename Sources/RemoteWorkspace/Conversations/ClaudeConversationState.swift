import SessionHistory

/// What a ``ClaudeConversation`` shares between its reader task and its callers (under a mutex).
struct ClaudeConversationState {
    /// The running turn's event stream; nil between turns.
    var turn: AsyncThrowingStream<ClaudeEvent, Error>.Continuation?
    /// Control requests sent by rws and not yet answered: their subtype and waiter.
    var pending: [String: (subtype: String, continuation: CheckedContinuation<JSONValue, Error>)] = [:]
    /// Set once the process ended or the connection failed; every later call fails with it.
    var ended: Error?
    /// The session id of the latest turn.
    var sessionID: String?
    /// The end of Claude Code's stderr, for error messages.
    var stderrTail: [UInt8] = []
    /// Counter for rws's control request ids.
    var nextRequest = 0
    /// A turn whose reader went away runs to its (interrupted) result: its events are dropped.
    var discardingTurn = false
    /// Counts turns, so that a cancelled reader clears only its own turn.
    var turnNumber = 0
    /// Whether ``ClaudeConversation/stop()`` was called.
    var stopping = false
    /// Set for a detached conversation.
    var detached: DetachedReading?

    static let stderrLimit = 8_192

    mutating func appendStderr(_ bytes: [UInt8]) {
        stderrTail += bytes
        if stderrTail.count > Self.stderrLimit { stderrTail.removeFirst(stderrTail.count - Self.stderrLimit) }
    }
}
