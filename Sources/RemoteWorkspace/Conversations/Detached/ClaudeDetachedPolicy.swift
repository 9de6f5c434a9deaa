/// How a detached conversation runs: Claude Code goes on on the box when the link drops, and rws
/// attaches again from where it was (see ``ClaudeConversationOptions/detached``).
public struct ClaudeDetachedPolicy: Sendable, Equatable {
    /// How long Claude Code may run with no client attached before it is ended on the box (its
    /// files are removed after the same time once it ended and no client read them).
    public var idleTimeout: Duration

    /// A policy; `idleTimeout` of at least one second (30 minutes by default).
    ///
    /// - Parameter idleTimeout: How long Claude Code may run with no client attached.
    public init(idleTimeout: Duration = .seconds(30 * 60)) {
        self.idleTimeout = idleTimeout
    }

    /// The idle time in whole seconds, at least one.
    var idleSeconds: Int { max(1, Int(idleTimeout.components.seconds)) }
}
